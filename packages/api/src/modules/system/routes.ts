import Router from '@koa/router';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { version } from '../../version.js';

const READY_TIMEOUT_MS = 3000;

/** Liveness: the process is up and answering. */
async function health(ctx: AppContext): Promise<void> {
  ctx.body = { status: 'ok', version };
}

/** Readiness: the database answers too, so a load balancer may send traffic here. */
async function ready(ctx: AppContext): Promise<void> {
  const { db, logger } = ctx.services;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.knex.raw('select 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database did not answer in time')), READY_TIMEOUT_MS);
      }),
    ]);
    ctx.body = { status: 'ready', database: db.engine };
  } catch (error) {
    logger.warn(
      { err: { kind: (error as Error).name, code: (error as { code?: string }).code } },
      'not ready',
    );
    ctx.status = 503;
    ctx.body = { status: 'unavailable', database: db.engine };
  } finally {
    clearTimeout(timer);
  }
}

export function systemRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/health', health);
  router.get('/api/ready', ready);
  return router;
}
