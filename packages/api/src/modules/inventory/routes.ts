import Router from '@koa/router';
import { MaintenanceScheduleInput } from '@wellrest/core';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { practiceToday } from '../bookings/store.js';
import { inventoryOverview, listSchedules, maintenanceDue, saveSchedule } from './store.js';

type With<T> = AppContext & { state: { input: T } };

async function getOverview(ctx: AppContext): Promise<void> {
  ctx.body = await inventoryOverview(ctx, await practiceToday(ctx));
}

async function getSchedules(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  ctx.body = { schedules: await listSchedules(db), due: await maintenanceDue(db, await practiceToday(ctx)) };
}

async function postSchedule(ctx: With<MaintenanceScheduleInput>): Promise<void> {
  ctx.body = await saveSchedule(ctx, ctx.state.input);
  ctx.status = 201;
}

export function inventoryRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  // Overdue returns name patients of bookings: the overview needs both permissions.
  router.get(
    '/api/inventory/overview',
    can('read', 'Kit'),
    can('read', 'Booking'),
    inTransaction,
    getOverview,
  );
  router.get('/api/maintenance-schedules', can('read', 'Kit'), getSchedules);
  router.post<{ input: MaintenanceScheduleInput }>(
    '/api/maintenance-schedules',
    can('create', 'Kit'),
    validate(MaintenanceScheduleInput),
    inTransaction,
    postSchedule,
  );
  return router;
}
