/*
 * Start-up (spec §2): clear every browser cache before the first render, then register the
 * service worker and reload once when a new worker takes control, so a deployment never
 * leaves a user on stale code.
 */

const RELOAD_MARK = 'wellrest:sw-reloaded-at';
/** A second controller change within this window does not reload again (no reload loops). */
const RELOAD_GUARD_MS = 10_000;

/** Deletes every Cache Storage entry this origin holds. Never throws. */
export async function clearBrowserCaches(
  cacheStorage: CacheStorage | undefined = globalThis.caches,
): Promise<void> {
  if (!cacheStorage) return;
  try {
    const names = await cacheStorage.keys();
    await Promise.all(names.map((name) => cacheStorage.delete(name)));
  } catch {
    // Cache Storage can be unavailable (private windows, insecure origins): nothing to clear.
  }
}

function recentlyReloaded(now: number): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOAD_MARK));
    return Number.isFinite(last) && now - last < RELOAD_GUARD_MS;
  } catch {
    return false;
  }
}

function markReload(now: number): void {
  try {
    sessionStorage.setItem(RELOAD_MARK, String(now));
  } catch {
    // Without session storage the in-memory flag still prevents a second reload on this page.
  }
}

/** Registers `/sw.js`; when its controller changes the page reloads once. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    const now = Date.now();
    if (reloading || recentlyReloaded(now)) return;
    reloading = true;
    markReload(now);
    window.location.reload();
  });
  navigator.serviceWorker.register('/sw.js').catch(() => {
    // The console works without the worker; a failed registration must not block it.
  });
}
