import { useQuery } from '@tanstack/react-query';
import {
  API_PATHS,
  messages,
  SEARCH_DEBOUNCE_MS,
  SEARCH_LIMIT,
  SEARCH_MIN_CHARS,
  type SearchResult,
} from '@wellrest/core';
import { useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api';
import { rowsOf } from '@/lib/lists';

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

async function search(query: string, signal: AbortSignal): Promise<SearchResult[]> {
  try {
    const data = await apiRequest('POST', API_PATHS.search, { query, limit: SEARCH_LIMIT }, { signal });
    return rowsOf<SearchResult>(data, 'results');
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(messages.search.failed);
  }
}

/**
 * The global search: runs from SEARCH_MIN_CHARS characters, SEARCH_DEBOUNCE_MS after the last
 * keystroke. `pending` covers both the debounce wait and the request.
 */
export function useSearchResults(query: string, enabled: boolean) {
  const trimmed = query.trim();
  const settled = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS);
  const longEnough = trimmed.length >= SEARCH_MIN_CHARS;
  const results = useQuery({
    queryKey: [API_PATHS.search, settled],
    queryFn: ({ signal }) => search(settled, signal),
    enabled: enabled && settled.length >= SEARCH_MIN_CHARS,
    retry: false,
  });
  return {
    tooShort: !longEnough,
    pending: longEnough && (settled !== trimmed || results.isFetching),
    failed: longEnough && settled === trimmed && results.isError,
    results: settled === trimmed ? (results.data ?? []) : [],
  };
}
