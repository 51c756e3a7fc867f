import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { fetchCurrentUser } from './features/auth/useCurrentUser';
import { liftPrerenderedMarks } from './lib/prerendered';
import { CURRENT_USER_KEY, queryClient } from './lib/queryClient';
import { clearBrowserCaches, registerServiceWorker } from './lib/startup';
import { inSignedInArea } from './routes/firstScreen';
import { firstScreenLoaded, preloadFirstScreen } from './routes/pages';
import './index.css';

/** The worker only matters for the next deployment: register it once the page has loaded. */
function registerServiceWorkerAfterLoad(): void {
  if (document.readyState === 'complete') registerServiceWorker();
  else window.addEventListener('load', () => registerServiceWorker(), { once: true });
}

/**
 * A page the server sent with its first screen pre-rendered (`data-prerendered` on #root, see
 * src/prerender.tsx) keeps it until the live screen can draw in its place at once: the screen's
 * code and, in the signed-in area, the session. Drawn earlier, the console would put its spinner
 * over the screen while they load. The pre-rendered screen takes no input meanwhile
 * (lib/prerendered.ts).
 */
async function livePageReady(path: string): Promise<void> {
  await Promise.all([
    firstScreenLoaded(),
    inSignedInArea(path)
      ? queryClient.prefetchQuery({ queryKey: CURRENT_USER_KEY, queryFn: fetchCurrentUser })
      : undefined,
  ]);
}

async function start(): Promise<void> {
  const path = window.location.pathname;
  // boot.ts has already sent the session check and asked for the first screen's code: handed to
  // the screen, it renders without suspending (routes/pages.tsx).
  preloadFirstScreen(path);
  await clearBrowserCaches();
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element.');
  if (root.dataset.prerendered) {
    await livePageReady(path);
    liftPrerenderedMarks(root);
  } else root.removeAttribute('aria-busy');
  const reactRoot = createRoot(root);
  // A transition: React renders the first screen in slices, the page answering input between
  // them, instead of in one long task.
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  registerServiceWorkerAfterLoad();
}

void start();
