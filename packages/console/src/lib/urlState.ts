import { useCallback, useState } from 'react';
import { useSearch } from 'wouter';

/*
 * What a list screen keeps across Back and a reload of the tab:
 * - filters that say nothing about a patient (lead source, status, sort, page) live in the URL;
 * - search text, which may be a patient's name, lives in the history entry's state, never in the
 *   URL: the browser keeps it for that entry on Back and Forward and across a reload.
 */

function currentState(): Record<string, unknown> {
  const state: unknown = window.history.state;
  return state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
}

/** A value kept in the current history entry (not the URL). */
export function useHistoryState(key: string, initial: string): [string, (value: string) => void] {
  const [value, setValue] = useState<string>(() => {
    const stored = currentState()[key];
    return typeof stored === 'string' ? stored : initial;
  });
  const set = useCallback(
    (next: string) => {
      setValue(next);
      window.history.replaceState({ ...currentState(), [key]: next }, '');
    },
    [key],
  );
  return [value, set];
}

/** Replaces query parameters of the current URL (null or the default removes one), keeping hash and state. */
export function replaceSearchParams(changes: Record<string, string | null>): void {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  const { pathname, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${query ? `?${query}` : ''}${hash}`);
}

/** A filter kept in the URL whose value is one of `allowed` (anything else reads as ''). */
export function useChoiceParam<T extends string>(
  name: string,
  allowed: readonly T[],
): [T | '', (value: T | '') => void] {
  const search = useSearch();
  const raw = new URLSearchParams(search).get(name);
  const value = allowed.includes(raw as T) ? (raw as T) : '';
  const set = useCallback((next: T | '') => replaceSearchParams({ [name]: next || null }), [name]);
  return [value, set];
}
