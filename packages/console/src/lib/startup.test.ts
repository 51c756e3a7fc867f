import { describe, expect, it, vi } from 'vitest';
import { clearBrowserCaches, registerServiceWorker } from './startup';

describe('clearBrowserCaches', () => {
  it('deletes every cache', async () => {
    const deleted: string[] = [];
    const storage = {
      keys: vi.fn(async () => ['shell-v1', 'api-v1']),
      delete: vi.fn(async (name: string) => {
        deleted.push(name);
        return true;
      }),
    } as unknown as CacheStorage;
    await clearBrowserCaches(storage);
    expect(deleted).toEqual(['shell-v1', 'api-v1']);
  });

  it('does nothing when Cache Storage is unavailable or fails', async () => {
    await expect(clearBrowserCaches(undefined)).resolves.toBeUndefined();
    const broken = {
      keys: vi.fn(async () => Promise.reject(new Error('SecurityError'))),
    } as unknown as CacheStorage;
    await expect(clearBrowserCaches(broken)).resolves.toBeUndefined();
  });
});

describe('registerServiceWorker', () => {
  it('registers /sw.js and reloads only once when the controller changes', () => {
    const listeners: Record<string, () => void> = {};
    const register = vi.fn(async () => ({}));
    vi.stubGlobal('navigator', {
      ...navigator,
      serviceWorker: {
        register,
        addEventListener: (type: string, listener: () => void) => {
          listeners[type] = listener;
        },
      },
    });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    sessionStorage.clear();

    registerServiceWorker();
    expect(register).toHaveBeenCalledWith('/sw.js');
    listeners.controllerchange?.();
    listeners.controllerchange?.();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
