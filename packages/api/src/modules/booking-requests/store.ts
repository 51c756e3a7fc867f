import {
  availableKitsOfType,
  compareDates,
  type PublicBookingRequestInput,
  publicFormsMessages,
  testDates,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { loadKitsAndHolds, neededWindow, practiceToday, recordBookingEvent } from '../bookings/store.js';
import { matchOrCreatePatient, utmJson } from '../public/patients.js';

export interface BookingRequestView {
  id: number;
  requestId: string;
  name: string;
  email: string;
  phone: string;
  kitType: string;
  testType: string;
  startDate: string;
  status: 'pending_booking' | 'needs_review';
  patientId: number | null;
  bookingId: number | null;
  utm: Record<string, string>;
  createdAt: string;
}

/**
 * Stores a patient's request from the booking widget. When a kit of the type is free it also
 * creates the patient (lead source Online) and a pending booking that holds no kit yet: a
 * scheduler's confirmation assigns one. Otherwise the request waits for review.
 */
export async function createBookingRequest(
  db: Knex,
  ctx: AppContext,
  input: PublicBookingRequestInput,
  meta: { requestId: string; embedKeyId: number | null },
): Promise<{ id: number; bookingId: number | null }> {
  if (compareDates(input.startDate, await practiceToday(ctx)) < 0) {
    throw badRequest(publicFormsMessages.startDatePast, {
      fields: { startDate: publicFormsMessages.startDatePast },
    });
  }
  const patient = await matchOrCreatePatient(db, input, 'Online');
  const dates = testDates(input.startDate, input.testType);
  const { kits, holds } = await loadKitsAndHolds(
    db,
    input.kitType,
    neededWindow(input.startDate, input.testType),
  );
  // The request holds no kit: a pending booking without one, which takes a free kit only when a
  // scheduler confirms it. Anyone can send requests, so none of them may make a kit unavailable.
  let bookingId: number | null = null;
  if (availableKitsOfType(input.kitType, kits, holds, input.startDate, input.testType).length > 0) {
    const [booking] = await db('bookings')
      .insert({
        patient_id: patient.id,
        kit_id: null,
        test_type: input.testType,
        kit_type: input.kitType,
        status: 'pending',
        start_date: dates.startDate,
        end_date: dates.endDate,
        return_date: dates.returnDate,
        notes: input.notes ?? null,
      })
      .returning('id');
    bookingId = (booking as { id: number }).id;
  }
  if (bookingId !== null) {
    await recordBookingEvent(db, ctx, {
      bookingId,
      action: 'created',
      toStatus: 'pending',
      details: { source: 'booking_request' },
    });
  }
  const [row] = await db('booking_requests')
    .insert({
      request_id: meta.requestId,
      name: input.name,
      email: input.email,
      phone: input.phone,
      date_of_birth: input.dateOfBirth || null,
      kit_type: input.kitType,
      test_type: input.testType,
      start_date: input.startDate,
      notes: input.notes ?? null,
      utm: utmJson(input.utm),
      status: bookingId === null ? 'needs_review' : 'pending_booking',
      patient_id: patient.id,
      booking_id: bookingId,
      embed_key_id: meta.embedKeyId,
    })
    .returning('id');
  return { id: (row as { id: number }).id, bookingId };
}

interface BookingRequestRow {
  id: number;
  request_id: string;
  name: string;
  email: string;
  phone: string;
  kit_type: string;
  test_type: string;
  start_date: string | Date;
  status: BookingRequestView['status'];
  patient_id: number | null;
  booking_id: number | null;
  utm: Record<string, string> | string;
  created_at: Date;
}

function dateText(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

export async function listBookingRequests(db: Knex): Promise<BookingRequestView[]> {
  const rows = (await db('booking_requests').orderBy('id', 'desc').limit(500)) as BookingRequestRow[];
  return rows.map((row) => ({
    id: row.id,
    requestId: row.request_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    kitType: row.kit_type,
    testType: row.test_type,
    startDate: dateText(row.start_date),
    status: row.status,
    patientId: row.patient_id,
    bookingId: row.booking_id,
    utm: typeof row.utm === 'string' ? (JSON.parse(row.utm) as Record<string, string>) : row.utm,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
