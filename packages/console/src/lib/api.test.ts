import type { QueryFunctionContext } from '@tanstack/react-query';
import { messages } from '@wellrest/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, textResponse } from '@/test/http';
import { ApiError, apiRequest, errorMessage, getQueryFn, QueryError } from './api';
import { withTimestamp } from './dataRequest';

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function context(path: string): QueryFunctionContext {
  return {
    queryKey: [path],
    signal: new AbortController().signal,
    meta: undefined,
  } as unknown as QueryFunctionContext;
}

/** Runs the default query function for `path`. */
async function runQuery(path: string, on401: 'throw' | 'returnNull' = 'throw'): Promise<unknown> {
  return getQueryFn({ on401 })(context(path));
}

function headersOf(init: RequestInit | undefined): Headers {
  return new Headers(init?.headers);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('apiRequest', () => {
  it('sends credentials and no content type when there is no body', async () => {
    const fetchMock = stubFetch(jsonResponse({ ok: true }));
    await expect(apiRequest('POST', '/api/auth/logout')).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/logout');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBeUndefined();
    expect(headersOf(init).has('Content-Type')).toBe(false);
  });

  it('sends a JSON body with the JSON content type', async () => {
    const fetchMock = stubFetch(jsonResponse({ id: 7 }));
    await apiRequest('POST', '/api/patients', { name: 'x' });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(headersOf(init).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe(JSON.stringify({ name: 'x' }));
    expect(init?.credentials).toBe('include');
  });

  it('returns text when the response is not JSON', async () => {
    stubFetch(textResponse('pong'));
    await expect(apiRequest('GET', '/api/ping')).resolves.toBe('pong');
  });

  it('throws the status and the JSON body of a failed call', async () => {
    stubFetch(jsonResponse({ error: messages.login.invalidCredentials, success: false }, { status: 401 }));
    const error = await apiRequest('POST', '/api/auth/login', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).data).toEqual({ error: messages.login.invalidCredentials, success: false });
    expect((error as ApiError).message).toBe(messages.login.invalidCredentials);
  });

  it('wraps a text error body in an error field', async () => {
    stubFetch(textResponse('Bad gateway upstream', { status: 502, statusText: 'Bad Gateway' }));
    const error = (await apiRequest('GET', '/api/bookings').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.data).toEqual({ error: 'Bad gateway upstream' });
  });

  it('errorMessage prefers the server error field, then the fallback', () => {
    expect(errorMessage(new ApiError(400, { error: 'Nope' }), messages.login.failed)).toBe('Nope');
    expect(errorMessage(new ApiError(500, { other: 1 }), messages.login.failed)).toBe(messages.login.failed);
    expect(errorMessage('strange', messages.login.failed)).toBe(messages.login.failed);
  });
});

describe('withTimestamp', () => {
  it('adds _t as the first or a further query parameter', () => {
    expect(withTimestamp('/api/bookings', 42)).toBe('/api/bookings?_t=42');
    expect(withTimestamp('/api/bookings?status=confirmed', 42)).toBe('/api/bookings?status=confirmed&_t=42');
  });
});

describe('getQueryFn', () => {
  it('reads the path from the first key element, adds _t and sends no-cache headers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-04T10:00:00Z'));
    const fetchMock = stubFetch(jsonResponse([{ id: 1 }]));
    const data = await runQuery('/api/bookings', 'throw');
    expect(data).toEqual([{ id: 1 }]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/api/bookings?_t=${Date.parse('2025-03-04T10:00:00Z')}`);
    expect(init?.credentials).toBe('include');
    expect(headersOf(init).get('Cache-Control')).toBe('no-cache');
    expect(headersOf(init).get('Pragma')).toBe('no-cache');
  });

  it('throws "status: text" when the call fails', async () => {
    stubFetch(textResponse('Database unavailable', { status: 503, statusText: 'Service Unavailable' }));
    const error = await runQuery('/api/patients', 'throw').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).status).toBe(503);
    expect((error as Error).message).toBe(messages.common.statusError(503, 'Database unavailable'));
  });

  it('falls back to the status text when the body is empty', async () => {
    stubFetch(new Response(null, { status: 500, statusText: 'Internal Server Error' }));
    await expect(runQuery('/api/patients', 'throw')).rejects.toThrow(
      messages.common.statusError(500, 'Internal Server Error'),
    );
  });

  it('throws on 401 by default', async () => {
    stubFetch(jsonResponse({ error: messages.common.authenticationRequired }, { status: 401 }));
    await expect(runQuery('/api/auth/me', 'throw')).rejects.toThrow(
      messages.common.statusError(401, JSON.stringify({ error: messages.common.authenticationRequired })),
    );
  });

  it('yields null on 401 when configured to', async () => {
    stubFetch(jsonResponse({ error: messages.common.authenticationRequired }, { status: 401 }));
    await expect(runQuery('/api/auth/me', 'returnNull')).resolves.toBeNull();
  });

  it('still throws other failures when 401 yields null', async () => {
    stubFetch(textResponse('Forbidden', { status: 403 }));
    await expect(runQuery('/api/admin/users', 'returnNull')).rejects.toThrow(
      messages.common.statusError(403, 'Forbidden'),
    );
  });
});
