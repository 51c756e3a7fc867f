import { type QueryFunction, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@wellrest/core';
import { getQueryFn, queryResult } from '@/lib/api';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { takeSessionCheck } from '@/lib/sessionCheck';

/**
 * The signed-in user as `GET /api/auth/me` returns it: the user, when the session ends, whether
 * two-factor authentication is on, and when the password expires (null: never).
 */
export type SessionUser = CurrentUser & {
  sessionExpiresAt?: string | null;
  twoFactorEnabled?: boolean;
  passwordExpiresAt?: string | null;
  /** The account must choose its own password before anything else (set by an administrator). */
  mustChangePassword?: boolean;
  /** The account's role requires two-factor authentication and it is not on yet. */
  mustEnrolTwoFactor?: boolean;
  /** The practice's IANA time zone: times and "today" are shown in it. */
  practiceTimeZone?: string;
};

const askServer = getQueryFn<SessionUser>({ on401: 'returnNull' });

/** The first check takes the session call the page sent as it loaded (boot.ts); later ones ask anew. */
export const fetchCurrentUser: QueryFunction<SessionUser | null> = async (context) => {
  const early = takeSessionCheck();
  return early ? queryResult<SessionUser>(await early, 'returnNull') : askServer(context);
};

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
