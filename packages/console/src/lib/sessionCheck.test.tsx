import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { API_PATHS } from '@wellrest/core';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { createQueryClient } from '@/lib/queryClient';
import { jsonResponse, mockApi } from '@/test/http';
import { startSessionCheck, takeSessionCheck } from './sessionCheck';

const user = { id: 7, username: 'sam', role: 'scheduler' as const, displayName: 'Sam Scheduler' };

function sessionCalls(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls.filter(([url]) => String(url).startsWith(`${API_PATHS.authMe}?`));
}

/** useCurrentUser() under a fresh query client configured as the console's. */
function renderCurrentUser() {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { ...renderHook(() => useCurrentUser(), { wrapper }), client };
}

describe('the session check sent as the page loads', () => {
  it('is one timestamped GET with the cookie and no-cache headers, sent once', async () => {
    const fetchMock = mockApi({ [`GET ${API_PATHS.authMe}`]: () => jsonResponse(user) });
    startSessionCheck();
    startSessionCheck();
    const calls = sessionCalls(fetchMock);
    expect(calls).toHaveLength(1);
    const [url, init] = calls[0] ?? [];
    expect(String(url)).toMatch(/^\/api\/auth\/me\?_t=\d+$/);
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('Cache-Control')).toBe('no-cache');
    expect(new Headers(init?.headers).get('Pragma')).toBe('no-cache');
    const response = await takeSessionCheck();
    expect(await response?.json()).toEqual(user);
    expect(takeSessionCheck()).toBeUndefined();
  });

  it('answers the first session query, which then sends no call of its own', async () => {
    const fetchMock = mockApi({ [`GET ${API_PATHS.authMe}`]: () => jsonResponse(user) });
    startSessionCheck();
    const { result, client } = renderCurrentUser();
    await waitFor(() => expect(result.current.user).toEqual(user));
    expect(sessionCalls(fetchMock)).toHaveLength(1);
    // A later check asks the server again.
    await client.refetchQueries({ queryKey: [API_PATHS.authMe] });
    expect(sessionCalls(fetchMock)).toHaveLength(2);
  });

  it('reads a 401 as nobody signed in', async () => {
    mockApi({
      [`GET ${API_PATHS.authMe}`]: () => jsonResponse({ error: 'Not authenticated' }, { status: 401 }),
    });
    startSessionCheck();
    const { result } = renderCurrentUser();
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(result.current.isAuthenticated).toBe(false);
  });
});
