import { useEffect, useState } from 'react';
import { resolveApiBase } from './apiBase';
import type { UnreachableReason } from './events';
import { EMBED_KEY_HEADER } from './publicApi';

/** How long the widget waits for the connection check before it reports the server unreachable. */
export const HEALTH_TIMEOUT_MS = 10_000;

export interface HealthFailure {
  reason: UnreachableReason;
  status?: number;
}

export type HealthState =
  | { status: 'checking' }
  | { status: 'ready' }
  | { status: 'unreachable'; failure: HealthFailure };

const CHECKING: HealthState = { status: 'checking' };
const READY: HealthState = { status: 'ready' };

/**
 * The public diagnostics endpoint: it answers only pages whose origin the embed key allows, so a
 * widget on a page the key does not list says it can't load instead of showing a form that cannot send.
 */
export const HEALTH_PATH = '/api/public/diagnostics';

export function healthUrl(apiBase: string | undefined): string {
  return `${resolveApiBase(apiBase)}${HEALTH_PATH}`;
}

async function requestHealth(
  url: string,
  embedKey: string | undefined,
  signal: AbortSignal,
): Promise<HealthState> {
  try {
    // A partner page is another origin: no cookies; the key names the partner (same-origin pages,
    // such as Wellrest's own full-page routes, need none).
    const key = embedKey?.trim();
    const response = await fetch(url, {
      signal,
      credentials: 'omit',
      cache: 'no-store',
      headers: key ? { Accept: 'application/json', [EMBED_KEY_HEADER]: key } : { Accept: 'application/json' },
    });
    if (response.ok) return READY;
    return { status: 'unreachable', failure: { reason: 'http', status: response.status } };
  } catch {
    return { status: 'unreachable', failure: { reason: signal.aborted ? 'timeout' : 'network' } };
  }
}

/**
 * Checks once that the Wellrest server answers `GET {apiBase}/api/public/diagnostics` for this page. The returned state object
 * keeps its identity between renders, so effects can depend on it. To check again, remount the caller.
 */
export function useApiHealth(apiBase: string | undefined, embedKey?: string): HealthState {
  const url = healthUrl(apiBase);
  const [state, setState] = useState<HealthState>(CHECKING);

  useEffect(() => {
    let unmounted = false;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), HEALTH_TIMEOUT_MS);
    setState(CHECKING);
    requestHealth(url, embedKey, controller.signal).then((result) => {
      clearTimeout(timeout);
      if (!unmounted) setState(result);
    });
    return () => {
      unmounted = true;
      clearTimeout(timeout);
      controller.abort();
    };
  }, [url, embedKey]);

  return state;
}
