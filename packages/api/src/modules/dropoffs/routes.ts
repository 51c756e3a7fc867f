import Router from '@koa/router';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { bookingReader } from '../bookings/store.js';
import { confirmDropoff, dropoffsOfBooking } from './store.js';

// Drop-offs patients report at /dropoff-form, as staff see and confirm them on the booking.

async function getBookingDropoffs(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const bookingId = idParam(ctx);
  // Through the booking reader, so a caller sees the drop-offs only of bookings they may read.
  if (!(await bookingReader(ctx).find(bookingId, 'read'))) throw notFound();
  const dropoffs = await dropoffsOfBooking(db, bookingId);
  await audit(db, ctx, {
    action: 'dropoff.list',
    outcome: 'success',
    entityType: 'booking',
    entityId: bookingId,
  });
  ctx.body = dropoffs;
}

async function postConfirmDropoff(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const dropoff = await confirmDropoff(db, ctx, id);
  if (!dropoff) throw notFound();
  await audit(db, ctx, {
    action: 'dropoff.confirm',
    outcome: 'success',
    entityType: 'dropoff',
    entityId: id,
    details: { bookingId: dropoff.bookingId },
  });
  ctx.body = dropoff;
}

export function dropoffRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/bookings/:id/dropoffs', can('read', 'Booking'), getBookingDropoffs);
  router.post('/api/dropoffs/:id/confirm', can('update', 'Booking'), inTransaction, postConfirmDropoff);
  return router;
}
