import type { Middleware } from 'koa';
import type { AppContextExtension, AppState } from './context.js';
import { HttpError } from './errors.js';
import { isApiPath } from './paths.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_REFUSED = 'Cross-site request refused';

/**
 * Refuses state-changing API calls that a browser sends on behalf of another site (CSRF).
 * Browsers label every request with Origin and/or Sec-Fetch-Site; a request with neither comes
 * from a non-browser client (curl, server-to-server, tests), which carries no ambient cookies
 * of a victim and is let through.
 */
export function sameOrigin(options: {
  publicUrl: string | undefined;
}): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method) || !isApiPath(ctx.path)) return next();
    // The public forms carry no session to abuse; their embed key and its allowed origins decide (modules/public).
    if (ctx.path.startsWith('/api/public/')) return next();
    const origin = ctx.get('origin');
    const fetchSite = ctx.get('sec-fetch-site').toLowerCase();
    if (!origin && !fetchSite) return next();
    if (fetchSite === 'same-origin' || fetchSite === 'none') return next();
    // Koa 3's ctx.origin echoes the Origin header, so the server's own origin is built here.
    const ownOrigin = `${ctx.protocol}://${ctx.host}`;
    if (origin && (origin === ownOrigin || origin === options.publicUrl)) return next();
    throw new HttpError(403, CROSS_SITE_REFUSED);
  };
}
