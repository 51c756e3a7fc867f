import { useEffect, useState } from 'react';
import { resolveApiBase } from './apiBase';
import type { UnreachableReason } from './events';

/** How long the widget waits for `/api/health` before it reports the server unreachable. */
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

export function healthUrl(apiBase: string | undefined): string {
  return `${resolveApiBase(apiBase)}/api/health`;
}

async function requestHealth(url: string, signal: AbortSignal): Promise<HealthState> {
  try {
    // A partner page is another origin: no cookies, and only CORS-safelisted headers so the
    // browser sends no preflight.
    const response = await fetch(url, {
      signal,
      credentials: 'omit',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    if (response.ok) return READY;
    return { status: 'unreachable', failure: { reason: 'http', status: response.status } };
  } catch {
    return { status: 'unreachable', failure: { reason: signal.aborted ? 'timeout' : 'network' } };
  }
}

/**
 * Checks once that the Wellrest server answers `GET {apiBase}/api/health`. The returned state object
 * keeps its identity between renders, so effects can depend on it. To check again, remount the caller.
 */
export function useApiHealth(apiBase: string | undefined): HealthState {
  const url = healthUrl(apiBase);
  const [state, setState] = useState<HealthState>(CHECKING);

  useEffect(() => {
    let unmounted = false;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), HEALTH_TIMEOUT_MS);
    setState(CHECKING);
    requestHealth(url, controller.signal).then((result) => {
      clearTimeout(timeout);
      if (!unmounted) setState(result);
    });
    return () => {
      unmounted = true;
      clearTimeout(timeout);
      controller.abort();
    };
  }, [url]);

  return state;
}
