import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import type { AppContextExtension, AppState } from './context.js';
import { isApiPath } from './paths.js';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wellrest</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem;">
<h1>Wellrest</h1>
<p>The staff console is not built yet. Run <code>npm run build</code>, then reload this page.</p>
<p>The API is running: <a href="/api/health">/api/health</a>.</p>
</body></html>
`;

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Vite puts content-hashed files under /assets: they never change, so browsers may keep them. */
function setCacheHeaders(ctx: { set(field: string, value: string): void }, servedPath: string): void {
  if (servedPath.startsWith('/assets/')) ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  else ctx.set('Cache-Control', 'no-cache');
}

/** Widget scripts partners load by their stable name: cached briefly, so a new build reaches them soon. */
const WIDGET_SCRIPT = /^\/(wellrest-[a-z-]+)\.js$/;
/** The same script under a content hash (`wellrest-booking.1a2b3c4d5e.js`): it never changes. */
const HASHED_WIDGET_SCRIPT = /^\/(wellrest-[a-z-]+)\.([0-9a-f]{10})\.js$/;

/** Content hashes of the widget scripts, recomputed only when a file changes on disk. */
function widgetHashes(widgetsDir: string) {
  const known = new Map<string, { mtimeMs: number; hash: string }>();
  return async (name: string): Promise<string | undefined> => {
    const file = path.join(widgetsDir, `${name}.js`);
    try {
      const { mtimeMs } = await stat(file);
      const cached = known.get(name);
      if (cached?.mtimeMs === mtimeMs) return cached.hash;
      const hash = createHash('sha256')
        .update(await readFile(file))
        .digest('hex')
        .slice(0, 10);
      known.set(name, { mtimeMs, hash });
      return hash;
    } catch {
      return undefined;
    }
  };
}

/** The URL path as a file path, or undefined when its percent-encoding is malformed. */
function decodePath(urlPath: string): string | undefined {
  try {
    return path.posix.normalize(decodeURIComponent(urlPath));
  } catch {
    return undefined;
  }
}

function hasFileExtension(urlPath: string): boolean {
  return path.posix.extname(urlPath) !== '';
}

/**
 * Serves the built console (with an index.html fallback for its client-side routes) and the
 * widget bundles under /widgets/. A missing build yields an explanatory page, not a crash.
 */
export function serveStatic(options: {
  consoleDir: string;
  widgetsDir: string;
}): Middleware<AppState, AppContextExtension> {
  const { consoleDir, widgetsDir } = options;
  const hashOf = widgetHashes(widgetsDir);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();

    if (ctx.path.startsWith('/widgets/')) {
      const file = ctx.path.slice('/widgets'.length);
      const hashed = HASHED_WIDGET_SCRIPT.exec(file);
      if (hashed?.[1] && hashed[2] && (await hashOf(hashed[1])) === hashed[2]) {
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        await send(ctx, `/${hashed[1]}.js`, { root: widgetsDir });
        return;
      }
      const script = WIDGET_SCRIPT.exec(file);
      const decoded = decodePath(file);
      if (decoded === undefined || !(await isFile(path.join(widgetsDir, decoded)))) {
        ctx.status = 404;
        ctx.body = 'Not found';
        return;
      }
      if (script?.[1]) {
        ctx.set('Cache-Control', 'public, max-age=300');
        // Where the immutable copy of this exact build lives, for pages that pin a version.
        const hash = await hashOf(script[1]);
        if (hash) ctx.set('Link', `</widgets/${script[1]}.${hash}.js>; rel="alternate"`);
      } else ctx.set('Cache-Control', 'no-cache');
      await send(ctx, file, { root: widgetsDir });
      return;
    }

    const indexFile = path.join(consoleDir, 'index.html');
    if (!(await isFile(indexFile))) {
      ctx.status = 503;
      ctx.type = 'html';
      ctx.body = NOT_BUILT_PAGE;
      return;
    }

    const requested = decodePath(ctx.path) ?? '/';
    if (requested !== '/' && (await isFile(path.join(consoleDir, requested)))) {
      setCacheHeaders(ctx, requested);
      await send(ctx, ctx.path, { root: consoleDir });
      return;
    }
    // A client-side route such as /patients or /physicians/12: the SPA decides what to show.
    if (requested === '/' || !hasFileExtension(requested)) {
      setCacheHeaders(ctx, '/index.html');
      await send(ctx, 'index.html', { root: consoleDir });
      return;
    }
    ctx.status = 404;
    ctx.body = 'Not found';
  };
}
