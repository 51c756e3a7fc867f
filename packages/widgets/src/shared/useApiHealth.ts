import { useCallback, useEffect, useRef, useState } from 'react';
import { resolveApiBase } from './apiBase';
import type { UnreachableReason } from './events';
import { EMBED_KEY_HEADER } from './publicApi';

/** How long the widget waits for the connection check before it reports the server unreachable. */
export const HEALTH_TIMEOUT_MS = 10_000;
/**
 * While the server is unreachable the widget checks again by itself, after these delays (the last
 * one repeats), and at once when the browser comes back online.
 */
export const RECHECK_DELAYS_MS = [5_000, 10_000, 20_000, 30_000] as const;

export interface HealthFailure {
  reason: UnreachableReason;
  status?: number;
}

export type HealthState =
  | { status: 'checking' }
  | { status: 'ready' }
  /** The server refused this page: an unknown, missing or revoked key, or an origin the key does not list. */
  | { status: 'forbidden' }
  | { status: 'unreachable'; failure: HealthFailure };

const CHECKING: HealthState = { status: 'checking' };
const READY: HealthState = { status: 'ready' };
const FORBIDDEN: HealthState = { status: 'forbidden' };

/**
 * The public diagnostics endpoint: it answers only pages whose origin the embed key allows (a
 * refusal is a 403 the page can read), and 503 while the server's database is unreachable.
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
    if (response.status === 403) return FORBIDDEN;
    return { status: 'unreachable', failure: { reason: 'http', status: response.status } };
  } catch {
    return { status: 'unreachable', failure: { reason: signal.aborted ? 'timeout' : 'network' } };
  }
}

function sameState(one: HealthState, other: HealthState): boolean {
  if (one.status !== other.status) return false;
  if (one.status !== 'unreachable' || other.status !== 'unreachable') return true;
  return one.failure.reason === other.failure.reason && one.failure.status === other.failure.status;
}

/**
 * Checks that the Wellrest server answers `GET {apiBase}/api/public/diagnostics` for this page.
 * While it is unreachable, checks again by itself (the state stays "unreachable" meanwhile, so
 * the page does not flicker); `retry()` checks at once, showing the skeleton. The state object
 * keeps its identity while nothing changes, so effects can depend on it.
 */
export function useApiHealth(
  apiBase: string | undefined,
  embedKey?: string,
): { health: HealthState; retry: () => void } {
  const url = healthUrl(apiBase);
  const [state, setState] = useState<HealthState>(CHECKING);
  const [attempt, setAttempt] = useState(0);
  // Automatic checks after a failure, since the last success or manual retry.
  const rechecks = useRef(0);
  const manual = useRef(true);

  // A new server or key starts over, with the skeleton.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is what changes of url and key trigger.
  useEffect(() => {
    rechecks.current = 0;
    manual.current = true;
  }, [url, embedKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` triggers each check.
  useEffect(() => {
    let unmounted = false;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), HEALTH_TIMEOUT_MS);
    let recheck: ReturnType<typeof setTimeout> | undefined;
    const checkNow = () => {
      if (!unmounted) setAttempt((previous) => previous + 1);
    };
    if (manual.current) setState(CHECKING);
    manual.current = false;
    requestHealth(url, embedKey, controller.signal).then((result) => {
      clearTimeout(timeout);
      if (unmounted) return;
      setState((previous) => (sameState(previous, result) ? previous : result));
      if (result.status !== 'unreachable') {
        rechecks.current = 0;
        return;
      }
      const delay = RECHECK_DELAYS_MS[Math.min(rechecks.current, RECHECK_DELAYS_MS.length - 1)];
      rechecks.current += 1;
      recheck = setTimeout(checkNow, delay);
      window.addEventListener('online', checkNow, { once: true });
    });
    return () => {
      unmounted = true;
      clearTimeout(timeout);
      clearTimeout(recheck);
      window.removeEventListener('online', checkNow);
      controller.abort();
    };
  }, [url, embedKey, attempt]);

  const retry = useCallback(() => {
    manual.current = true;
    rechecks.current = 0;
    setAttempt((previous) => previous + 1);
  }, []);

  return { health: state, retry };
}
