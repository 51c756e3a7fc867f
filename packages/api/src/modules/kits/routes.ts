import Router from '@koa/router';
import { EditKitInput, inventoryMessages, KitListQuery, KitUpkeepInput, NewKitInput } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { practiceToday } from '../bookings/store.js';
import { idParam } from '../patients/access.js';
import { createKit, kitHistory, logCleaning, logMaintenance, retireKit, updateKit } from './operations.js';
import { findInventoryKit, listInventoryKits, listKits } from './store.js';

type With<T> = AppContext & { state: { input: T } };

async function sleepTestKits(ctx: AppContext): Promise<void> {
  ctx.body = await listKits(dbOf(ctx));
}

async function getKits(ctx: With<KitListQuery>): Promise<void> {
  ctx.body = await listInventoryKits(dbOf(ctx), ctx.state.input, await practiceToday(ctx));
}

async function postKit(ctx: With<NewKitInput>): Promise<void> {
  ctx.body = await createKit(ctx, ctx.state.input, await practiceToday(ctx));
  ctx.status = 201;
}

async function patchKit(ctx: With<EditKitInput>): Promise<void> {
  ctx.body = await updateKit(ctx, idParam(ctx), ctx.state.input, await practiceToday(ctx));
}

async function postRetire(ctx: AppContext): Promise<void> {
  ctx.body = await retireKit(ctx, idParam(ctx), await practiceToday(ctx));
}

async function postCleaning(ctx: With<KitUpkeepInput>): Promise<void> {
  ctx.body = await logCleaning(ctx, idParam(ctx), ctx.state.input, await practiceToday(ctx));
  ctx.status = 201;
}

async function postMaintenance(ctx: With<KitUpkeepInput>): Promise<void> {
  ctx.body = await logMaintenance(ctx, idParam(ctx), ctx.state.input, await practiceToday(ctx));
  ctx.status = 201;
}

async function getHistory(ctx: AppContext): Promise<void> {
  const id = idParam(ctx);
  const db = dbOf(ctx);
  if (!(await findInventoryKit(db, id))) throw notFound(inventoryMessages.kitNotFound);
  const entries = await kitHistory(db, id);
  // The history names patients of the kit's bookings: reading it is recorded, by booking id.
  const bookingIds = entries.flatMap((entry) => (entry.kind === 'booking' ? [entry.bookingId] : []));
  await audit(db, ctx, {
    action: 'kit.history',
    outcome: 'success',
    entityType: 'kit',
    entityId: id,
    details: { bookings: bookingIds.length, bookingIds: bookingIds.slice(0, 500).join(',') },
  });
  ctx.body = entries;
}

export function kitRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/sleep-test-kits', can('read', 'Kit'), sleepTestKits);
  router.get<{ input: KitListQuery }>(
    '/api/kits',
    can('read', 'Kit'),
    validate(KitListQuery, 'query'),
    getKits,
  );
  router.post<{ input: NewKitInput }>(
    '/api/kits',
    can('create', 'Kit'),
    validate(NewKitInput),
    inTransaction,
    postKit,
  );
  router.patch<{ input: EditKitInput }>(
    '/api/kits/:id',
    can('update', 'Kit'),
    validate(EditKitInput),
    inTransaction,
    patchKit,
  );
  router.post('/api/kits/:id/retire', can('update', 'Kit'), inTransaction, postRetire);
  router.post<{ input: KitUpkeepInput }>(
    '/api/kits/:id/cleanings',
    can('update', 'Kit'),
    validate(KitUpkeepInput),
    inTransaction,
    postCleaning,
  );
  router.post<{ input: KitUpkeepInput }>(
    '/api/kits/:id/maintenance',
    can('update', 'Kit'),
    validate(KitUpkeepInput),
    inTransaction,
    postMaintenance,
  );
  // The history names the patients of the kit's bookings, so it needs both permissions.
  router.get('/api/kits/:id/history', can('read', 'Kit'), can('read', 'Booking'), inTransaction, getHistory);
  return router;
}
