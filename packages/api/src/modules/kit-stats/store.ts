import {
  addDays,
  type BookingStatus,
  type KitStatsQuery,
  type KitType,
  kitUtilisation,
} from '@wellrest/core';
import type { Knex } from 'knex';

export interface KitUsage {
  /** Days a booking held the kit (its test days and the maintenance day after), in service. */
  heldDays: number;
  /** Core's kitUtilisation: heldDays ÷ daysInService (0 to 1), null when never in service. */
  utilisation: number | null;
  /** Days the kit was in service (added and not yet retired) within the period. */
  daysInService: number;
  daysInUse: number;
  daysCleaning: number;
  /** Days on which maintenance was logged for the kit (and it was neither in use nor cleaning). */
  daysMaintenance: number;
  idleDays: number;
  bookings: number;
}

export interface KitStats {
  from: string;
  to: string;
  byType: (KitUsage & { kitType: KitType; kits: number })[];
  byKit: (KitUsage & { kitId: number; kitLabel: string; kitType: KitType })[];
}

interface KitStatsRow {
  id: number;
  kit_id: string;
  type: KitType;
  days_in_service: string | number;
  days_in_use: string | number;
  days_cleaning: string | number;
  days_maintenance: string | number;
  bookings: string | number;
}

/**
 * Utilisation over a period, in one query: every day of the period a kit was in service (from
 * the day it was added, or its first test when that was earlier, e.g. a kit recorded after it was
 * already in use, until it was retired) is in use (a test day of a booking that was not
 * cancelled), else cleaning (between a check-in and its logged cleaning, or still waiting), else
 * maintenance (a day maintenance was logged for it), else idle. Bookings counts the kit's
 * bookings whose test days meet the period.
 */
export async function kitStats(
  db: Knex,
  query: KitStatsQuery,
  today: string,
  timeZone: string,
): Promise<KitStats> {
  const rows = (
    await db.raw(
      `
      WITH days AS (
        SELECT d::date AS day FROM generate_series(?::date, ?::date, interval '1 day') AS d
      ),
      kit_days AS (
        SELECT k.id, days.day
        FROM kits k JOIN days
          ON days.day >= LEAST(
               (k.created_at AT TIME ZONE ?)::date,
               (SELECT min(b.start_date) FROM bookings b WHERE b.kit_id = k.id AND b.status <> 'cancelled')
             )
         AND (k.retired_at IS NULL OR days.day < (k.retired_at AT TIME ZONE ?)::date)
        WHERE (?::text IS NULL OR k.type = ?::text)
      ),
      marked AS (
        SELECT kd.id, kd.day,
          EXISTS (
            SELECT 1 FROM bookings b
            WHERE b.kit_id = kd.id AND b.status <> 'cancelled'
              AND kd.day BETWEEN b.start_date AND b.end_date
          ) AS in_use,
          EXISTS (
            SELECT 1 FROM kit_cleanings c
            WHERE c.kit_id = kd.id AND kd.day >= c.started_on AND kd.day < c.cleaned_on
          ) OR EXISTS (
            SELECT 1 FROM kits w
            WHERE w.id = kd.id AND w.status = 'cleaning' AND w.cleaning_since IS NOT NULL
              AND kd.day >= w.cleaning_since AND kd.day <= ?::date
          ) AS cleaning,
          EXISTS (
            SELECT 1 FROM kit_maintenance mt WHERE mt.kit_id = kd.id AND mt.done_on = kd.day
          ) AS maintenance
        FROM kit_days kd
      )
      SELECT k.id, k.kit_id, k.type,
        count(m.day) AS days_in_service,
        count(m.day) FILTER (WHERE m.in_use) AS days_in_use,
        count(m.day) FILTER (WHERE NOT m.in_use AND m.cleaning) AS days_cleaning,
        count(m.day) FILTER (WHERE NOT m.in_use AND NOT m.cleaning AND m.maintenance) AS days_maintenance,
        (SELECT count(*) FROM bookings b
          WHERE b.kit_id = k.id AND b.status <> 'cancelled'
            AND b.start_date <= ?::date AND b.end_date >= ?::date) AS bookings
      FROM kits k
      LEFT JOIN marked m ON m.id = k.id
      WHERE (?::text IS NULL OR k.type = ?::text)
      GROUP BY k.id, k.kit_id, k.type
      HAVING count(m.day) > 0
      ORDER BY k.type, k.kit_id, k.id
      `,
      [
        query.from,
        query.to,
        timeZone,
        timeZone,
        query.kitType ?? null,
        query.kitType ?? null,
        today,
        query.to,
        query.from,
        query.kitType ?? null,
        query.kitType ?? null,
      ],
    )
  ).rows as KitStatsRow[];

  const usage = await utilisationOf(db, query, timeZone);
  const byKit = rows.map((r) => {
    const held = usage.byKit.get(r.id);
    const daysInService = Number(r.days_in_service);
    const daysInUse = Number(r.days_in_use);
    const daysCleaning = Number(r.days_cleaning);
    const daysMaintenance = Number(r.days_maintenance);
    return {
      kitId: r.id,
      kitLabel: r.kit_id,
      kitType: r.type,
      daysInService,
      daysInUse,
      daysCleaning,
      daysMaintenance,
      idleDays: daysInService - daysInUse - daysCleaning - daysMaintenance,
      bookings: Number(r.bookings),
      heldDays: held?.heldDays ?? 0,
      utilisation: held?.utilisation ?? null,
    };
  });
  const types = new Map<KitType, KitStats['byType'][number]>();
  for (const kit of byKit) {
    const total = types.get(kit.kitType) ?? {
      kitType: kit.kitType,
      kits: 0,
      daysInService: 0,
      daysInUse: 0,
      daysCleaning: 0,
      daysMaintenance: 0,
      idleDays: 0,
      bookings: 0,
      heldDays: 0,
      utilisation: null,
    };
    total.kits += 1;
    total.daysInService += kit.daysInService;
    total.daysInUse += kit.daysInUse;
    total.daysCleaning += kit.daysCleaning;
    total.daysMaintenance += kit.daysMaintenance;
    total.idleDays += kit.idleDays;
    total.bookings += kit.bookings;
    total.heldDays = usage.byType.get(kit.kitType)?.heldDays ?? 0;
    total.utilisation = usage.byType.get(kit.kitType)?.utilisation ?? null;
    types.set(kit.kitType, total);
  }
  return { from: query.from, to: query.to, byType: [...types.values()], byKit };
}

/**
 * Core's kitUtilisation over the period: each kit in service from the day it was added (or its
 * first test, when that was earlier) until it was retired, and the bookings that were not
 * cancelled holding it from their start through the maintenance day after their end.
 */
async function utilisationOf(db: Knex, query: KitStatsQuery, timeZone: string) {
  const kits = (await db('kits as k')
    .modify((q) => {
      if (query.kitType) q.where('k.type', query.kitType);
    })
    .select(
      'k.id',
      'k.type',
      db.raw(
        `LEAST((k.created_at AT TIME ZONE ?)::date,
           (SELECT min(b.start_date) FROM bookings b WHERE b.kit_id = k.id AND b.status <> 'cancelled'))::text AS in_service_from`,
        [timeZone],
      ),
      db.raw('((k.retired_at AT TIME ZONE ?)::date)::text AS retired_on', [timeZone]),
    )) as { id: number; type: KitType; in_service_from: string; retired_on: string | null }[];
  const bookings = (await db('bookings')
    .whereNot('status', 'cancelled')
    .whereNotNull('kit_id')
    .where('start_date', '<=', query.to)
    .where('end_date', '>=', addDays(query.from, -1))
    .select('kit_id', 'status', 'start_date', 'end_date')) as {
    kit_id: number;
    status: BookingStatus;
    start_date: string;
    end_date: string;
  }[];
  return kitUtilisation(
    kits.map((k) => ({
      id: k.id,
      type: k.type,
      inServiceFrom: k.in_service_from.slice(0, 10),
      retiredOn: k.retired_on ? k.retired_on.slice(0, 10) : null,
    })),
    bookings.map((b) => ({
      kitId: b.kit_id,
      status: b.status,
      startDate: b.start_date,
      endDate: b.end_date,
    })),
    query,
  );
}
