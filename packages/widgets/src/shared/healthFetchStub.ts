/**
 * For stories: answers the widgets' `GET …/api/public/diagnostics` without a Wellrest server, so each story can
 * show one connection state. Use as a story's `beforeEach`; the returned cleanup restores `fetch`.
 */
/** `forbidden`: the server refuses this page (403); `database-down`: it answers 503. */
export type HealthOutcome = 'ok' | 'pending' | 'down' | 'forbidden' | 'database-down';

/** Long enough to see the skeleton before the outcome, short enough not to wait for it. */
const ANSWER_DELAY_MS = 600;

export function stubHealthFetch(outcome: HealthOutcome): () => () => void {
  return () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.endsWith('/api/public/diagnostics')) return realFetch(input, init);
      return new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        if (outcome === 'pending') return;
        setTimeout(() => {
          if (outcome === 'ok') resolve(Response.json({ status: 'ok' }));
          else if (outcome === 'forbidden') resolve(Response.json({ error: 'refused' }, { status: 403 }));
          else if (outcome === 'database-down')
            resolve(Response.json({ api: 'ok', database: 'unavailable' }, { status: 503 }));
          else reject(new TypeError('Failed to fetch'));
        }, ANSWER_DELAY_MS);
      });
    };
    return () => {
      globalThis.fetch = realFetch;
    };
  };
}
