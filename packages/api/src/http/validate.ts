import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { AppContextExtension, AppState } from './context.js';

type Source = 'body' | 'query' | 'params';

/**
 * Parses the request body (or query string, or route params) with a schema and puts the typed
 * result on `ctx.state.input`; a ZodError becomes a 400 listing each bad field.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  source: Source = 'body',
): Middleware<AppState & { input: z.infer<S> }, AppContextExtension> {
  return async (ctx, next) => {
    const raw =
      source === 'body'
        ? (ctx.request.body ?? {})
        : source === 'query'
          ? ctx.query
          : (ctx as typeof ctx & { params?: Record<string, string> }).params;
    ctx.state.input = await schema.parseAsync(raw);
    await next();
  };
}
