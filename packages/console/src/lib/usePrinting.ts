import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';

/*
 * Whether the page is being printed: from `beforeprint` to `afterprint`, or while the print media
 * query matches. What only paper shows (the whole of a list the screen cuts short) is drawn then
 * rather than with every screen: on the dashboard it was most of the first render's elements.
 */

let printing = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Drawn at once, inside the print event: the browser lays the page out for paper right after. */
function setPrinting(value: boolean): void {
  if (printing === value) return;
  printing = value;
  flushSync(notify);
}

const onBeforePrint = () => setPrinting(true);
const onAfterPrint = () => setPrinting(false);

function printQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia('print') : null;
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener('beforeprint', onBeforePrint);
    window.addEventListener('afterprint', onAfterPrint);
    printQuery()?.addEventListener('change', notify);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    window.removeEventListener('beforeprint', onBeforePrint);
    window.removeEventListener('afterprint', onAfterPrint);
    printQuery()?.removeEventListener('change', notify);
  };
}

export function usePrinting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => printing || (printQuery()?.matches ?? false),
    () => false,
  );
}
