/*
 * How the console's data queries go to the API (spec §8): the path with a timestamp, the session
 * cookie and no-cache headers. No imports: the page's first script (boot.ts) sends the session
 * call with these before the rest of the console has loaded.
 */

/** Adds `_t=<now>` so no cache between the browser and the API can answer instead of the server. */
export function withTimestamp(path: string, now: number = Date.now()): string {
  return `${path}${path.includes('?') ? '&' : '?'}_t=${now}`;
}

/** A data query's GET of `path`: timestamped, with credentials and no-cache headers. */
export function dataRequest(path: string, signal?: AbortSignal): Promise<Response> {
  return fetch(withTimestamp(path), {
    credentials: 'include',
    headers: { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    signal,
  });
}
