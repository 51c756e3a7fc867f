import Router from '@koa/router';
import { DailyAvailabilityQuery } from '@wellrest/core';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { practiceToday } from '../bookings/store.js';
import { bodyIn, type Encoding } from './availability-cache.js';
import { dailyAvailabilityAnswer, dashboardStats } from './store.js';

async function stats(ctx: AppContext): Promise<void> {
  ctx.body = await dashboardStats(dbOf(ctx), await practiceToday(ctx));
}

/** The answer as JSON, compressed when the client accepts it (it runs to hundreds of KB). */
async function availability(ctx: AppContext & { state: { input: DailyAvailabilityQuery } }): Promise<void> {
  const answer = await dailyAvailabilityAnswer(ctx, ctx.state.input.days);
  const encoding = (ctx.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as Encoding;
  ctx.vary('Accept-Encoding');
  ctx.type = 'application/json';
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = await bodyIn(answer, encoding);
}

export function dashboardRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/dashboard/stats', can('read', 'Dashboard'), stats);
  router.get<{ input: DailyAvailabilityQuery }>(
    '/api/dashboard/daily-availability',
    can('read', 'Dashboard'),
    validate(DailyAvailabilityQuery, 'query'),
    // No request transaction: reads and the audit row need none, and the availability lock is
    // taken in a transaction of its own that must not wait for this one's connection.
    availability,
  );
  return router;
}
