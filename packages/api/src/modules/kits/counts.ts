import { type FleetCounts, HOLDING_STATUSES, type KitStatus, type KitType, kitCounts } from '@wellrest/core';
import type { Knex } from 'knex';
import { HELD_RANGE_SQL } from '../bookings/store.js';

/**
 * The fleet's counts today, as the dashboard and Inventory both show them: every kit and the
 * bookings holding one today, counted by core's kitCounts. Two queries; kit ids only.
 */
export async function fleetCounts(db: Knex, today: string): Promise<FleetCounts> {
  const kits = (await db('kits').select('id', 'type', 'status')) as {
    id: number;
    type: KitType;
    status: KitStatus;
  }[];
  const holds = (await db('bookings')
    .whereIn('status', HOLDING_STATUSES)
    .whereNotNull('kit_id')
    .whereRaw(`${HELD_RANGE_SQL} @> ?::date`, [today])
    .select('kit_id', 'status', 'start_date', 'end_date')) as {
    kit_id: number;
    status: (typeof HOLDING_STATUSES)[number];
    start_date: string;
    end_date: string;
  }[];
  return kitCounts(
    kits,
    holds.map((h) => ({ kitId: h.kit_id, status: h.status, startDate: h.start_date, endDate: h.end_date })),
    today,
  );
}
