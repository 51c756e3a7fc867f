import { type DropoffReportInput, parseBookingReference, publicFormsMessages } from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { hashAgreementToken } from '../agreements/store.js';
import { practiceToday, recordBookingEvent } from '../bookings/store.js';
import { markKitReturned } from '../kits/operations.js';

/** The last word of a name, for matching what a patient types as their last name. */
export function lastNameOf(name: string): string {
  const words = name.trim().split(/\s+/);
  return (words[words.length - 1] ?? '').toLowerCase();
}

/**
 * The booking a drop-off report names: by its agreement link token, or by booking reference plus
 * the patient's last name. One answer for every mismatch, so the form reveals no booking.
 */
async function bookingFor(db: Knex, input: DropoffReportInput): Promise<number> {
  const notMatched = () =>
    badRequest(publicFormsMessages.dropoffNotMatched, {
      fields: { bookingReference: publicFormsMessages.dropoffNotMatched },
    });
  if (input.token) {
    const row = await db('agreements')
      .where('token_hash', hashAgreementToken(input.token))
      .first<{ booking_id: number } | undefined>('booking_id');
    if (!row) throw notMatched();
    return row.booking_id;
  }
  const id = parseBookingReference(input.bookingReference ?? '');
  if (id === null) throw notMatched();
  const row = await db('bookings')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .where('bookings.id', id)
    .whereIn('bookings.status', ['confirmed', 'picked_up'])
    .first<{ name: string } | undefined>('patients.name');
  if (!row || lastNameOf(row.name) !== (input.lastName ?? '').trim().toLowerCase()) throw notMatched();
  return id;
}

export async function reportDropoff(
  db: Knex,
  input: DropoffReportInput,
  requestId: string,
): Promise<{ id: number; bookingId: number }> {
  const bookingId = await bookingFor(db, input);
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
