/**
 * The rows of a list response: either a bare array or an object holding the array under
 * `key` (e.g. `{ users: [...] }`), so a page keeps working if an endpoint adds paging fields.
 */
export function rowsOf<T>(data: unknown, key: string): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object') {
    const value = (data as Record<string, unknown>)[key] ?? (data as Record<string, unknown>).items;
    if (Array.isArray(value)) return value as T[];
  }
  return [];
}
