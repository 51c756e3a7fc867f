import Router from '@koa/router';
import {
  BOOKING_STATUSES,
  BookingListQuery,
  BookingStatus,
  ChangeBookingStatusInput,
  CreateBookingInput,
  operationMessages,
} from '@wellrest/core';
import { z } from 'zod';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idempotent } from '../../http/idempotency.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { accessFor, idParam, recordAccess } from '../patients/access.js';
import {
  changeBookingStatus,
  checkExtension,
  checkReduction,
  createBooking,
  extendBooking,
  reduceBooking,
} from './operations.js';
import { type BookingFilters, bookingReader, UNPAGED_BOOKINGS_MAX } from './store.js';

type With<T> = AppContext & { state: { input: T } };

/**
 * The list's query string: core's filters, with `status` taken any number of times
 * (`?status=pending&status=confirmed`) or comma-separated (`?status=pending,confirmed`).
 */
export const BookingsListQuery = BookingListQuery.extend({
  status: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
      z.array(z.string()),
    )
    .refine((values) => values.every((value) => BookingStatus.safeParse(value).success), {
      error: `Invalid option: expected one of ${BOOKING_STATUSES.join('|')}`,
    })
    .transform((values) => values as BookingStatus[])
    .optional(),
});

async function listBookings(ctx: With<BookingFilters>): Promise<void> {
  const result = await bookingReader(ctx).list(ctx.state.input);
  const items = 'rows' in result ? result.rows : result.items;
  await recordAccess(accessFor(ctx).db, ctx, {
    action: 'booking.list',
    entityType: 'booking',
    ids: items.map((b) => b.id),
  });
  if ('rows' in result) {
    // An unpaged list stays a plain array; a caller that hit the cap is told so, and pages.
    ctx.set('X-Result-Limit', String(UNPAGED_BOOKINGS_MAX));
    if (result.truncated) ctx.set('X-Result-Truncated', 'true');
    ctx.body = result.rows;
    return;
  }
  ctx.body = result;
}

async function getBooking(ctx: AppContext): Promise<void> {
  const id = idParam(ctx);
  const booking = await bookingReader(ctx).find(id);
  if (!booking) throw notFound(operationMessages.bookingNotFound);
  await recordAccess(accessFor(ctx).db, ctx, { action: 'booking.read', entityType: 'booking', ids: [id] });
  // The detail carries its history (who changed what, when), with the actors' usernames, and
  // when its agreement form was last sent and signed.
  const reader = bookingReader(ctx);
  ctx.body = { ...booking, agreement: await reader.agreement(id), events: await reader.events(id) };
}

async function bookingHistory(ctx: AppContext): Promise<void> {
  const id = idParam(ctx);
  const reader = bookingReader(ctx);
  if (!(await reader.find(id))) throw notFound(operationMessages.bookingNotFound);
  await recordAccess(accessFor(ctx).db, ctx, { action: 'booking.read', entityType: 'booking', ids: [id] });
  ctx.body = await reader.events(id);
}

async function postBooking(ctx: With<CreateBookingInput>): Promise<void> {
  ctx.body = await createBooking(ctx, ctx.state.input);
  ctx.status = 201;
}

async function postStatus(ctx: With<ChangeBookingStatusInput>): Promise<void> {
  ctx.body = await changeBookingStatus(ctx, idParam(ctx), ctx.state.input);
}

async function getExtensionEligibility(ctx: AppContext): Promise<void> {
  ctx.body = await checkExtension(ctx, idParam(ctx));
}

async function getReductionEligibility(ctx: AppContext): Promise<void> {
  ctx.body = await checkReduction(ctx, idParam(ctx));
}

async function postExtend(ctx: AppContext): Promise<void> {
  ctx.body = await extendBooking(ctx, idParam(ctx));
}

async function postReduce(ctx: AppContext): Promise<void> {
  ctx.body = await reduceBooking(ctx, idParam(ctx));
}

export function bookingRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get<{ input: BookingFilters }>(
    '/api/bookings',
    can('read', 'Booking'),
    validate(BookingsListQuery, 'query'),
    // No request transaction: reads and the audit row need none, and a page's total may read the
    // quiet availability version on a connection of its own (totals.ts).
    listBookings,
  );
  router.post<{ input: CreateBookingInput }>(
    '/api/bookings',
    can('create', 'Booking'),
    validate(CreateBookingInput),
    inTransaction,
    idempotent,
    postBooking,
  );
  router.get('/api/bookings/:id', can('read', 'Booking'), inTransaction, getBooking);
  router.get('/api/bookings/:id/events', can('read', 'Booking'), inTransaction, bookingHistory);
  router.post<{ input: ChangeBookingStatusInput }>(
    '/api/bookings/:id/status',
    can('update', 'Booking'),
    validate(ChangeBookingStatusInput),
    inTransaction,
    postStatus,
  );
  // The console adds a `_t` cache-busting parameter to these two; the query string is ignored.
  router.get(
    '/api/bookings/:id/extension-eligibility',
    can('read', 'Booking'),
    inTransaction,
    getExtensionEligibility,
  );
  router.get(
    '/api/bookings/:id/reduction-eligibility',
    can('read', 'Booking'),
    inTransaction,
    getReductionEligibility,
  );
  router.post('/api/bookings/:id/extend', can('extend', 'Booking'), inTransaction, postExtend);
  router.post('/api/bookings/:id/reduce', can('reduce', 'Booking'), inTransaction, postReduce);
  return router;
}
