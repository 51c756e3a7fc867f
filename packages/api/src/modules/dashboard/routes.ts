import Router from '@koa/router';
import { DailyAvailabilityQuery } from '@wellrest/core';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { practiceToday } from '../bookings/store.js';
import { dailyAvailabilityFor, dashboardStats } from './store.js';

async function stats(ctx: AppContext): Promise<void> {
  ctx.body = await dashboardStats(dbOf(ctx), await practiceToday(ctx));
}

async function availability(ctx: AppContext & { state: { input: DailyAvailabilityQuery } }): Promise<void> {
  ctx.body = await dailyAvailabilityFor(ctx, ctx.state.input.days);
}

export function dashboardRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/dashboard/stats', can('read', 'Dashboard'), stats);
  router.get<{ input: DailyAvailabilityQuery }>(
    '/api/dashboard/daily-availability',
    can('read', 'Dashboard'),
    validate(DailyAvailabilityQuery, 'query'),
    inTransaction,
    availability,
  );
  return router;
}
