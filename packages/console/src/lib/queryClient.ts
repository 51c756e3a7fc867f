import { QueryCache, QueryClient } from '@tanstack/react-query';
import { API_PATHS, QUERY_DEFAULTS } from '@wellrest/core';
import { ApiError, getQueryFn, QueryError } from './api';
import { hasOpenForm } from './formRegistry';

/** The query key of the signed-in user (`GET /api/auth/me`). */
export const CURRENT_USER_KEY = [API_PATHS.authMe] as const;

const unlessFormOpen = () => !hasOpenForm();

/**
 * Mutations retry once (spec §9), except when the server answered with a 4xx: that answer is
 * deliberate (a wrong password, a validation error) and repeating the call would only count
 * twice against lockout and rate limits.
 */
function retryMutation(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < QUERY_DEFAULTS.mutationRetry;
}

/**
 * Queries retry twice (spec §9), except a 401 or 403: the answer will not change by asking
 * again, and the user should see "sign in" or "no permission" at once, not after the retries.
 */
export function retryQuery(failureCount: number, error: Error): boolean {
  const status = error instanceof QueryError || error instanceof ApiError ? error.status : undefined;
  if (status === 401 || status === 403) return false;
  return failureCount < QUERY_DEFAULTS.retry;
}

/** Builds a query client configured as spec §9 (exported separately so tests get a fresh one). */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        // The session ended (idle timeout, revoked): show the sign-in form in place.
        if (error instanceof QueryError && error.status === 401) client.setQueryData(CURRENT_USER_KEY, null);
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: unlessFormOpen,
        refetchOnMount: unlessFormOpen,
        refetchOnReconnect: unlessFormOpen,
        staleTime: QUERY_DEFAULTS.staleTime,
        gcTime: QUERY_DEFAULTS.gcTime,
        retry: retryQuery,
        retryDelay: QUERY_DEFAULTS.retryDelay,
        networkMode: QUERY_DEFAULTS.networkMode,
      },
      mutations: {
        retry: retryMutation,
        networkMode: QUERY_DEFAULTS.networkMode,
      },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
