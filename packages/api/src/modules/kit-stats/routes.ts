import Router from '@koa/router';
import { KitStatsQuery } from '@wellrest/core';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { practiceToday } from '../bookings/store.js';
import { kitStats } from './store.js';

type With<T> = AppContext & { state: { input: T } };

async function getKitStats(ctx: With<KitStatsQuery>): Promise<void> {
  const db = dbOf(ctx);
  const timeZone = await ctx.services.settings.get('practiceTimeZone', db);
  ctx.body = await kitStats(db, ctx.state.input, await practiceToday(ctx), timeZone);
}

export function kitStatsRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get<{ input: KitStatsQuery }>(
    '/api/kit-stats',
    can('read', 'Kit'),
    validate(KitStatsQuery, 'query'),
    getKitStats,
  );
  return router;
}
