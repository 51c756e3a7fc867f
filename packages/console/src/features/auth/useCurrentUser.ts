import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@wellrest/core';
import { getQueryFn } from '@/lib/api';
import { CURRENT_USER_KEY } from '@/lib/queryClient';

/** The signed-in user as `GET /api/auth/me` returns it, with the session's end when the server sends it. */
export type SessionUser = CurrentUser & { sessionExpiresAt?: string | null; twoFactorEnabled?: boolean };

const fetchCurrentUser = getQueryFn<SessionUser>({ on401: 'returnNull' });

/**
 * The signed-in user. A 401 means "nobody signed in" and yields `null` rather than an error:
 * authenticated means the session call returned a user (spec §4).
 */
export function useCurrentUser() {
  const query = useQuery({ queryKey: CURRENT_USER_KEY, queryFn: fetchCurrentUser });
  return {
    user: query.data ?? null,
    isLoading: query.isPending,
    isAuthenticated: Boolean(query.data),
    query,
  };
}
