import { lazy, Suspense, useState } from 'react';
import { useToast } from './use-toast';

const Toaster = lazy(async () => ({ default: (await import('./toaster')).Toaster }));

/**
 * The app's toasts (toaster.tsx), whose code (Radix Toast and the layers under it) loads with the
 * first toast instead of with the page: most page loads show none, and the first screen must not
 * wait for it. Once shown it stays, so later toasts appear at once.
 */
export function DeferredToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
