import type { Middleware } from 'koa';
import { type Logger, logContext } from '../logger.js';
import type { AppContextExtension, AppState } from './context.js';
import { isApiPath, isFhirPath } from './paths.js';
import { requestIdFrom } from './request-id.js';

/**
 * The route pattern that answered ('/api/bookings/:id'), never the concrete path or query
 * string, which can carry identifiers or search terms.
 */
export function routeOf(ctx: { path: string; method?: string }): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (matched instanceof RegExp) return matched.source;
  if (isApiPath(ctx.path)) {
    // The request ended before the router ran (a failure in the session check, say): name the
    // route it was for all the same.
    const pattern = (
      ctx as { routePattern?: (method: string, path: string) => string | undefined }
    ).routePattern?.(ctx.method ?? 'GET', ctx.path);
    return pattern ?? '(unmatched api)';
  }
  if (ctx.path.startsWith('/widgets/')) return '(widgets)';
  return '(static)';
}

/**
 * One JSON line per request: id, method, route pattern, status, duration. No bodies, no query
 * strings. The request id (a well-formed incoming `X-Request-Id`, else a new one) is echoed in the
 * answer's header and in JSON error bodies, and carried by every log line written while serving
 * it, so a screenshot of an error leads to its log lines.
 */
export function requestLog(logger: Logger): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(ctx.get('x-request-id') || undefined);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await logContext.run({ requestId }, next);
      const body = ctx.body as unknown;
      if (
        ctx.status >= 400 &&
        typeof body === 'object' &&
        body !== null &&
        Object.getPrototypeOf(body) === Object.prototype &&
        'error' in body
      ) {
        ctx.body = { ...body, requestId };
      }
    } finally {
      const route = routeOf(ctx);
      const entry = {
        requestId,
        method: ctx.method,
        route,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (isApiPath(ctx.path) || isFhirPath(ctx.path)) logger.info(entry, 'request');
      else logger.debug(entry, 'request');
    }
  };
}
