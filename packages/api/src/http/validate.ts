import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { AppContextExtension, AppState } from './context.js';

export type Source = 'body' | 'query' | 'params';

export interface InputSchema {
  schema: z.ZodType;
  source: Source;
}

const inputSchemas = new WeakMap<object, InputSchema>();

/**
 * The schemas a route's middleware chain validates its input with, read off the router by the
 * tests that generate requests for every route (the fuzz suite) and by the API description.
 */
export function inputSchemasOf(chain: readonly unknown[]): InputSchema[] {
  const found: InputSchema[] = [];
  for (const middleware of chain) {
    const input = typeof middleware === 'function' ? inputSchemas.get(middleware) : undefined;
    if (input) found.push(input);
  }
  return found;
}

/**
 * Parses the request body (or query string, or route params) with a schema and puts the typed
 * result on `ctx.state.input`; a ZodError becomes a 400 listing each bad field.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  source: Source = 'body',
): Middleware<AppState & { input: z.infer<S> }, AppContextExtension> {
  const middleware: Middleware<AppState & { input: z.infer<S> }, AppContextExtension> = async (ctx, next) => {
    const raw =
      source === 'body'
        ? (ctx.request.body ?? {})
        : source === 'query'
          ? ctx.query
          : (ctx as typeof ctx & { params?: Record<string, string> }).params;
    ctx.state.input = await schema.parseAsync(raw);
    await next();
  };
  inputSchemas.set(middleware, { schema, source });
  return middleware;
}
