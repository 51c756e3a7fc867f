// Bundle budgets, checked in CI by `npx size-limit` after the build (gzip, as a browser downloads).
// The console's budget covers its whole first load: the entry script and every script its
// index.html preloads, read from the built page so new shared chunks are counted automatically.
import { existsSync, readFileSync } from 'node:fs';

const WIDGET_LIMIT = '30 KB';
const CONSOLE_INITIAL_JS_LIMIT = '120 KB';

const widget = (file, what) => ({
  name: `${file} (${what})`,
  path: `packages/widgets/dist/${file}`,
  limit: WIDGET_LIMIT,
  gzip: true,
});

/** The scripts the built console page loads before any route code. */
function consoleInitialScripts() {
  const page = 'packages/console/dist/index.html';
  if (!existsSync(page)) return [`${page} (missing: build the console first)`];
  const html = readFileSync(page, 'utf8');
  const refs = [
    ...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/([^"]+\.js)"/g),
  ];
  return refs.map((match) => `packages/console/dist/${match[1]}`);
}

export default [
  widget('wellrest-booking.js', 'IIFE, preact included'),
  widget('wellrest-physician-referral.js', 'IIFE, preact included'),
  widget('wellrest-physician-signup.js', 'IIFE, preact included'),
  widget('wellrest-widgets.js', 'IIFE, all three elements'),
  {
    name: 'console initial JS (entry and preloaded chunks)',
    path: consoleInitialScripts(),
    limit: CONSOLE_INITIAL_JS_LIMIT,
    gzip: true,
  },
];
