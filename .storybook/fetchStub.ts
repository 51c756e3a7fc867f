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

/**
 * Long enough to see the pending state flash by, short enough not to wait for it. The command-line
 * test run (VITEST_STORYBOOK 'false') answers at once: it waits for every answer of every story.
 */
const DEFAULT_DELAY_MS =
  (import.meta as { env?: Record<string, string | undefined> }).env?.VITEST_STORYBOOK === 'false' ? 10 : 400;

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** Answers on their way (timers running); never-settling calls are not counted. */
let inFlight = 0;

/**
 * Resolves once every stubbed call has been answered and the screen has had a moment to render
 * what came back (calls it then makes are waited for too). A story's `play` awaits it, so its
 * test and the accessibility check look at the answered screen, not its spinner.
 */
export async function stubbedCallsSettled(timeoutMs = 5000): Promise<void> {
  const quiet = () => new Promise((resolve) => setTimeout(resolve, 50));
  const end = Date.now() + timeoutMs;
  let calmChecks = 0;
  while (calmChecks < 2 && Date.now() < end) {
    await quiet();
    calmChecks = inFlight === 0 ? calmChecks + 1 : 0;
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
        inFlight += 1;
        setTimeout(() => {
          inFlight -= 1;
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

/** The same calls, never answered: the screen's loading state. */
export function pendingRoutes(routes: StubRoutes): StubRoutes {
  return Object.fromEntries(Object.keys(routes).map((key) => [key, { network: 'pending' }]));
}

/** The same calls, answered with a server error: the screen's error state. */
export function failingRoutes(routes: StubRoutes): StubRoutes {
  return Object.fromEntries(
    Object.keys(routes).map((key) => [key, { status: 500, body: { error: 'Something went wrong' } }]),
  );
}

/**
 * The four states every screen has, as stories' `beforeEach`: `filled` answers the screen's
 * calls with demo data, `empty` with nothing in the lists, `loading` never answers and `failed`
 * answers 500. `always` (the signed-in user, settings) is answered the same in all four.
 */
export function screenStates(filled: StubRoutes, empty: StubRoutes, always: StubRoutes = {}) {
  const play = () => stubbedCallsSettled();
  return {
    Filled: { beforeEach: stubFetch({ ...filled, ...always }), play },
    Empty: { beforeEach: stubFetch({ ...filled, ...empty, ...always }), play },
    Loading: { beforeEach: stubFetch({ ...pendingRoutes(filled), ...always }), play },
    LoadFailed: { beforeEach: stubFetch({ ...failingRoutes(filled), ...always }), play },
  };
}
