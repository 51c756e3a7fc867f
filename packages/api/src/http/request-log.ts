import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';
import type { AppContextExtension, AppState } from './context.js';
import { isApiPath } from './paths.js';

/**
 * The route pattern that answered ('/api/bookings/:id'), never the concrete path or query
 * string, which can carry identifiers or search terms.
 */
export function routeOf(ctx: { path: string }): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (matched instanceof RegExp) return matched.source;
  if (isApiPath(ctx.path)) return '(unmatched api)';
  if (ctx.path.startsWith('/widgets/')) return '(widgets)';
  return '(static)';
}

/** One JSON line per request: method, route pattern, status, duration. No bodies, no query strings. */
export function requestLog(logger: Logger): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeOf(ctx);
      const entry = {
        method: ctx.method,
        route,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (isApiPath(ctx.path)) logger.info(entry, 'request');
      else logger.debug(entry, 'request');
    }
  };
}
