import { lazy, Suspense, useEffect, useState } from 'react';
import { useToast } from './use-toast';

const Toaster = lazy(async () => ({ default: (await import('./toaster')).Toaster }));

/** Once the first screen is drawn and the page is idle (at the latest after this long). */
const IDLE_TIMEOUT_MS = 3_000;

const NOTHING_TO_WAIT_FOR: Promise<unknown> = Promise.resolve();

/**
 * The app's toasts (toaster.tsx), whose code (Radix Toast and the layers under it) loads once the
 * first screen is drawn and the page is idle, or with the first toast if that comes sooner: the
 * first screen must not wait for it. It must not come later than that either. Each toast is a
 * dismissable layer, and Escape goes to the layer mounted last: a toast mounted only after the
 * dialog its action opened would take the Escape meant for that dialog. Once shown it stays.
 *
 * `after` is the first screen's code: the page is idle while that downloads, and the toasts' code
 * asked for then would share the connection with it and hold the first screen back.
 */
export function DeferredToaster({ after = NOTHING_TO_WAIT_FOR }: { after?: Promise<unknown> }) {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  useEffect(() => {
    if (needed) return;
    const show = () => setNeeded(true);
    let waiting = true;
    let stopWaiting = () => {
      waiting = false;
    };
    const waitForIdle = () => {
      if (!waiting) return;
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(show, { timeout: IDLE_TIMEOUT_MS });
        stopWaiting = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(show, IDLE_TIMEOUT_MS);
        stopWaiting = () => window.clearTimeout(handle);
      }
    };
    after.then(waitForIdle, waitForIdle);
    return () => stopWaiting();
  }, [needed, after]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
