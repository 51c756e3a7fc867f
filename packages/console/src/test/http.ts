import { vi } from 'vitest';

/** A JSON response as `fetch` would resolve it. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...init.headers },
  });
}

export function textResponse(body: string, init: ResponseInit = {}): Response {
  return new Response(body, {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'text/plain', ...init.headers },
  });
}

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

/**
 * Replaces `fetch` with a router over `METHOD /path` keys (the query string is ignored).
 * Unknown calls answer 404. Returns the mock so tests can inspect the calls made.
 */
export function mockApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${(init.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    const handler = routes[key];
    if (!handler) return jsonResponse({ error: 'Not found' }, { status: 404 });
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The parsed JSON body of a recorded fetch call. */
export function bodyOf(init: RequestInit | undefined): unknown {
  return init?.body ? JSON.parse(String(init.body)) : undefined;
}
