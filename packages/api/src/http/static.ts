import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import { LOGIN_ROUTE } from '@wellrest/core';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { SESSION_COOKIE } from '../modules/auth/tokens.js';
import type { AppContextExtension, AppState } from './context.js';
import { isApiPath, isFhirPath } from './paths.js';

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

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/;
/** Below this a compressed answer saves less than its own overhead. */
const MIN_COMPRESSED_BYTES = 1024;
/** Upper bound of the memory kept for files compressed on the fly. */
const COMPRESSED_CACHE_BYTES = 32 * 1024 * 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';

/**
 * Compressed copies of files that have no precompressed sibling (`x.js.br`, `x.js.gz`, written by
 * the console build) on disk, such as the widget scripts: each compressed once per version of
 * the file (path, size, mtime) and kept in memory, least recently used dropped first.
 */
function compressedFiles(maxBytes: number) {
  const entries = new Map<string, Buffer>();
  let total = 0;
  return async (file: string, size: number, mtimeMs: number, encoding: Encoding): Promise<Buffer> => {
    const key = `${encoding}:${file}:${size}:${mtimeMs}`;
    const cached = entries.get(key);
    if (cached) {
      entries.delete(key);
      entries.set(key, cached);
      return cached;
    }
    const raw = await readFile(file);
    const compressed =
      encoding === 'br'
        ? await brotli(raw, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          })
        : await gzipAsync(raw, { level: 9 });
    entries.set(key, compressed);
    total += compressed.length;
    for (const [oldest, buffer] of entries) {
      if (total <= maxBytes) break;
      entries.delete(oldest);
      total -= buffer.length;
    }
    return compressed;
  };
}

/** True when `file` lies inside `root` and no part of its path is hidden (`.git`, `.env`). */
function isServable(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return (
    relative !== '' &&
    !relative.startsWith('..') &&
    !path.isAbsolute(relative) &&
    !relative.split(path.sep).some((part) => part.startsWith('.'))
  );
}

type StaticContext = Parameters<Middleware<AppState, AppContextExtension>>[0];

/**
 * Sends the file at `filePath` (decoded) under `root`, compressed when the browser accepts it:
 * the precompressed sibling when the build wrote one (koa-send picks it), else a copy compressed
 * here. `urlPath` is the same path as requested (koa-send decodes it itself).
 */
async function sendFile(
  ctx: StaticContext,
  root: string,
  filePath: string,
  compress: ReturnType<typeof compressedFiles>,
  urlPath = filePath,
): Promise<void> {
  const file = path.join(root, filePath);
  if (!COMPRESSIBLE.test(filePath) || !isServable(root, file)) {
    await send(ctx, urlPath, { root });
    return;
  }
  ctx.vary('Accept-Encoding');
  // Brotli whenever accepted (browsers list gzip first but brotli is smaller), as koa-send does.
  const encoding: Encoding | undefined =
    ctx.acceptsEncodings('br', 'identity') === 'br'
      ? 'br'
      : ctx.acceptsEncodings('gzip', 'identity') === 'gzip'
        ? 'gzip'
        : undefined;
  const info = await stat(file).catch(() => undefined);
  if (
    !encoding ||
    !info?.isFile() ||
    info.size < MIN_COMPRESSED_BYTES ||
    (await isFile(`${file}.${encoding === 'br' ? 'br' : 'gz'}`))
  ) {
    await send(ctx, urlPath, { root });
    return;
  }
  ctx.body = await compress(file, info.size, info.mtimeMs, encoding);
  ctx.type = path.extname(file);
  ctx.set('Content-Encoding', encoding);
  ctx.set('Last-Modified', info.mtime.toUTCString());
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

/**
 * Why partner pages would get no widget script from `widgetsDir`, or undefined when it holds
 * them. Checked once at start, so a wrong `WELLREST_WIDGETS_DIR` shows in the log, not only as a
 * 404 on a partner's page.
 */
export async function widgetsDirProblem(widgetsDir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(widgetsDir);
  } catch {
    return 'the widgets directory does not exist: partner pages will get 404 for the widget scripts (build the widgets or set WELLREST_WIDGETS_DIR)';
  }
  if (!names.some((name) => WIDGET_SCRIPT.test(`/${name}`))) {
    return 'the widgets directory holds no widget scripts: partner pages will get 404 for them (build the widgets or set WELLREST_WIDGETS_DIR)';
  }
  return undefined;
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
 * The console's page for a client-side route: the sign-in screen pre-rendered on /login, the
 * dashboard's frame and title pre-rendered on / for a browser that holds a session cookie (the
 * console checks the session itself; a stale cookie ends on the sign-in screen as before), the
 * spinner page (index.html) for the rest. The console's build writes the pre-rendered pages
 * (packages/console/src/prerender.tsx); without them index.html serves every route.
 */
async function firstScreenPage(consoleDir: string, requested: string, hasSession: boolean): Promise<string> {
  const page =
    requested === LOGIN_ROUTE
      ? '/login.html'
      : requested === '/' && hasSession
        ? '/dashboard.html'
        : undefined;
  return page && (await isFile(path.join(consoleDir, page))) ? page : '/index.html';
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
  const compress = compressedFiles(COMPRESSED_CACHE_BYTES);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path) || isFhirPath(ctx.path))
      return next();

    if (ctx.path.startsWith('/widgets/')) {
      const file = ctx.path.slice('/widgets'.length);
      const hashed = HASHED_WIDGET_SCRIPT.exec(file);
      if (hashed?.[1] && hashed[2] && (await hashOf(hashed[1])) === hashed[2]) {
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        await sendFile(ctx, widgetsDir, `/${hashed[1]}.js`, compress);
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
      await sendFile(ctx, widgetsDir, decoded, compress, file);
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
      await sendFile(ctx, consoleDir, requested, compress, ctx.path);
      return;
    }
    // A client-side route such as /patients or /physicians/12: the SPA decides what to show.
    if (requested === '/' || !hasFileExtension(requested)) {
      const page = await firstScreenPage(
        consoleDir,
        requested,
        ctx.cookies.get(SESSION_COOKIE) !== undefined,
      );
      setCacheHeaders(ctx, page);
      // The dashboard's page depends on the session cookie: no shared cache may mix the two.
      if (requested === '/') ctx.vary('Cookie');
      await sendFile(ctx, consoleDir, page, compress);
      return;
    }
    ctx.status = 404;
    ctx.body = 'Not found';
  };
}
