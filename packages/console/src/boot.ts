import { startSessionCheck } from './lib/sessionCheck';
import { firstScreenLoaders, ignoreFailure, inSignedInArea } from './routes/firstScreen';

/*
 * The page's first script: a separate entry without React that runs as soon as it arrives
 * (vite.config.ts adds it to the page, async). On a page of the signed-in area it sends the
 * session check, and it starts the first screen's code, while the console's own code is still
 * downloading; main.tsx then finds both on their way instead of asking for them one after the
 * other.
 */

/**
 * Every screen of the signed-in area shows dates and the practice's time zone, and the browser
 * sets up its date formatting the first time a page asks for it: a pause a slow phone notices.
 * Asked here, while the page waits for the console's code, it is ready when the first screen
 * draws.
 */
function prepareDateFormatting(): void {
  new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).format(0);
}

/** Runs `work` once the page is idle, in a task of its own: the page's requests leave first. */
function whenIdle(work: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => work());
  else window.setTimeout(work, 0);
}

const path = window.location.pathname;
if (inSignedInArea(path)) {
  startSessionCheck();
  whenIdle(prepareDateFormatting);
}
for (const load of firstScreenLoaders(path)) load().catch(ignoreFailure);
