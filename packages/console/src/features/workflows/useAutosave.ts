import { useCallback, useEffect, useRef, useState } from 'react';

/** How long typing must pause before a draft is saved. */
export const AUTOSAVE_DELAY_MS = 800;

export type AutosaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

/**
 * Saves `value` `delayMs` after its last change, one save at a time: a change made while a save is
 * in flight is saved when that one settles, so the server always ends with the latest draft.
 * `flush` saves at once (before leaving, enabling or testing).
 */
export function useAutosave<T>(
  value: T,
  save: (value: T) => Promise<unknown>,
  { delayMs = AUTOSAVE_DELAY_MS, enabled = true }: { delayMs?: number; enabled?: boolean } = {},
) {
  const [state, setState] = useState<AutosaveState>('idle');
  const latest = useRef(value);
  const saved = useRef(value);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;
  latest.current = value;

  const run = useCallback(async (): Promise<void> => {
    if (inFlight.current) {
      await inFlight.current;
    }
    if (latest.current === saved.current) return;
    const next = latest.current;
    setState('saving');
    const attempt = (async () => {
      try {
        await saveRef.current(next);
        saved.current = next;
        setState(latest.current === next ? 'saved' : 'pending');
      } catch {
        setState('failed');
      }
    })();
    inFlight.current = attempt;
    await attempt;
    inFlight.current = null;
    if (latest.current !== saved.current && latest.current !== next) await run();
  }, []);

  useEffect(() => {
    if (!enabled || value === saved.current) return;
    setState((current) => (current === 'saving' ? current : 'pending'));
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void run();
    }, delayMs);
    // No clean-up here: the next change replaces the timer, and leaving the page saves at once.
  }, [value, enabled, delayMs, run]);

  // Leaving the page saves what is still waiting for its pause.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        timer.current = null;
        void run();
      }
    },
    [run],
  );

  const flush = useCallback(async () => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    await run();
  }, [run]);

  /** Marks `next` as what the server holds (a freshly loaded or replaced draft), without saving it. */
  const reset = useCallback((next: T) => {
    saved.current = next;
    latest.current = next;
    setState('idle');
  }, []);

  return { state, flush, reset };
}
