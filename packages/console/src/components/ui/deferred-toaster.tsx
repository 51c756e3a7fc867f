import { lazy, Suspense, useEffect, useState } from 'react';
import { useToast } from './use-toast';

const Toaster = lazy(async () => ({ default: (await import('./toaster')).Toaster }));

/** Once the first screen is drawn and the page is idle (at the latest after this long). */
const IDLE_TIMEOUT_MS = 3_000;

/**
 * The app's toasts (toaster.tsx), whose code (Radix Toast and the layers under it) loads once the
 * first screen is drawn and the page is idle, or with the first toast if that comes sooner: the
 * first screen must not wait for it. It must not come later than that either. Each toast is a
 * dismissable layer, and Escape goes to the layer mounted last: a toast mounted only after the
 * dialog its action opened would take the Escape meant for that dialog. Once shown it stays.
 */
export function DeferredToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  useEffect(() => {
    if (needed) return;
    const show = () => setNeeded(true);
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(show, { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = window.setTimeout(show, IDLE_TIMEOUT_MS);
    return () => window.clearTimeout(handle);
  }, [needed]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
