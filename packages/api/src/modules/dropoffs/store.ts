import type { DropoffReportInput } from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { hashAgreementToken } from '../agreements/store.js';
import { practiceToday, recordBookingEvent } from '../bookings/store.js';
import { markKitReturned } from '../kits/operations.js';

/**
 * How long after its booking's return date an agreement link still reports a drop-off (the link
 * itself may have expired for signing by then: the kit comes back after the test).
 */
export const DROPOFF_LINK_GRACE_DAYS = 14;

/**
 * The booking a drop-off report's link token names, when the link still serves: it names an
 * agreement whose booking is confirmed or picked up, and it has not expired (its own expiry, or
 * the return date plus DROPOFF_LINK_GRACE_DAYS, whichever is later). Otherwise undefined.
 */
async function bookingFor(db: Knex, token: string): Promise<number | undefined> {
  const row = await db('agreements')
    .join('bookings', 'bookings.id', 'agreements.booking_id')
    .where('agreements.token_hash', hashAgreementToken(token))
    .whereIn('bookings.status', ['confirmed', 'picked_up'])
    .where((live) =>
      live
        .where('agreements.expires_at', '>', db.fn.now())
        .orWhereRaw('bookings.return_date + ?::int >= current_date', [DROPOFF_LINK_GRACE_DAYS]),
    )
    .first<{ booking_id: number } | undefined>('agreements.booking_id');
  return row?.booking_id;
}

/**
 * Stores a drop-off report when its link token is good. A token that names nothing stores
 * nothing; the caller answers both the same way, so the form reveals nothing about bookings.
 */
export async function reportDropoff(
  db: Knex,
  input: DropoffReportInput,
  requestId: string,
): Promise<{ id: number; bookingId: number } | undefined> {
  const bookingId = await bookingFor(db, input.token);
  if (bookingId === undefined) return undefined;
  const [row] = await db('dropoffs')
    .insert({
      request_id: requestId,
      booking_id: bookingId,
      dropoff_date: input.dropoffDate,
      location: input.location,
      notes: input.notes ?? null,
      problems: input.problems ?? null,
    })
    .returning('id');
  return { id: (row as { id: number }).id, bookingId };
}

export interface DropoffView {
  id: number;
  bookingId: number;
  dropoffDate: string;
  location: string;
  notes: string | null;
  problems: string | null;
  reportedAt: string;
  confirmedAt: string | null;
}

interface DropoffRow {
  id: number;
  booking_id: number;
  dropoff_date: string;
  location: string;
  notes: string | null;
  problems: string | null;
  created_at: Date;
  confirmed_at: Date | null;
}

function toView(row: DropoffRow): DropoffView {
  return {
    id: row.id,
    bookingId: row.booking_id,
    dropoffDate: String(row.dropoff_date).slice(0, 10),
    location: row.location,
    notes: row.notes,
    problems: row.problems,
    reportedAt: new Date(row.created_at).toISOString(),
    confirmedAt: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
  };
}

export async function dropoffsOfBooking(db: Knex, bookingId: number): Promise<DropoffView[]> {
  return ((await db('dropoffs').where({ booking_id: bookingId }).orderBy('id')) as DropoffRow[]).map(toView);
}

/** Staff confirm the kit came back: a picked-up booking is then completed. */
export async function confirmDropoff(
  db: Knex,
  ctx: AppContext,
  id: number,
): Promise<DropoffView | undefined> {
  const [row] = (await db('dropoffs')
    .where({ id })
    .update({
      confirmed_at: db.raw('coalesce(confirmed_at, now())'),
      confirmed_by: ctx.state.user?.id ?? null,
    })
    .returning('*')) as DropoffRow[];
  if (!row) return undefined;
  const completed = await db('bookings')
    .where({ id: row.booking_id, status: 'picked_up' })
    .update({ status: 'completed', updated_at: db.fn.now() })
    .returning(['id', 'kit_id', 'end_date']);
  const booking = completed[0] as { kit_id: number | null; end_date: string } | undefined;
  if (booking) {
    // The kit is back, as a check-in scan would record: it waits for its cleaning.
    if (booking.kit_id !== null) {
      const today = await practiceToday(ctx);
      await markKitReturned(db, booking.kit_id, [booking.end_date, today].sort()[0] ?? today, today);
    }
    await recordBookingEvent(db, ctx, {
      bookingId: row.booking_id,
      action: 'status_changed',
      fromStatus: 'picked_up',
      toStatus: 'completed',
      details: { dropoffId: id },
    });
  }
  return toView(row);
}
