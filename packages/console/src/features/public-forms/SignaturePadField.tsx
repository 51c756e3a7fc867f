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
    let size = { width: 0, height: 0 };
    // The canvas is redrawn at its new size (a resize, a phone turned): the strokes drawn so far
    // are kept, scaled to the new width, instead of being wiped without the signer noticing.
    const resize = () => {
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (width === 0 || height === 0 || (width === size.width && height === size.height)) return;
      const strokes = pad.toData();
      const scale = size.width > 0 ? Math.min(width / size.width, height / size.height) : 1;
      size = { width, height };
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = width * ratio;
      canvas.height = height * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (strokes.length === 0) return;
      pad.fromData(
        strokes.map((stroke) => ({
          ...stroke,
          points: stroke.points.map((point) => ({ ...point, x: point.x * scale, y: point.y * scale })),
        })),
      );
      onChangeRef.current(pad.toDataURL('image/png'));
    };
    resize();
    const onEnd = () => onChangeRef.current(pad.isEmpty() ? '' : pad.toDataURL('image/png'));
    pad.addEventListener('endStroke', onEnd);
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    return () => {
      pad.removeEventListener('endStroke', onEnd);
      observer.disconnect();
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
