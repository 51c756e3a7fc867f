import type { QueryFunction } from '@tanstack/react-query';
import { IDEMPOTENCY_HEADER, messages } from '@wellrest/core';
import { dataRequest } from './dataRequest';

/**
 * A failed call of {@link apiRequest}: the HTTP status and the response data — the JSON body
 * when the server sent JSON, otherwise `{ error: <response text> }`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;

  constructor(status: number, data: unknown, statusText = '') {
    super(errorField(data) ?? `${status}: ${statusText || 'Request failed'}`);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

/** A failed call of the default query function: the message is `${status}: ${text or statusText}`. */
export class QueryError extends Error {
  readonly status: number;

  constructor(status: number, text: string) {
    super(messages.common.statusError(status, text));
    this.name = 'QueryError';
    this.status = status;
  }
}

/** The `error` field of a response body, when it has one. */
export function errorField(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'error' in data) {
    const value = (data as { error: unknown }).error;
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/** The message to show for a failed call: the server's error field, else the error's own message, else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return errorField(error.data) ?? fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/**
 * The text of a failed call as the server sent it (the JSON body re-serialised), or the error's
 * own message, so errorMessageFrom can apply spec §8's rule: the `error` field when the text
 * parses as JSON, else the raw text, else the default.
 */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    return typeof error.data === 'string' ? error.data : JSON.stringify(error.data ?? '');
  }
  return error instanceof Error ? error.message : '';
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('json');
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  if (isJson(response)) {
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  }
  return response.text();
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls the API with the session cookie. The JSON content type is sent only with a body.
 * Resolves with the parsed JSON (or the text) of a successful response; rejects with an
 * {@link ApiError} otherwise.
 */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  url: string,
  body?: unknown,
  init: { signal?: AbortSignal; idempotencyKey?: string } = {},
): Promise<T> {
  const hasBody = body !== undefined;
  const headers: Record<string, string> = {};
  if (hasBody) headers['Content-Type'] = 'application/json';
  // The same key on a retried or doubled create makes the server answer it once (it replays).
  if (init.idempotencyKey) headers[IDEMPOTENCY_HEADER] = init.idempotencyKey;
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
    signal: init.signal,
  });
  if (!response.ok) {
    const text = await response.text();
    let data: unknown = { error: text };
    if (isJson(response) && text) {
      try {
        data = JSON.parse(text);
      } catch {
        // A body labelled JSON that does not parse is kept as text.
      }
    }
    throw new ApiError(response.status, data, response.statusText);
  }
  return (await readBody(response)) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default query function: the first element of the query key is the API path.
 * A 401 rejects, or resolves with `null` when `on401` is `'returnNull'`.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) =>
    queryResult<T>(await dataRequest(String(queryKey[0]), signal), options.on401);
}

/** What a data query resolves with for a response, or the {@link QueryError} it rejects with. */
export async function queryResult<T>(response: Response, on401: UnauthorizedBehavior): Promise<T | null> {
  if (on401 === 'returnNull' && response.status === 401) return null;
  if (!response.ok) {
    const text = await response.text();
    throw new QueryError(response.status, text || response.statusText);
  }
  return (await readBody(response)) as T;
}
