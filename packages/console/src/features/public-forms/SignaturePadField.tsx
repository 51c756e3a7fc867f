import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { Button } from '@/components/ui/button';
import { publicCopy } from './publicCopy';

interface SignaturePadFieldProps {
  /** Called with the PNG data URL after each stroke, or '' when cleared. */
  onChange: (dataUrl: string) => void;
  invalid: boolean;
  describedBy?: string;
}

/** A drawn signature (signature_pad) on a canvas that keeps its resolution on any screen. */
export function SignaturePadField({ onChange, invalid, describedBy }: SignaturePadFieldProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: '#0f172a', backgroundColor: 'rgb(255,255,255)' });
    padRef.current = pad;
    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      onChangeRef.current('');
    };
    resize();
    const onEnd = () => onChangeRef.current(pad.isEmpty() ? '' : pad.toDataURL('image/png'));
    pad.addEventListener('endStroke', onEnd);
    window.addEventListener('resize', resize);
    return () => {
      pad.removeEventListener('endStroke', onEnd);
      window.removeEventListener('resize', resize);
      pad.off();
    };
  }, []);

  return (
    <div className="grid gap-2">
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={publicCopy.signature}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        data-testid="signature-pad"
        className={`h-40 w-full touch-none rounded-md border bg-white ${invalid ? 'border-red-600' : 'border-slate-300'}`}
      />
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => {
            padRef.current?.clear();
            onChange('');
          }}
        >
          {publicCopy.clearSignature}
        </Button>
      </div>
    </div>
  );
}
