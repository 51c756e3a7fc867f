import { CameraOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

const NO_CAMERA = 'No camera was found on this device. Use a barcode scanner or type the kit label.';

function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'Camera access was refused. Allow the camera in the browser’s site settings, or use a barcode scanner.';
  }
  if (name === 'NotReadableError') return 'The camera is in use by another application.';
  return NO_CAMERA;
}

/** Reads a kit barcode with the device camera (@zxing/browser) and hands over the first code read. */
export function CameraScanDialog({
  open,
  onOpenChange,
  onDetected,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDetected: (code: string) => void;
}) {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(true);
  const detected = useRef(onDetected);
  detected.current = onDetected;

  useEffect(() => {
    if (!open) return;
    let stopped = false;
    let stop: (() => void) | undefined;
    setProblem(null);
    setStarting(true);
    (async () => {
      if (!navigator.mediaDevices?.getUserMedia)
        throw Object.assign(new Error(NO_CAMERA), { name: 'NotFoundError' });
      const { BrowserMultiFormatReader } = await import('@zxing/browser');
      const devices = await BrowserMultiFormatReader.listVideoInputDevices();
      if (devices.length === 0) throw Object.assign(new Error(NO_CAMERA), { name: 'NotFoundError' });
      // Wait for the dialog to mount its video element.
      while (!videoRef.current && !stopped) await new Promise((resolve) => setTimeout(resolve, 20));
      if (stopped || !videoRef.current) return;
      const reader = new BrowserMultiFormatReader();
      const controls = await reader.decodeFromVideoDevice(
        undefined,
        videoRef.current,
        (result, _error, ctl) => {
          if (!result || stopped) return;
          stopped = true;
          ctl.stop();
          detected.current(result.getText());
          onOpenChange(false);
        },
      );
      stop = () => controls.stop();
      if (stopped) stop();
      setStarting(false);
    })().catch((error: unknown) => {
      if (!stopped) {
        setProblem(cameraProblem(error));
        setStarting(false);
      }
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [open, onOpenChange]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Scan with camera</DialogTitle>
          <DialogDescription>Hold the kit’s barcode label in front of the camera.</DialogDescription>
        </DialogHeader>
        {problem ? (
          <Alert variant="warning">
            <CameraOff aria-hidden />
            <AlertTitle>Camera unavailable</AlertTitle>
            <AlertDescription>{problem}</AlertDescription>
          </Alert>
        ) : (
          <div className="relative aspect-video overflow-hidden rounded-lg bg-slate-900">
            <video ref={videoRef} className="size-full object-cover" muted playsInline />
            {starting && (
              <div className="absolute inset-0 flex items-center justify-center">
                <Spinner className="text-white" label="Starting the camera" />
              </div>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
