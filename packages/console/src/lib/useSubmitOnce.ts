import { useCallback, useRef } from 'react';

/** A fresh key for one form submission, sent as `Idempotency-Key` with its creates. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * Guards a submit handler so that a second submit while the first is pending does nothing. A
 * disabled button is not enough: a double click delivers its second click before React has
 * re-rendered the button as disabled. `run` returns the work's promise; the guard opens when it
 * settles.
 */
export function useSubmitOnce<A extends unknown[]>(run: (...args: A) => Promise<unknown> | undefined) {
  const pending = useRef(false);
  return useCallback(
    (...args: A) => {
      if (pending.current) return;
      pending.current = true;
      const work = run(...args);
      if (!work) {
        pending.current = false;
        return;
      }
      void work.finally(() => {
        pending.current = false;
      });
    },
    [run],
  );
}
