import {
  type FleetCounts,
  KIT_STATUSES,
  KIT_TYPES,
  type KitStatus,
  type KitType,
  type MaintenanceScheduleInput,
  maintenanceDueDate,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import type { AppContext } from '../../http/context.js';
import { bookingReader } from '../bookings/store.js';
import { fleetCounts } from '../kits/counts.js';
import {
  type InventoryKit,
  type InventoryKitRow,
  inventoryKitsQuery,
  toInventoryKit,
} from '../kits/store.js';
import { accessFor } from '../patients/access.js';

export interface MaintenanceSchedule {
  kitType: KitType;
  everyDays: number;
  notes: string | null;
  updatedAt: string;
}

export interface MaintenanceDue {
  kitId: number;
  kitLabel: string;
  kitType: KitType;
  lastDoneOn: string | null;
  dueOn: string;
}

export interface OverdueReturn {
  bookingId: number;
  patientId: number;
  patientName: string;
  kitId: number | null;
  kitLabel: string | null;
  kitType: KitType;
  returnDate: string;
  daysOverdue: number;
}

export interface InventoryOverview {
  today: string;
  counts: Record<KitStatus, number>;
  /** The same counts for each kit type. */
  countsByType: Record<KitType, Record<KitStatus, number>>;
  /** Free to book today, booked today, on the shelf now...: core's kitCounts, as the dashboard shows them. */
  fleet: FleetCounts;
  total: number;
  overdueCleanings: InventoryKit[];
  overdueReturns: OverdueReturn[];
  maintenanceDue: MaintenanceDue[];
}

interface ScheduleRow {
  kit_type: KitType;
  every_days: number;
  notes: string | null;
  updated_at: Date;
}

const toSchedule = (r: ScheduleRow): MaintenanceSchedule => ({
  kitType: r.kit_type,
  everyDays: r.every_days,
  notes: r.notes,
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function listSchedules(db: Knex): Promise<MaintenanceSchedule[]> {
  return ((await db('maintenance_schedules').orderBy('kit_type')) as ScheduleRow[]).map(toSchedule);
}

/** Sets the schedule of a kit type (one per type; a second call replaces it). */
export async function saveSchedule(
  ctx: AppContext,
  input: MaintenanceScheduleInput,
): Promise<MaintenanceSchedule> {
  const { db } = accessFor(ctx);
  const [row] = await db('maintenance_schedules')
    .insert({
      kit_type: input.kitType,
      every_days: input.everyDays,
      notes: input.notes ?? null,
      updated_by: ctx.state.user?.id ?? null,
      updated_at: db.fn.now(),
    })
    .onConflict('kit_type')
    .merge(['every_days', 'notes', 'updated_by', 'updated_at'])
    .returning('*');
  await audit(db, ctx, {
    action: 'maintenance_schedule.update',
    outcome: 'success',
    entityType: 'maintenance_schedule',
    entityId: input.kitType,
    details: { everyDays: input.everyDays },
  });
  return toSchedule(row as ScheduleRow);
}

/**
 * Kits whose scheduled maintenance is due by `today`: last done (or, never done, the day the kit
 * came into service) plus the schedule's interval. Retired and lost kits need none. One query.
 */
export async function maintenanceDue(db: Knex, today: string): Promise<MaintenanceDue[]> {
  const rows = (await db('kits')
    .join('maintenance_schedules as s', 's.kit_type', 'kits.type')
    .whereNotIn('kits.status', ['retired', 'lost'])
    .select(
      'kits.id',
      'kits.kit_id',
      'kits.type',
      's.every_days',
      db.raw(
        "to_char((SELECT max(done_on) FROM kit_maintenance m WHERE m.kit_id = kits.id), 'YYYY-MM-DD') AS last_done_on",
      ),
      db.raw("to_char(kits.created_at::date, 'YYYY-MM-DD') AS in_service_on"),
    )
    .orderBy('kits.id')) as {
    id: number;
    kit_id: string;
    type: KitType;
    every_days: number;
    last_done_on: string | null;
    in_service_on: string;
  }[];
  return rows
    .map((r) => ({
      kitId: r.id,
      kitLabel: r.kit_id,
      kitType: r.type,
      lastDoneOn: r.last_done_on,
      dueOn: maintenanceDueDate(r.last_done_on ?? r.in_service_on, r.every_days),
    }))
    .filter((due) => due.dueOn <= today)
    .sort((a, b) => (a.dueOn === b.dueOn ? a.kitId - b.kitId : a.dueOn < b.dueOn ? -1 : 1));
}

/** GET /api/inventory/overview: counts by status and what needs attention today. */
export async function inventoryOverview(ctx: AppContext, today: string): Promise<InventoryOverview> {
  const { db } = accessFor(ctx);
  const countRows = (await db('kits')
    .select('type', 'status')
    .count({ n: '*' })
    .groupBy('type', 'status')) as {
    type: KitType;
    status: KitStatus;
    n: string | number;
  }[];
  const zero = () => Object.fromEntries(KIT_STATUSES.map((s) => [s, 0])) as Record<KitStatus, number>;
  const counts = zero();
  const countsByType = Object.fromEntries(KIT_TYPES.map((t) => [t, zero()])) as Record<
    KitType,
    Record<KitStatus, number>
  >;
  for (const row of countRows) {
    counts[row.status] += Number(row.n);
    countsByType[row.type][row.status] = Number(row.n);
  }

  const overdueCleanings = (
    (await inventoryKitsQuery(db)
      .where('kits.status', 'cleaning')
      .whereRaw('coalesce(kits.cleaning_due_on, ?::date) < ?::date', [today, today])
      .orderBy('kits.cleaning_due_on')) as InventoryKitRow[]
  ).map((row) => toInventoryKit(row, today));

  const late = (await bookingReader(ctx)
    .scoped('read')
    .where('bookings.status', 'picked_up')
    .where('bookings.return_date', '<', today)
    .orderBy([{ column: 'bookings.return_date' }, { column: 'bookings.id' }])
    .select(
      'bookings.id',
      'bookings.patient_id',
      'patients.name as patient_name',
      'bookings.kit_id',
      'kits.kit_id as kit_label',
      'bookings.kit_type',
      'bookings.return_date',
      db.raw('(?::date - bookings.return_date) AS days_overdue', [today]),
    )) as {
    id: number;
    patient_id: number;
    patient_name: string;
    kit_id: number | null;
    kit_label: string | null;
    kit_type: KitType;
    return_date: string;
    days_overdue: number;
  }[];
  const overdueReturns = late.map((r) => ({
    bookingId: r.id,
    patientId: r.patient_id,
    patientName: r.patient_name,
    kitId: r.kit_id,
    kitLabel: r.kit_label,
    kitType: r.kit_type,
    returnDate: r.return_date,
    daysOverdue: Number(r.days_overdue),
  }));
  await audit(db, ctx, {
    action: 'inventory.overview',
    outcome: 'success',
    entityType: 'booking',
    details: { overdueReturns: overdueReturns.length, ids: overdueReturns.map((r) => r.bookingId).join(',') },
  });
  return {
    today,
    counts,
    countsByType,
    fleet: await fleetCounts(db, today),
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    overdueCleanings,
    overdueReturns,
    maintenanceDue: await maintenanceDue(db, today),
  };
}
