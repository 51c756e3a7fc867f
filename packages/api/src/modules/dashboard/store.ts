import {
  AVAILABILITY_RANGE_DAYS,
  type AvailabilityDay,
  addDays,
  type DashboardStatsResponse,
  dailyAvailability,
  HOLDING_STATUSES,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { perDatabase } from '../../db/per-database.js';
import type { AppContext, AppServices } from '../../http/context.js';
import { type BookingRow, HELD_RANGE_SQL, practiceToday } from '../bookings/store.js';
import { fleetCounts } from '../kits/counts.js';
import type { KitRow } from '../kits/store.js';
import { accessFor, recordAccess } from '../patients/access.js';
import {
  type AvailabilityAnswer,
  AvailabilityCache,
  availabilityVersion,
  quietVersion,
} from './availability-cache.js';

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** Bookings that hold their kit: pending, confirmed or picked up. */
const ACTIVE = `status IN (${placeholders(HOLDING_STATUSES)})`;

/**
 * The dashboard's stat cards: one round trip of aggregate SQL for the bookings, and the kit
 * numbers by core's kitCounts (as Inventory counts them). Counts only: no patient data leaves
 * the database, so nothing is audited.
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
      (SELECT count(*) FROM bookings
         WHERE status <> 'cancelled' AND start_date > ?::date AND start_date <= ?::date) AS "upcomingWeek"`,
    [...HOLDING_STATUSES, today, today, today, today, today, weekEnd],
  );
  const row = (result.rows as Record<string, number | string>[])[0];
  if (!row) throw new Error('dashboard stats query returned no row');
  const numbers = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
  // The kit numbers come from core's one definition, the same Inventory shows.
  const kits = (await fleetCounts(db, today)).all;
  return {
    ...(numbers as Omit<DashboardStatsResponse, 'totalKits' | 'availableKits' | 'kitsInUse' | 'kitsOnShelf'>),
    totalKits: kits.total,
    availableKits: kits.freeToday,
    kitsInUse: kits.heldToday,
    kitsOnShelf: kits.onShelf,
  };
}

/** The booking columns the availability engine reads: no notes, no free text, nothing else. */
const AVAILABILITY_BOOKING_COLUMNS = [
  'id',
  'patient_id',
  'kit_id',
  'test_type',
  'kit_type',
  'status',
  'start_date',
  'end_date',
  'return_date',
] as const;

type AvailabilityBookingRow = Pick<BookingRow, (typeof AVAILABILITY_BOOKING_COLUMNS)[number]>;
type AvailabilityKitRow = Pick<KitRow, 'id' | 'kit_id' | 'type' | 'status'> & {
  cleaning_due_on: string | null;
};

/**
 * Availability for `days` days from `today` (practice time zone): all kits (with the cleaning
 * gate of those waiting for cleaning), only the bookings that touch the window, and only the
 * names of the patients those bookings name, and which pickups' agreements are signed. Four
 * queries, whatever the size.
 */
async function computeAvailability(db: Knex, today: string, days: number): Promise<AvailabilityDay[]> {
  const last = addDays(today, days - 1);
  const kitRows = (await db('kits')
    .select('id', 'kit_id', 'type', 'status', 'cleaning_due_on')
    .orderBy('id')) as AvailabilityKitRow[];
  const kits = kitRows.map((k) => ({ id: k.id, kitId: k.kit_id, type: k.type, status: k.status }));
  const cleaningDueOn = new Map(
    kitRows.filter((k) => k.status === 'cleaning').map((k) => [k.id, k.cleaning_due_on] as const),
  );
  const bookingRows = (await db('bookings')
    .select(...AVAILABILITY_BOOKING_COLUMNS)
    .whereNot('status', 'cancelled')
    .where((w) =>
      w
        .whereRaw(`${HELD_RANGE_SQL} && daterange(?::date, ?::date, '[]')`, [today, last])
        .orWhereBetween('return_date', [today, last]),
    )) as AvailabilityBookingRow[];
  const patientIds = [...new Set(bookingRows.map((b) => b.patient_id))];
  const patients =
    patientIds.length === 0
      ? []
      : ((await db('patients').select('id', 'name').whereIn('id', patientIds)) as {
          id: number;
          name: string;
        }[]);
  const result = dailyAvailability(
    {
      kits,
      bookings: bookingRows.map((b) => ({
        id: b.id,
        patientId: b.patient_id,
        kitId: b.kit_id,
        testType: b.test_type,
        kitType: b.kit_type,
        status: b.status,
        startDate: b.start_date,
        endDate: b.end_date,
        returnDate: b.return_date,
      })),
      patients,
      cleaningDueOn,
    },
    { from: today, days, today },
  );
  // Whether each pickup's agreement is signed: the Sign Agreement button becomes its signed state.
  const pickupIds = [...new Set(result.flatMap((day) => day.pickups.map((p) => p.id)))];
  const signed = (await db('agreements')
    .whereIn('booking_id', pickupIds)
    .where('status', 'signed')
    .select('booking_id', 'signed_at')) as { booking_id: number; signed_at: Date }[];
  const signedAt = new Map(signed.map((row) => [row.booking_id, new Date(row.signed_at).toISOString()]));
  return result.map((day) => ({
    ...day,
    pickups: day.pickups.map((pickup) => ({ ...pickup, agreementSignedAt: signedAt.get(pickup.id) ?? null })),
  }));
}

const cacheOf = perDatabase((_db: AppServices['db']) => new AvailabilityCache());

/**
 * Availability for `days` days from today (14 by default, DESIGN.md §2) as the JSON answer:
 * computed when the data changed since the last answer, otherwise the kept one. Every call is
 * audited with the bookings it shows, kept or not.
 */
export async function dailyAvailabilityAnswer(
  ctx: AppContext,
  days: number = AVAILABILITY_RANGE_DAYS,
): Promise<AvailabilityAnswer> {
  const { db } = accessFor(ctx);
  const today = await practiceToday(ctx);
  const key = `${today}/${days}`;
  const cache = cacheOf(ctx.services.db);
  // Read with the session when signed in; the version of this moment otherwise.
  let answer = await cache.get(key, ctx.state.versions?.availability ?? (await availabilityVersion(db)));
  ctx.services.logger.debug({ cache: 'availability', hit: answer !== undefined }, 'cache');
  if (!answer) {
    const compute = async () => {
      const result = await computeAvailability(db, today, days);
      return {
        json: Buffer.from(JSON.stringify(result)),
        // Frozen: every request audits the same list, summarized once (recordAccess).
        ids: Object.freeze(result.flatMap((d) => [...d.pickups, ...d.dropoffs].map((b) => b.id))),
      };
    };
    // Outside any transaction (the route opens none), so the lock is taken and let go at once.
    const version = await quietVersion(ctx.services.db.knex);
    answer =
      version === null
        ? { ...(await compute()), version: 'in-flight', compressed: {} }
        : await cache.compute(key, version, compute);
  }
  await recordAccess(db, ctx, { action: 'dashboard.availability', entityType: 'booking', ids: answer.ids });
  return answer;
}
