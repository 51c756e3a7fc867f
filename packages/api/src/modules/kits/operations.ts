import {
  cleaningDueDate,
  type EditKitInput,
  type InventoryKitHistoryEntry,
  inventoryMessages,
  type KitUpkeepInput,
  type NewKitInput,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import type { AppContext } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { accessFor } from '../patients/access.js';
import {
  findInventoryKit,
  type InventoryKit,
  type InventoryKitRow,
  toInventoryKit,
  upcomingHoldCount,
} from './store.js';

// Changes to kits. Each runs in the request's transaction, locks the kit row first, and writes
// an audit event (kits carry no patient data: identifiers only).

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

async function requireKit(db: Knex, id: number): Promise<InventoryKitRow> {
  const kit = await findInventoryKit(db, id, { lock: true });
  if (!kit) throw notFound(inventoryMessages.kitNotFound);
  return kit;
}

async function reload(db: Knex, id: number, today: string): Promise<InventoryKit> {
  return toInventoryKit((await findInventoryKit(db, id)) as InventoryKitRow, today);
}

export async function createKit(ctx: AppContext, input: NewKitInput, today: string): Promise<InventoryKit> {
  const { db } = accessFor(ctx);
  let id: number;
  try {
    id = await db.transaction(async (savepoint) => {
      const [row] = await savepoint('kits')
        .insert({
          kit_id: input.kitId,
          type: input.type,
          status: 'available',
          serial_number: input.serialNumber ?? null,
          notes: input.notes ?? null,
        })
        .returning('id');
      return (row as { id: number }).id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(inventoryMessages.kitLabelTaken(input.kitId));
    throw error;
  }
  await audit(db, ctx, { action: 'kit.create', outcome: 'success', entityType: 'kit', entityId: id });
  return reload(db, id, today);
}

export async function updateKit(
  ctx: AppContext,
  id: number,
  input: EditKitInput,
  today: string,
): Promise<InventoryKit> {
  const { db } = accessFor(ctx);
  const kit = await requireKit(db, id);
  if (kit.status === 'retired') throw conflict(inventoryMessages.retiredKitLocked(kit.kit_id));
  if (input.type !== undefined && input.type !== kit.type && (await upcomingHoldCount(db, id, today)) > 0) {
    throw conflict(inventoryMessages.typeChangeHasBookings(kit.kit_id));
  }
  if (input.status !== undefined && input.status !== kit.status && ['in_use'].includes(kit.status)) {
    // A kit out with a patient comes back through a check-in scan, not a hand-set status.
    throw conflict(inventoryMessages.statusSetByScans);
  }
  const changes: Record<string, unknown> = {};
  if (input.kitId !== undefined) changes.kit_id = input.kitId;
  if (input.type !== undefined) changes.type = input.type;
  if (input.serialNumber !== undefined) changes.serial_number = input.serialNumber;
  if (input.notes !== undefined) changes.notes = input.notes;
  if (input.status !== undefined) {
    changes.status = input.status;
    changes.cleaning_since = null;
    changes.cleaning_due_on = null;
  }
  if (Object.keys(changes).length > 0) {
    try {
      await db.transaction(async (savepoint) => {
        await savepoint('kits')
          .where({ id })
          .update({ ...changes, updated_at: db.fn.now() });
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(inventoryMessages.kitLabelTaken(input.kitId ?? kit.kit_id));
      throw error;
    }
  }
  await audit(db, ctx, {
    action: 'kit.update',
    outcome: 'success',
    entityType: 'kit',
    entityId: id,
    details: {
      fields: Object.keys(changes).sort().join(','),
      ...(input.status ? { status: input.status } : {}),
    },
  });
  return reload(db, id, today);
}

/** Retires a kit for good; refused while a booking still holds it today or later. */
export async function retireKit(ctx: AppContext, id: number, today: string): Promise<InventoryKit> {
  const { db } = accessFor(ctx);
  const kit = await requireKit(db, id);
  if (kit.status === 'retired') throw conflict(inventoryMessages.alreadyRetired(kit.kit_id));
  const upcoming = await upcomingHoldCount(db, id, today);
  if (upcoming > 0) {
    throw conflict(inventoryMessages.retireHasBookings(kit.kit_id, upcoming), { upcomingBookings: upcoming });
  }
  await db('kits').where({ id }).update({
    status: 'retired',
    retired_at: db.fn.now(),
    cleaning_since: null,
    cleaning_due_on: null,
    updated_at: db.fn.now(),
  });
  await audit(db, ctx, { action: 'kit.retire', outcome: 'success', entityType: 'kit', entityId: id });
  return reload(db, id, today);
}

/** Logs the cleaning of a returned kit: the gate opens and the kit is available again. */
export async function logCleaning(
  ctx: AppContext,
  id: number,
  input: KitUpkeepInput,
  today: string,
): Promise<InventoryKit> {
  const { db } = accessFor(ctx);
  const kit = await requireKit(db, id);
  if (kit.status !== 'cleaning') throw conflict(inventoryMessages.notInCleaning(kit.kit_id));
  const lastBooking = await db('bookings')
    .where({ kit_id: id, status: 'completed' })
    .orderBy([
      { column: 'end_date', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('id');
  const user = ctx.state.user;
  const startedOn = kit.cleaning_since ?? today;
  await db('kit_cleanings').insert({
    kit_id: id,
    booking_id: (lastBooking as { id: number } | undefined)?.id ?? null,
    started_on: startedOn,
    due_on: kit.cleaning_due_on ?? today,
    cleaned_on: today < startedOn ? startedOn : today,
    notes: input.notes ?? null,
    performed_by: user?.id ?? null,
    performed_by_username: user?.username ?? null,
  });
  await db('kits')
    .where({ id })
    .update({ status: 'available', cleaning_since: null, cleaning_due_on: null, updated_at: db.fn.now() });
  await audit(db, ctx, {
    action: 'kit.cleaning',
    outcome: 'success',
    entityType: 'kit',
    entityId: id,
    details: { overdue: (kit.cleaning_due_on ?? today) < today },
  });
  return reload(db, id, today);
}

/** Logs maintenance done; a kit that was in maintenance is back in service. */
export async function logMaintenance(
  ctx: AppContext,
  id: number,
  input: KitUpkeepInput,
  today: string,
): Promise<InventoryKit> {
  const { db } = accessFor(ctx);
  const kit = await requireKit(db, id);
  if (kit.status === 'retired') throw conflict(inventoryMessages.retiredKitLocked(kit.kit_id));
  const user = ctx.state.user;
  await db('kit_maintenance').insert({
    kit_id: id,
    done_on: today,
    notes: input.notes ?? null,
    performed_by: user?.id ?? null,
    performed_by_username: user?.username ?? null,
  });
  if (kit.status === 'maintenance') {
    await db('kits').where({ id }).update({ status: 'available', updated_at: db.fn.now() });
  }
  await audit(db, ctx, { action: 'kit.maintenance', outcome: 'success', entityType: 'kit', entityId: id });
  return reload(db, id, today);
}

/** A kit goes out with its booking (check-out): the kit is in use. */
export async function markKitOut(db: Knex, kitId: number): Promise<void> {
  await db('kits').where({ id: kitId }).update({ status: 'in_use', updated_at: db.fn.now() });
}

/** A kit comes back (check-in): it waits for its cleaning, due on its maintenance day. */
export async function markKitReturned(
  db: Knex,
  kitId: number,
  testEndDate: string,
  today: string,
): Promise<void> {
  const dueOn = cleaningDueDate(testEndDate, today);
  await db('kits').where({ id: kitId }).update({
    status: 'cleaning',
    cleaning_since: today,
    cleaning_due_on: dueOn,
    updated_at: db.fn.now(),
  });
  await writeOutbox(db, 'kit.needs_cleaning', { kitId, dueOn });
}

interface HistoryRows {
  bookings: {
    id: number;
    status: string;
    test_type: string;
    start_date: string;
    end_date: string;
    return_date: string;
    patient_id: number;
    patient_name: string;
  }[];
  cleanings: {
    id: number;
    booking_id: number | null;
    started_on: string;
    due_on: string;
    cleaned_on: string;
    notes: string | null;
    performed_by_username: string | null;
    performed_at: Date;
  }[];
  maintenance: {
    id: number;
    done_on: string;
    notes: string | null;
    performed_by_username: string | null;
    performed_at: Date;
  }[];
  scans: {
    id: number;
    booking_id: number | null;
    mode: string;
    outcome: string;
    message: string;
    username: string | null;
    station: string | null;
    scanned_at: Date;
  }[];
}

const iso = (value: Date) => new Date(value).toISOString();

/** A kit's bookings, cleanings, maintenance and scans as one list, newest first. */
export async function kitHistory(db: Knex, kitId: number): Promise<InventoryKitHistoryEntry[]> {
  // One after the other: a transaction's connection runs one query at a time.
  const bookings = (await db('bookings')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .where('bookings.kit_id', kitId)
    .select(
      'bookings.id',
      'bookings.status',
      'bookings.test_type',
      'bookings.start_date',
      'bookings.end_date',
      'bookings.return_date',
      'bookings.patient_id',
      'patients.name as patient_name',
    )) as HistoryRows['bookings'];
  const cleanings = (await db('kit_cleanings').where({ kit_id: kitId })) as HistoryRows['cleanings'];
  const maintenance = (await db('kit_maintenance').where({ kit_id: kitId })) as HistoryRows['maintenance'];
  const scans = (await db('kit_scans').where({ kit_id: kitId })) as HistoryRows['scans'];
  const entries: InventoryKitHistoryEntry[] = [
    ...bookings.map(
      (b): InventoryKitHistoryEntry => ({
        kind: 'booking',
        id: b.id,
        at: `${b.start_date}T00:00:00.000Z`,
        bookingId: b.id,
        status: b.status,
        testType: b.test_type,
        startDate: b.start_date,
        endDate: b.end_date,
        returnDate: b.return_date,
        patientId: b.patient_id,
        patientName: b.patient_name,
      }),
    ),
    ...cleanings.map(
      (c): InventoryKitHistoryEntry => ({
        kind: 'cleaning',
        id: c.id,
        at: iso(c.performed_at),
        bookingId: c.booking_id,
        startedOn: c.started_on,
        dueOn: c.due_on,
        cleanedOn: c.cleaned_on,
        overdue: c.cleaned_on > c.due_on,
        notes: c.notes,
        username: c.performed_by_username,
      }),
    ),
    ...maintenance.map(
      (m): InventoryKitHistoryEntry => ({
        kind: 'maintenance',
        id: m.id,
        at: iso(m.performed_at),
        doneOn: m.done_on,
        notes: m.notes,
        username: m.performed_by_username,
      }),
    ),
    ...scans.map(
      (s): InventoryKitHistoryEntry => ({
        kind: 'scan',
        id: s.id,
        at: iso(s.scanned_at),
        bookingId: s.booking_id,
        mode: s.mode,
        outcome: s.outcome,
        message: s.message,
        username: s.username,
        station: s.station,
      }),
    ),
  ];
  return entries.sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1));
}
