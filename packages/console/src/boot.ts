import { startSessionCheck } from './lib/sessionCheck';
import { firstScreenLoaders, ignoreFailure, inSignedInArea } from './routes/firstScreen';

/*
 * The page's first script: a separate entry without React that runs as soon as it arrives
 * (vite.config.ts adds it to the page, async). On a page of the signed-in area it sends the
 * session check, and it starts the first screen's code, while the console's own code is still
 * downloading; main.tsx then finds both on their way instead of asking for them one after the
 * other.
 */
const path = window.location.pathname;
if (inSignedInArea(path)) startSessionCheck();
for (const load of firstScreenLoaders(path)) load().catch(ignoreFailure);
