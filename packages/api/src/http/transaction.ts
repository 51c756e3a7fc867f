import type { Middleware } from 'koa';
import type { AppContextExtension, AppState } from './context.js';

/**
 * Runs the rest of the request in one database transaction on `ctx.state.trx`: committed when
 * the handler succeeds, rolled back when it throws. Handlers must use `dbOf(ctx)`, never the
 * shared handle, inside it (on the embedded engine that would wait for itself).
 */
export const inTransaction: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  await ctx.services.db.knex.transaction(async (trx) => {
    ctx.state.trx = trx;
    try {
      await next();
    } finally {
      ctx.state.trx = undefined;
    }
  });
};
