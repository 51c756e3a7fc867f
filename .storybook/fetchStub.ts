/**
 * For stories: answers chosen API calls in the browser, so every state of a form can be shown
 * without a Wellrest server. Any other request goes to the real `fetch`. Use the result as a
 * story's `beforeEach`; the cleanup it returns restores `fetch`.
 */

export type StubReply =
  /** An HTTP answer with a JSON body. */
  | { status: number; body?: unknown; delayMs?: number }
  /** The request fails as with no connection, or never settles (a pending call). */
  | { network: 'error' | 'pending'; delayMs?: number };

export interface StubRequest {
  method: string;
  url: URL;
  body: unknown;
}

/** Keys are `'METHOD /path'` or `'/path'` (any method); the query string is ignored. */
export type StubRoutes = Record<string, StubReply | ((request: StubRequest) => StubReply)>;

/** Long enough to see the pending state flash by, short enough not to wait for it. */
const DEFAULT_DELAY_MS = 400;

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export function stubFetch(routes: StubRoutes): () => () => void {
  return () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      const route = routes[`${method} ${url.pathname}`] ?? routes[url.pathname];
      if (!route) return realFetch(input, init);
      const reply = typeof route === 'function' ? route({ method, url, body: parseBody(init?.body) }) : route;
      return new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        if ('network' in reply && reply.network === 'pending') return;
        setTimeout(() => {
          if ('network' in reply) reject(new TypeError('Failed to fetch'));
          else
            resolve(
              reply.body === undefined
                ? new Response(null, { status: reply.status })
                : Response.json(reply.body, { status: reply.status }),
            );
        }, reply.delayMs ?? DEFAULT_DELAY_MS);
      });
    };
    return () => {
      globalThis.fetch = realFetch;
    };
  };
}
