import { createHash } from 'node:crypto';
import { THEME_BOOT_SCRIPT } from '@wellrest/core';
import type { Middleware } from 'koa';
import { framingOriginsForKey } from '../modules/embed-keys/store.js';
import type { AppContext, AppContextExtension, AppState } from './context.js';
import { servedOverHttps } from './https.js';
import { isApiPath, isFhirPath } from './paths.js';

/** The console page's one inline script (it applies the colour theme before the first paint), by its hash. */
const THEME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`;

/** The console's policy, less its frame-ancestors: its own scripts, its own API. */
const CONSOLE_SOURCES = [
  "default-src 'self'",
  `script-src 'self' ${THEME_SCRIPT_HASH}`,
  // Radix primitives and charts set inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // Previews of referral attachments and reports: fetched, then shown from a blob URL.
  'frame-src blob:',
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

/** The console is a same-origin SPA: no framing by anyone. */
const CONSOLE_CSP = [...CONSOLE_SOURCES, "frame-ancestors 'none'"].join('; ');

/**
 * The full-page widgets a partner may frame (issue 6): with `?key=<embed key>`, only the origins
 * that key allows may frame them; without a valid key, nobody may.
 */
export const FRAMEABLE_WIDGET_PATHS: ReadonlySet<string> = new Set([
  '/widget',
  '/physician-widget',
  '/physician-signup-widget',
]);
/** The query parameter that names the embed key of a framed full-page widget. */
export const WIDGET_KEY_PARAM = 'key';

function frameableWidgetPath(path: string): boolean {
  return FRAMEABLE_WIDGET_PATHS.has(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
}

/** The framing origins the request's embed key allows, or none. */
async function framingOrigins(ctx: AppContext): Promise<string[]> {
  const key = ctx.query[WIDGET_KEY_PARAM];
  if (typeof key !== 'string') return [];
  try {
    return await framingOriginsForKey(ctx.services.db.knex, key);
  } catch (error) {
    // The page still loads; it simply may not be framed.
    ctx.services.logger.warn({ err: error }, 'embed key look-up for framing failed');
    return [];
  }
}

/** API answers are data, never documents to render or frame. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The API reference page (/api/docs): the viewer's own script and styles from this origin (it
 * sets inline style attributes and draws icons from data: URLs), the description fetched from
 * here, nothing else; not framed.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const isDocsPath = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/');

const PERMISSIONS_POLICY = [
  // The scanner setup page may use the device camera to read kit barcodes.
  'camera=(self)',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'interest-cohort=()',
].join(', ');

/** The headers of every answer; HSTS by the rule of https.ts (the configuration is read per request). */
export function securityHeaders(): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    // The rule of https.ts, the same one that marks cookies Secure.
    if (servedOverHttps(ctx)) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (isApiPath(ctx.path) || isFhirPath(ctx.path)) {
      ctx.set('Content-Security-Policy', isDocsPath(ctx.path) ? DOCS_CSP : API_CSP);
      ctx.set('X-Frame-Options', 'DENY');
      ctx.set('Cache-Control', 'no-store');
    } else if (ctx.path.startsWith('/widgets/')) {
      // Widget bundles are loaded by partner sites with a script tag.
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.set('Access-Control-Allow-Origin', '*');
    } else if ((ctx.method === 'GET' || ctx.method === 'HEAD') && frameableWidgetPath(ctx.path)) {
      const origins = await framingOrigins(ctx);
      if (origins.length > 0) {
        // CSP frame-ancestors names the partner sites; X-Frame-Options cannot, so it is left out.
        ctx.set(
          'Content-Security-Policy',
          [...CONSOLE_SOURCES, `frame-ancestors ${origins.join(' ')}`].join('; '),
        );
      } else {
        ctx.set('Content-Security-Policy', CONSOLE_CSP);
        ctx.set('X-Frame-Options', 'DENY');
      }
    } else {
      ctx.set('Content-Security-Policy', CONSOLE_CSP);
      ctx.set('X-Frame-Options', 'DENY');
    }
    await next();
    // Handlers never make an API answer cacheable, errors included.
    if (isApiPath(ctx.path) || isFhirPath(ctx.path)) ctx.set('Cache-Control', 'no-store');
  };
}
