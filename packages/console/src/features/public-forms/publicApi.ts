import { errorField } from '@/lib/api';

export interface FieldIssue {
  path: string;
  message: string;
}

export type PublicAnswer<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string; reason?: string; issues: FieldIssue[] };

/** A public (no session) call: never throws, keeps the server's message, reason and field issues. */
export async function publicRequest<T>(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<PublicAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, error: '', issues: [] };
  }
  const data: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, data: data as T };
  const { reason, issues } = (data ?? {}) as { reason?: unknown; issues?: unknown };
  return {
    ok: false,
    status: response.status,
    error: errorField(data) ?? '',
    reason: typeof reason === 'string' ? reason : undefined,
    issues: Array.isArray(issues) ? (issues as FieldIssue[]) : [],
  };
}

/** `[{ path: 'fullName', message }]` → `{ fullName: message }` (first message per field). */
export function issuesByField(issues: FieldIssue[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of issues) byField[issue.path] ??= issue.message;
  return byField;
}
