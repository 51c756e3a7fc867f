import {
  addDays,
  type BookingListItem,
  HOLDING_STATUSES,
  inventoryMessages,
  type KitScan,
  lastPickupStartDate,
  MAINTENANCE_DAYS,
  operationMessages,
  type ScanInput,
  ScannerSettings,
  type ScanOutcome,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import { type AppContext, clientInfo, dbOf } from '../../http/context.js';
import { bookingReader, practiceToday, recordBookingEvent } from '../bookings/store.js';
import { markKitOut, markKitReturned } from '../kits/operations.js';
import { findKitByCode, type InventoryKitRow } from '../kits/store.js';
import { accessFor } from '../patients/access.js';

// Scanning kits out (pickup) and in (return) at the desk. Each scan is decided on locked rows and
// stored, accepted or not, naming the signed-in user. An accepted scan changes the booking and
// the kit in the request's transaction, together or not at all.

/** The answer to one scan: its HTTP status, the stored scan, and the booking it moved. */
export interface ScanAnswer {
  status: number;
  scan: KitScan;
  booking?: BookingListItem;
}

interface Decision {
  status: number;
  message: string;
  kit?: InventoryKitRow;
  booking?: BookingListItem;
}

const rejected = (status: number, message: string, kit?: InventoryKitRow, booking?: BookingListItem) => ({
  status,
  message,
  ...(kit ? { kit } : {}),
  ...(booking ? { booking } : {}),
});

/** The booking a scan names, locked; or the one the kit is due for in this direction. */
async function bookingFor(
  ctx: AppContext,
  kit: InventoryKitRow,
  input: ScanInput,
  today: string,
): Promise<BookingListItem | undefined> {
  const reader = bookingReader(ctx);
  if (input.bookingId !== undefined) return reader.find(input.bookingId, 'update', { lock: true });
  const query = reader.scoped('update').where('bookings.kit_id', kit.id);
  if (input.mode === 'checkout')
    query
      .where('bookings.status', 'confirmed')
      .whereBetween('bookings.start_date', [today, lastPickupStartDate(today)]);
  else query.where('bookings.status', 'picked_up');
  const row = await query.orderBy('bookings.start_date').first('bookings.id');
  return row ? reader.find((row as { id: number }).id, 'update', { lock: true }) : undefined;
}

/**
 * True when another booking holds the kit between today and this booking's start (its held window
 * runs through the maintenance day after its end): the kit cannot go out early.
 */
async function heldBefore(
  ctx: AppContext,
  kitId: number,
  booking: BookingListItem,
  today: string,
): Promise<boolean> {
  const row = await dbOf(ctx)('bookings')
    .where('kit_id', kitId)
    .whereNot('id', booking.id)
    .whereIn('status', [...HOLDING_STATUSES])
    .where('start_date', '<', booking.startDate)
    .where('end_date', '>=', addDays(today, -MAINTENANCE_DAYS))
    .first('id');
  return row !== undefined;
}

async function decideCheckout(ctx: AppContext, kit: InventoryKitRow, input: ScanInput, today: string) {
  const label = kit.kit_id;
  if (kit.status === 'cleaning') return rejected(409, inventoryMessages.kitNeedsCleaning(label), kit);
  if (kit.status === 'in_use') return rejected(409, inventoryMessages.kitAlreadyOut(label), kit);
  if (kit.status !== 'available')
    return rejected(409, inventoryMessages.kitOutOfService(label, kit.status), kit);
  const booking = await bookingFor(ctx, kit, input, today);
  if (!booking) {
    return input.bookingId !== undefined
      ? rejected(404, operationMessages.bookingNotFound, kit)
      : rejected(409, inventoryMessages.noBookingToday(label), kit);
  }
  if (booking.kitId !== kit.id) {
    return rejected(409, inventoryMessages.wrongKit(label, booking.kitLabel ?? '?'), kit, booking);
  }
  if (booking.status !== 'confirmed') {
    return rejected(409, inventoryMessages.bookingNotConfirmed(booking.id, booking.status), kit, booking);
  }
  if (booking.startDate > lastPickupStartDate(today)) {
    return rejected(409, inventoryMessages.bookingNotStarted(booking.id, booking.startDate), kit, booking);
  }
  if (booking.startDate > today && (await heldBefore(ctx, kit.id, booking, today))) {
    return rejected(409, inventoryMessages.kitNeededEarlier(label), kit, booking);
  }
  return { status: 200, message: inventoryMessages.checkedOut(label, booking.id), kit, booking };
}

async function decideCheckin(ctx: AppContext, kit: InventoryKitRow, input: ScanInput, today: string) {
  const label = kit.kit_id;
  if (input.bookingId !== undefined) {
    const named = await bookingFor(ctx, kit, input, today);
    if (!named) return rejected(404, operationMessages.bookingNotFound, kit);
    if (named.kitId !== kit.id) {
      return rejected(409, inventoryMessages.wrongKit(label, named.kitLabel ?? '?'), kit, named);
    }
  }
  if (kit.status === 'cleaning') return rejected(409, inventoryMessages.alreadyCheckedIn(label), kit);
  const booking = await bookingFor(ctx, kit, input, today);
  // A kit whose booking is picked up is out with the patient even when no check-out scan set it in
  // use (bookings recorded before the desk scanned kits): its return is accepted.
  const outByBooking = kit.status === 'available' && booking?.status === 'picked_up';
  if (kit.status !== 'in_use' && !outByBooking) {
    return rejected(409, inventoryMessages.kitNotCheckedOut(label), kit);
  }
  if (booking?.status !== 'picked_up') {
    return rejected(409, inventoryMessages.noPickedUpBooking(label), kit, booking);
  }
  return { status: 200, message: inventoryMessages.checkedIn(label, booking.id), kit, booking };
}

async function storeScan(db: Knex, ctx: AppContext, input: ScanInput, decision: Decision): Promise<KitScan> {
  const user = ctx.state.user;
  const outcome: ScanOutcome = decision.status === 200 ? 'accepted' : 'rejected';
  const [row] = await db('kit_scans')
    .insert({
      kit_id: decision.kit?.id ?? null,
      code: input.code,
      booking_id: decision.booking?.id ?? null,
      mode: input.mode,
      outcome,
      message: decision.message,
      user_id: user?.id ?? null,
      username: user?.username ?? null,
      station: input.station ?? null,
      user_agent: clientInfo(ctx).userAgent,
    })
    .returning(['id', 'scanned_at']);
  const stored = row as { id: number; scanned_at: Date };
  await audit(db, ctx, {
    action: 'kit.scan',
    outcome: outcome === 'accepted' ? 'success' : 'failure',
    entityType: 'kit',
    entityId: decision.kit?.id ?? null,
    details: { mode: input.mode, bookingId: decision.booking?.id ?? null, status: decision.status },
  });
  return {
    id: stored.id,
    code: input.code,
    kitId: decision.kit?.id ?? null,
    kitLabel: decision.kit?.kit_id ?? null,
    bookingId: decision.booking?.id ?? null,
    mode: input.mode,
    outcome,
    message: decision.message,
    username: user?.username ?? null,
    station: input.station ?? null,
    scannedAt: new Date(stored.scanned_at).toISOString(),
  };
}

/** Decides one scan, applies it when accepted, and stores it either way. */
export async function recordScan(ctx: AppContext, input: ScanInput): Promise<ScanAnswer> {
  const { db } = accessFor(ctx);
  const today = await practiceToday(ctx);
  const kit = await findKitByCode(db, input.code);
  const decision: Decision = !kit
    ? { status: 404, message: inventoryMessages.unknownKit(input.code) }
    : input.mode === 'checkout'
      ? await decideCheckout(ctx, kit, input, today)
      : await decideCheckin(ctx, kit, input, today);

  if (decision.status === 200 && decision.kit && decision.booking) {
    const booking = decision.booking;
    const toStatus = input.mode === 'checkout' ? 'picked_up' : 'completed';
    await db('bookings').where({ id: booking.id }).update({ status: toStatus, updated_at: db.fn.now() });
    if (input.mode === 'checkout') await markKitOut(db, decision.kit.id);
    else await markKitReturned(db, decision.kit.id, booking.endDate, today);
    await recordBookingEvent(db, ctx, {
      bookingId: booking.id,
      action: 'status_changed',
      fromStatus: booking.status,
      toStatus,
      details: { kitId: decision.kit.id, via: 'scan' },
    });
    decision.booking = (await bookingReader(ctx).find(booking.id)) ?? booking;
  }
  const scan = await storeScan(db, ctx, input, decision);
  return decision.status === 200 && decision.booking
    ? { status: 200, scan, booking: decision.booking }
    : { status: decision.status, scan };
}

interface ScanRow {
  id: number;
  code: string;
  kit_id: number | null;
  kit_label: string | null;
  booking_id: number | null;
  mode: KitScan['mode'];
  outcome: KitScan['outcome'];
  message: string;
  username: string | null;
  station: string | null;
  scanned_at: Date;
}

/** The latest scans, newest first. Scans name kits and booking numbers, never patients. */
export async function recentScans(db: Knex, limit: number): Promise<KitScan[]> {
  const rows = (await db('kit_scans')
    .leftJoin('kits', 'kits.id', 'kit_scans.kit_id')
    .select('kit_scans.*', 'kits.kit_id as kit_label')
    .orderBy([
      { column: 'kit_scans.scanned_at', order: 'desc' },
      { column: 'kit_scans.id', order: 'desc' },
    ])
    .limit(limit)) as ScanRow[];
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    kitId: r.kit_id,
    kitLabel: r.kit_label,
    bookingId: r.booking_id,
    mode: r.mode,
    outcome: r.outcome,
    message: r.message,
    username: r.username,
    station: r.station,
    scannedAt: new Date(r.scanned_at).toISOString(),
  }));
}

export async function scannerSettingsOf(db: Knex, userId: number): Promise<ScannerSettings> {
  const row = (await db('scanner_settings').where({ user_id: userId }).first('settings')) as
    | { settings: unknown }
    | undefined;
  const parsed = ScannerSettings.safeParse(row?.settings ?? {});
  return parsed.success ? parsed.data : ScannerSettings.parse({});
}

export async function saveScannerSettings(
  db: Knex,
  userId: number,
  settings: ScannerSettings,
): Promise<void> {
  await db('scanner_settings')
    .insert({ user_id: userId, settings: JSON.stringify(settings), updated_at: db.fn.now() })
    .onConflict('user_id')
    .merge(['settings', 'updated_at']);
}
