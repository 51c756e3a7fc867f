import { renderHook } from '@testing-library/react';
import { QUERY_DEFAULTS } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import { ApiError, QueryError } from './api';
import { hasOpenForm, useRegisterOpenForm } from './formRegistry';
import { createQueryClient } from './queryClient';

type RefetchOption = (query: unknown) => boolean;

describe('query client defaults (spec §9)', () => {
  const defaults = createQueryClient().getDefaultOptions();
  const queries = defaults.queries ?? {};
  const mutations = defaults.mutations ?? {};

  it('never polls and keeps nothing fresh or cached', () => {
    expect(queries.refetchInterval).toBe(false);
    expect(queries.staleTime).toBe(QUERY_DEFAULTS.staleTime);
    expect(queries.gcTime).toBe(QUERY_DEFAULTS.gcTime);
    expect(QUERY_DEFAULTS.staleTime).toBe(0);
    expect(QUERY_DEFAULTS.gcTime).toBe(0);
  });

  it('retries queries twice with a doubling delay capped at 30 s, and never a 401 or 403', () => {
    const retry = queries.retry as (failureCount: number, error: Error) => boolean;
    expect(retry(0, new Error('network'))).toBe(true);
    expect(retry(QUERY_DEFAULTS.retry - 1, new QueryError(500, 'x'))).toBe(true);
    expect(retry(QUERY_DEFAULTS.retry, new QueryError(500, 'x'))).toBe(false);
    expect(retry(0, new QueryError(401, 'x'))).toBe(false);
    expect(retry(0, new QueryError(403, 'x'))).toBe(false);
    expect(retry(0, new ApiError(403, { error: 'x' }))).toBe(false);
    const delay = queries.retryDelay as (attempt: number, error: Error) => number;
    const error = new Error('x');
    expect([0, 1, 2, 10].map((attempt) => delay(attempt, error))).toEqual([1000, 2000, 4000, 30_000]);
    expect(queries.networkMode).toBe(QUERY_DEFAULTS.networkMode);
  });

  it('retries a mutation once, but not a deliberate 4xx answer', () => {
    const retry = mutations.retry as (failureCount: number, error: Error) => boolean;
    expect(retry(0, new Error('network'))).toBe(true);
    expect(retry(QUERY_DEFAULTS.mutationRetry, new Error('network'))).toBe(false);
    expect(retry(0, new ApiError(500, { error: 'x' }))).toBe(true);
    expect(retry(0, new ApiError(401, { error: 'x' }))).toBe(false);
    expect(mutations.networkMode).toBe(QUERY_DEFAULTS.networkMode);
  });

  it('suppresses refetch on focus, mount and reconnect while a form is open', () => {
    const options = ['refetchOnWindowFocus', 'refetchOnMount', 'refetchOnReconnect'] as const;
    for (const option of options) expect((queries[option] as RefetchOption)({})).toBe(true);

    const form = renderHook(({ open }) => useRegisterOpenForm(open), { initialProps: { open: true } });
    expect(hasOpenForm()).toBe(true);
    for (const option of options) expect((queries[option] as RefetchOption)({})).toBe(false);

    form.rerender({ open: false });
    expect(hasOpenForm()).toBe(false);
    for (const option of options) expect((queries[option] as RefetchOption)({})).toBe(true);

    form.rerender({ open: true });
    form.unmount();
    expect(hasOpenForm()).toBe(false);
  });
});
