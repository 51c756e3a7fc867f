import { resolveApiBase } from './apiBase';

/** Header naming the partner's embed key on every `/api/public/*` call from another origin. */
export const EMBED_KEY_HEADER = 'X-Wellrest-Embed-Key';

/** One problem with one field, as the API reports it (`path` like `physician.npi`). */
export interface FieldIssue {
  path: string;
  message: string;
}

export type PublicResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: string; issues: FieldIssue[] };

export interface PublicRequest {
  apiBase: string | undefined;
  embedKey: string | undefined;
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const NETWORK_ERROR = 'We couldn’t reach the scheduling service. Please check your connection and try again.';
const FALLBACK_ERROR = 'Something went wrong. Please try again.';

function headersFor(embedKey: string | undefined, idempotencyKey: string | undefined, json: boolean) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (json) headers['Content-Type'] = 'application/json';
  const key = embedKey?.trim();
  if (key) headers[EMBED_KEY_HEADER] = key;
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  return headers;
}

function issuesOf(body: unknown): FieldIssue[] {
  const issues = (body as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is FieldIssue => typeof issue?.path === 'string' && typeof issue?.message === 'string',
  );
}

/** GET (no body) or POST (JSON body) to the Wellrest public API. Never throws. */
export async function callPublicApi<T>(request: PublicRequest): Promise<PublicResult<T>> {
  const { apiBase, embedKey, path, body, idempotencyKey, signal } = request;
  const hasBody = body !== undefined;
  let response: Response;
  try {
    // No cookies: the public API needs none, and a partner page must not send Wellrest's.
    response = await fetch(`${resolveApiBase(apiBase)}${path}`, {
      method: hasBody ? 'POST' : 'GET',
      credentials: 'omit',
      headers: headersFor(embedKey, idempotencyKey, hasBody),
      body: hasBody ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch {
    return { ok: false, status: 0, error: NETWORK_ERROR, issues: [] };
  }
  const parsed: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: parsed as T };
  const message = (parsed as { error?: unknown } | null)?.error;
  return {
    ok: false,
    status: response.status,
    error: typeof message === 'string' && message ? message : FALLBACK_ERROR,
    issues: issuesOf(parsed),
  };
}
