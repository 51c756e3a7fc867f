import { ApiError } from '@/lib/api';

/**
 * The per-field messages of a refused request: the API answers bad input with
 * 400 `{ error, fields: { name: message } }`. Empty when the error carries none.
 */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return {};
  const fields = (error.data as { fields?: unknown }).fields;
  if (!fields || typeof fields !== 'object') return {};
  const found: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields)) {
    if (typeof message === 'string' && message) found[name] = message;
  }
  return found;
}

/** The first issue of each field of a failed zod parse, keyed by the field's name. */
export function zodFieldErrors(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>) {
  const found: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !found[field]) found[field] = issue.message;
  }
  return found;
}
