import { findRoute, isPublicRoute, LOGIN_ROUTE } from '@wellrest/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { clearBrowserCaches, registerServiceWorker } from './lib/startup';
import './index.css';

/**
 * Starts downloading the code of the first screen while the caches are cleared and React
 * starts; otherwise the page's chunks are asked for only once it renders, which for signed-in
 * routes is after the session check and the layout's own chunk. The pages' lazy imports then
 * find the modules loaded or on their way.
 */
function preloadFirstScreen(path: string): void {
  const ignore = () => {
    // A failed preload is retried by the page's own import, which shows the error if any.
  };
  if (path === LOGIN_ROUTE) {
    import('@/features/auth/LoginPage').catch(ignore);
    return;
  }
  if (isPublicRoute(path) || findRoute(path) === null) return;
  import('@/components/layout/AppLayout').catch(ignore);
  if (path === '/') import('@/features/dashboard/DashboardPage').catch(ignore);
}

/** The worker only matters for the next deployment: register it once the page has loaded. */
function registerServiceWorkerAfterLoad(): void {
  if (document.readyState === 'complete') registerServiceWorker();
  else window.addEventListener('load', () => registerServiceWorker(), { once: true });
}

async function start(): Promise<void> {
  preloadFirstScreen(window.location.pathname);
  await clearBrowserCaches();
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element.');
  root.removeAttribute('aria-busy');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  registerServiceWorkerAfterLoad();
}

void start();
