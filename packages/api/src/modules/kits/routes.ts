import Router from '@koa/router';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { listKits } from './store.js';

async function sleepTestKits(ctx: AppContext): Promise<void> {
  ctx.body = await listKits(dbOf(ctx));
}

export function kitRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/sleep-test-kits', can('read', 'Kit'), sleepTestKits);
  return router;
}
