import { API_PATHS } from '@wellrest/core';
import { dataRequest } from './dataRequest';

let early: Promise<Response> | undefined;

/**
 * Sends the session call (the signed-in user, or 401 when nobody is signed in) at once, for the
 * first session query to take (boot.ts, as the page is parsed): the check then runs while the
 * console's code downloads instead of after it.
 */
export function startSessionCheck(): void {
  if (early) return;
  early = dataRequest(API_PATHS.authMe);
  // Handled by the query that takes it; a page that never asks must not report a rejection.
  early.catch(() => undefined);
}

/** The call {@link startSessionCheck} sent, once; undefined when none is waiting. */
export function takeSessionCheck(): Promise<Response> | undefined {
  const response = early;
  early = undefined;
  return response;
}
