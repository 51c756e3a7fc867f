import {
  AVAILABILITY_RANGE_DAYS,
  type AvailabilityDay,
  addDays,
  type DashboardStatsResponse,
  dailyAvailability,
  HOLDING_STATUSES,
  OUT_OF_SERVICE_KIT_STATUSES,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { type BookingRow, HELD_RANGE_SQL, practiceToday, toBooking } from '../bookings/store.js';
import { type KitRow, toKit } from '../kits/store.js';
import { accessFor, recordAccess } from '../patients/access.js';
import { type PatientRow, toPatient } from '../patients/store.js';

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** Bookings that hold their kit: pending, confirmed or picked up. */
const ACTIVE = `status IN (${placeholders(HOLDING_STATUSES)})`;

/**
 * The dashboard's stat cards in one round trip of aggregate SQL. Counts only: no patient data
 * leaves the database, so nothing is audited.
 */
export async function dashboardStats(db: Knex, today: string): Promise<DashboardStatsResponse> {
  const weekEnd = addDays(today, 7);
  const result = await db.raw(
    `SELECT
      (SELECT count(*) FROM patients) AS "totalPatients",
      (SELECT count(*) FROM bookings WHERE ${ACTIVE} AND return_date >= ?::date) AS "activeBookings",
      (SELECT count(*) FROM bookings WHERE status = 'pending' AND return_date >= ?::date) AS "pendingBookings",
      (SELECT count(*) FROM bookings WHERE status <> 'cancelled' AND start_date = ?::date) AS "todaysPickups",
      (SELECT count(*) FROM bookings WHERE status <> 'cancelled' AND return_date = ?::date) AS "todaysReturns",
      (SELECT count(*) FROM kits) AS "totalKits",
      (SELECT count(*) FROM kits
         WHERE status NOT IN (${placeholders(OUT_OF_SERVICE_KIT_STATUSES)})
           AND NOT EXISTS (SELECT 1 FROM bookings
             WHERE bookings.kit_id = kits.id AND bookings.${ACTIVE} AND ${HELD_RANGE_SQL} @> ?::date)
      ) AS "availableKits",
      (SELECT count(DISTINCT kit_id) FROM bookings
         WHERE kit_id IS NOT NULL AND ${ACTIVE} AND ${HELD_RANGE_SQL} @> ?::date) AS "kitsInUse",
      (SELECT count(*) FROM bookings
         WHERE status <> 'cancelled' AND start_date > ?::date AND start_date <= ?::date) AS "upcomingWeek"`,
    [
      ...HOLDING_STATUSES,
      today,
      today,
      today,
      today,
      ...OUT_OF_SERVICE_KIT_STATUSES,
      ...HOLDING_STATUSES,
      today,
      ...HOLDING_STATUSES,
      today,
      today,
      weekEnd,
    ],
  );
  const row = (result.rows as Record<keyof DashboardStatsResponse, number | string>[])[0];
  if (!row) throw new Error('dashboard stats query returned no row');
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as Record<
    keyof DashboardStatsResponse,
    number
  >;
}

/**
 * Availability for the 14 days from today (practice time zone): all kits, only the bookings
 * that touch the window, and only the patients those bookings name.
 */
export async function dailyAvailabilityFor(ctx: AppContext): Promise<AvailabilityDay[]> {
  const { db } = accessFor(ctx);
  const today = await practiceToday(ctx);
  const last = addDays(today, AVAILABILITY_RANGE_DAYS - 1);
  const kits = (
    await db<KitRow>('kits').select('id', 'kit_id', 'type', 'status', 'serial_number', 'notes').orderBy('id')
  ).map(toKit);
  const bookingRows: BookingRow[] = await db('bookings')
    .select('bookings.*')
    .whereNot('status', 'cancelled')
    .where((w) =>
      w
        .whereRaw(`${HELD_RANGE_SQL} && daterange(?::date, ?::date, '[]')`, [today, last])
        .orWhereBetween('return_date', [today, last]),
    );
  const patientIds = [...new Set(bookingRows.map((b) => b.patient_id))];
  const patients =
    patientIds.length === 0
      ? []
      : (await db<PatientRow>('patients').whereIn('id', patientIds)).map(toPatient);
  const days = dailyAvailability(
    { kits, bookings: bookingRows.map(toBooking), patients },
    { from: today, days: AVAILABILITY_RANGE_DAYS, today },
  );
  const shown = days.flatMap((d) => [...d.pickups, ...d.dropoffs].map((b) => b.id));
  await recordAccess(db, ctx, { action: 'dashboard.availability', entityType: 'booking', ids: shown });
  return days;
}
