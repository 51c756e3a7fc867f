import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { clearBrowserCaches, registerServiceWorker } from './lib/startup';
import { preloadFirstScreen } from './routes/pages';
import './index.css';

/** The worker only matters for the next deployment: register it once the page has loaded. */
function registerServiceWorkerAfterLoad(): void {
  if (document.readyState === 'complete') registerServiceWorker();
  else window.addEventListener('load', () => registerServiceWorker(), { once: true });
}

async function start(): Promise<void> {
  // boot.ts has already sent the session check and asked for the first screen's code: handed to
  // the screen, it renders without suspending (routes/pages.tsx).
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
