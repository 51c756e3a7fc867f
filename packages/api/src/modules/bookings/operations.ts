import {
  availableKitsOfType,
  type BookingListItem,
  type BookingStatus,
  type ChangeBookingStatusInput,
  CREATE_BOOKING_STATUSES,
  type CreateBookingInput,
  canTransitionBooking,
  DEFAULT_BOOKING_STATUS,
  type ExtensionEligibility,
  extensionEligibility,
  frontDeskMessages,
  HOLDING_STATUSES,
  inventoryMessages,
  isValidStartDate,
  type KitType,
  messages,
  operationMessages,
  type ReductionEligibility,
  reductionEligibility,
  type TestType,
  testDates,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { markKitOut, markKitReturned } from '../kits/operations.js';
import { findInventoryKit } from '../kits/store.js';
import {
  type AccessEvent,
  accessFor,
  accessInsert,
  applyScope,
  PATIENT_SCOPE,
  recordAccess,
  scopeOf,
} from '../patients/access.js';
import {
  type BookingEventInput,
  bookingEventWrites,
  bookingReader,
  isKitHoldConflict,
  loadKitsAndHolds,
  neededWindow,
  practiceToday,
} from './store.js';

// The booking operations. Each runs inside the request's transaction (`inTransaction`), decides
// with core's rules on freshly loaded rows, and leaves the guarantee against double booking to
// the database's exclusion constraint: a write that loses a race fails with 23P01 inside a
// savepoint and is retried or refused, never committed.

/** Extensions re-decide after losing a race for a kit at most this many times. */
const EXTEND_ATTEMPTS = 3;

function fieldError(field: string, message: string) {
  return badRequest(message, { fields: { [field]: message } });
}

/** A booking the caller may act on, or 404 (a booking outside their scope does not exist for them). */
async function requireBooking(
  ctx: AppContext,
  id: number,
  action: 'read' | 'update' | 'extend' | 'reduce',
  options: { lock?: boolean; writing?: readonly Knex.QueryBuilder[] } = {},
): Promise<BookingListItem> {
  const booking = await bookingReader(ctx).find(id, action, options);
  if (!booking) throw notFound(operationMessages.bookingNotFound);
  return booking;
}

/**
 * The booking as the caller now sees it, read by the statement that also writes the change's
 * history line, outbox event and audit row: one round trip for all of them.
 */
function answerWithEvent(
  ctx: AppContext,
  db: Knex,
  event: BookingEventInput,
  access: Pick<AccessEvent, 'action' | 'details'>,
): Promise<BookingListItem> {
  return requireBooking(ctx, event.bookingId, 'read', {
    writing: [
      ...bookingEventWrites(db, ctx, event),
      accessInsert(db, ctx, { ...access, entityType: 'booking', ids: [event.bookingId] }),
    ],
  });
}

export async function createBooking(ctx: AppContext, input: CreateBookingInput): Promise<BookingListItem> {
  const { db } = accessFor(ctx);
  await requirePatient(ctx, db, input);

  const status: BookingStatus = input.status ?? DEFAULT_BOOKING_STATUS;
  if (!(CREATE_BOOKING_STATUSES as readonly string[]).includes(status)) {
    throw fieldError('status', operationMessages.createStatusNotAllowed);
  }
  const today = await practiceToday(ctx);
  if (input.startDate < today) throw fieldError('startDate', operationMessages.startDateInPast);
  if (!isValidStartDate(input.startDate, input.testType)) {
    throw fieldError('startDate', messages.booking.invalidStartDay);
  }
  // The client's end and return dates are advisory: the rules of spec §9 decide.
  const dates = testDates(input.startDate, input.testType);
  if (!input.allowDuplicate) await refuseDuplicate(db, input);
  const placed = await insertWithFreeKit(db, input.kitType, input.startDate, input.testType, today, {
    patient_id: input.patientId,
    test_type: input.testType,
    kit_type: input.kitType,
    status,
    start_date: dates.startDate,
    end_date: dates.endDate,
    return_date: dates.returnDate,
    notes: input.notes ?? null,
    created_by: ctx.state.user?.id ?? null,
  });
  if (placed === null) throw conflict(messages.booking.kitNotAvailable(input.kitType));
  const { id, kitId } = placed;
  return answerWithEvent(
    ctx,
    db,
    { bookingId: id, action: 'created', toStatus: status, details: { kitId, testType: input.testType } },
    { action: 'booking.create' },
  );
}

/**
 * The patient must exist within the caller's scope. When the booking must not be a duplicate,
 * the same statement takes the lock its duplicates queue on (`refuseDuplicate`): two
 * submissions of one booking then wait for each other, and only they do.
 */
async function requirePatient(ctx: AppContext, db: Knex, input: CreateBookingInput): Promise<void> {
  const patient = db('patients').where('patients.id', input.patientId).first('id');
  applyScope(patient, scopeOf(ctx, 'read', 'Patient'), PATIENT_SCOPE);
  const query = db.select(patient.as('patient_id'));
  if (!input.allowDuplicate) {
    query.select(db.raw('pg_advisory_xact_lock(hashtext(?))', [duplicateLockKey(input)]));
  }
  const [row] = (await query) as { patient_id: number | null }[];
  if (row?.patient_id == null) throw fieldError('patientId', operationMessages.patientNotFound);
}

function duplicateLockKey(input: CreateBookingInput): string {
  return `wellrest:booking:${input.patientId}:${input.kitType}:${input.startDate}`;
}

/**
 * Takes the first kit of a type that is free for the test and clean in time: a new booking
 * (`values`: its columns but the kit) is inserted on it, or, with `bookingId`, that booking is
 * moved onto it (`values` written with the kit).
 *
 * Requests for one kit type run side by side. Each claims the first free kit no other request
 * holds (a row lock on the kit, skipping locked ones, kept to the end of the transaction), so
 * simultaneous requests take different kits instead of queueing for one. When every free kit is
 * held by another request, it waits for the first of them: that request may still fail and
 * leave its kit free. The database's exclusion constraint decides in the end: a kit booked
 * since the holds were read is passed over for the next one. Returns the booking's id and kit,
 * or null when no kit is free.
 */
async function insertWithFreeKit(
  db: Knex,
  ...placement: Placement
): Promise<{ id: number; kitId: number } | null> {
  const place = (on: Knex) => placeOnFreeKit(on, ...placement);
  // Outside a transaction there is nothing to roll back to: each statement stands alone.
  if (!(db as Knex.Transaction).isTransaction) return place(db);
  for (let attempt = 1; ; attempt += 1) {
    try {
      // A savepoint: rolled back to, it also lets go of the kits this attempt claimed.
      return await db.transaction(place);
    } catch (error) {
      if (attempt >= CLAIM_ATTEMPTS || (error as { code?: string }).code !== DEADLOCK) throw error;
    }
  }
}

/** What {@link insertWithFreeKit} places: the kit type, start, test, today, the columns, the booking moved. */
type Placement = [
  kitType: KitType,
  startDate: string,
  testType: TestType,
  today: string,
  values: Record<string, Knex.Value>,
  bookingId?: number,
];

/** PostgreSQL's deadlock_detected: the transaction it chose to end may simply run again. */
const DEADLOCK = '40P01';
/** Attempts at placing a booking when requests claiming kits deadlock. */
const CLAIM_ATTEMPTS = 3;

/**
 * {@link insertWithFreeKit}'s attempt. A kit claimed but found booked meanwhile stays claimed to
 * the end of the attempt, and the attempt may then wait for a kit another request holds while
 * that request waits for this one: PostgreSQL ends one of the two (a deadlock), and the caller
 * runs it again from its savepoint, without the kits it held.
 */
async function placeOnFreeKit(
  db: Knex,
  ...[kitType, startDate, testType, today, values, bookingId]: Placement
): Promise<{ id: number; kitId: number } | null> {
  const freeKits = async () => {
    const { kits, holds, notReady } = await loadKitsAndHolds(db, kitType, neededWindow(startDate, testType), {
      readyFor: { startDate, today },
    });
    return availableKitsOfType(kitType, kits, holds, startDate, testType)
      .filter((kit) => !notReady.has(kit.id))
      .map((kit) => kit.id);
  };
  let candidates = await freeKits();
  while (candidates.length > 0) {
    let placed = await claimAndPlaceAtOnce(db, candidates, values, bookingId);
    const waited = placed === null;
    if (placed === null) {
      const claimed = await claimKit(db, candidates, { wait: true });
      if (claimed === null) return null;
      placed = { kitId: claimed, id: await placeOnKit(db, { ...values, kit_id: claimed }, bookingId) };
    }
    const { id, kitId: claimed } = placed;
    if (id !== null) return { id, kitId: claimed };
    // Taken meanwhile. After a wait the other requests have ended: decide again on what they left.
    candidates = waited
      ? (await freeKits()).filter((kit) => kit !== claimed)
      : candidates.filter((kit) => kit !== claimed);
  }
  return null;
}

/**
 * A row lock on the first of `kitIds` (by id) that still exists: the first one no other request
 * holds, or, with `wait`, the first one, once its holder is done. Null when none is left.
 */
async function claimKit(db: Knex, kitIds: number[], options: { wait: boolean }): Promise<number | null> {
  const query = db('kits')
    .whereIn('id', options.wait ? kitIds.slice(0, 1) : kitIds)
    .orderBy('id')
    .first('id');
  query.forNoKeyUpdate();
  if (!options.wait) query.skipLocked();
  const claimed = (await query) as { id: number } | undefined;
  if (claimed) return Number(claimed.id);
  // Waiting for the first kit, which no longer exists: the next one.
  if (options.wait && kitIds.length > 1) return claimKit(db, kitIds.slice(1), options);
  return null;
}

/**
 * Without waiting: a row lock on the first of `kitIds` no other request holds, and the booking
 * placed on it (`id` null when the kit was booked for these dates since they were read). A new
 * booking is claimed and inserted in one statement. Null when another request holds every kit.
 */
async function claimAndPlaceAtOnce(
  db: Knex,
  kitIds: number[],
  values: Record<string, Knex.Value>,
  bookingId?: number,
): Promise<{ kitId: number; id: number | null } | null> {
  if (bookingId !== undefined) {
    const claimed = await claimKit(db, kitIds, { wait: false });
    if (claimed === null) return null;
    return { kitId: claimed, id: await placeOnKit(db, { ...values, kit_id: claimed }, bookingId) };
  }
  const claim = db('kits')
    .whereIn('id', kitIds)
    .orderBy('id')
    .first('id')
    .forNoKeyUpdate()
    .skipLocked()
    .toSQL();
  const columns = Object.keys(values);
  // An INSERT ... SELECT takes each value's type from its column, as VALUES does. The exclusion
  // constraint is an arbiter of ON CONFLICT DO NOTHING: a kit claimed but not placed on was taken.
  const result = await db.raw(
    `WITH claimed AS (${claim.sql}), placed AS (
       INSERT INTO bookings (${columns.map(() => '??').join(', ')}, kit_id)
       SELECT ${columns.map(() => '?').join(', ')}, claimed.id FROM claimed
       ON CONFLICT DO NOTHING RETURNING id
     )
     SELECT claimed.id AS kit_id, placed.id FROM claimed LEFT JOIN placed ON true`,
    [...claim.bindings, ...columns, ...Object.values(values)],
  );
  const row = (result.rows as { kit_id: number; id: number | null }[])[0];
  return row ? { kitId: Number(row.kit_id), id: row.id === null ? null : Number(row.id) } : null;
}

/**
 * The booking on its kit: inserted, or `bookingId` moved onto it. Null when the kit was booked
 * for these dates since they were read (the exclusion constraint).
 */
async function placeOnKit(
  db: Knex,
  values: Record<string, Knex.Value>,
  bookingId?: number,
): Promise<number | null> {
  if (bookingId === undefined) {
    // An exclusion constraint is an arbiter of ON CONFLICT DO NOTHING: no row means the kit was taken.
    const [inserted] = (await db('bookings').insert(values).onConflict().ignore().returning('id')) as {
      id: number;
    }[];
    return inserted ? Number(inserted.id) : null;
  }
  try {
    return await db.transaction(async (savepoint) => {
      await savepoint('bookings').where({ id: bookingId }).update(values);
      return bookingId;
    });
  } catch (error) {
    if (isKitHoldConflict(error)) return null;
    throw error;
  }
}

/**
 * A second active booking of one patient for the same kit type and start date is almost always
 * a double submission: refused with 409 naming the existing booking, unless the request says
 * it is intended (`allowDuplicate`). Runs under the lock `requirePatient` took, in a statement
 * of its own: one that started before the lock was granted would not see what its holder wrote.
 */
async function refuseDuplicate(db: Knex, input: CreateBookingInput): Promise<void> {
  const existing = (await db('bookings')
    .where({ patient_id: input.patientId, kit_type: input.kitType, start_date: input.startDate })
    .whereIn('status', HOLDING_STATUSES)
    .orderBy('id')
    .first('id')) as { id: number } | undefined;
  if (!existing) return;
  throw conflict(frontDeskMessages.duplicateBooking(input.kitType, input.startDate, existing.id), {
    reason: 'duplicate',
    existingBookingId: existing.id,
  });
}

/**
 * A kit handed out by hand must be on the shelf: not waiting for its cleaning, in maintenance,
 * retired, or out with another patient (the same refusals as a check-out scan).
 */
async function requireKitOnShelf(db: Knex, kitId: number): Promise<void> {
  const kit = await findInventoryKit(db, kitId, { lock: true });
  if (!kit) return;
  if (kit.status === 'cleaning') throw conflict(inventoryMessages.kitNeedsCleaning(kit.kit_id));
  if (kit.status === 'in_use') throw conflict(inventoryMessages.kitAlreadyOut(kit.kit_id));
  if (kit.status !== 'available') throw conflict(inventoryMessages.kitOutOfService(kit.kit_id, kit.status));
}

/**
 * Requests that assign kits of one type queue here until the transaction ends. Without it two
 * transactions can each wait on the other's exclusion-constraint check (a deadlock, 40P01);
 * with it they run one after the other per kit type, and other kit types proceed in parallel.
 */
async function queueForKitType(db: Knex, kitType: string): Promise<void> {
  await db.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`wellrest:kit-type:${kitType}`]);
}

export async function changeBookingStatus(
  ctx: AppContext,
  id: number,
  input: ChangeBookingStatusInput,
): Promise<BookingListItem> {
  const { db } = accessFor(ctx);
  const booking = await requireBooking(ctx, id, 'update', { lock: true });
  if (!canTransitionBooking(booking.status, input.status)) {
    throw conflict(operationMessages.invalidStatusChange(booking.status, input.status));
  }
  if (input.status === 'cancelled' && !input.reason) {
    throw fieldError('reason', inventoryMessages.cancelReasonRequired);
  }
  // A request from the public booking form holds no kit while it waits: staff confirming it (or
  // handing it out) is what takes a free kit, or is refused when none is free.
  if (booking.kitId === null && (input.status === 'confirmed' || input.status === 'picked_up')) {
    const assigned = await insertWithFreeKit(
      db,
      booking.kitType,
      booking.startDate,
      booking.testType,
      await practiceToday(ctx),
      { updated_at: db.fn.now() },
      id,
    );
    if (assigned === null) throw conflict(messages.booking.kitNotAvailable(booking.kitType));
    booking.kitId = assigned.kitId;
  }
  // The kit follows the booking, as with a scan: out with the patient, then back to be cleaned.
  if (input.status === 'picked_up' && booking.kitId !== null) await requireKitOnShelf(db, booking.kitId);
  await db('bookings').where({ id }).update({ status: input.status, updated_at: db.fn.now() });
  if (booking.kitId !== null) {
    if (input.status === 'picked_up') await markKitOut(db, booking.kitId);
    if (input.status === 'completed') {
      // A kit back before the planned end ended its test that day: it is cleaned from then on.
      const today = await practiceToday(ctx);
      const endedOn = [booking.endDate, today].sort()[0] ?? today;
      await markKitReturned(db, booking.kitId, endedOn, today);
    }
  }
  return answerWithEvent(
    ctx,
    db,
    {
      bookingId: id,
      action: 'status_changed',
      fromStatus: booking.status,
      toStatus: input.status,
      reason: input.reason ?? null,
      details: booking.kitId !== null ? { kitId: booking.kitId } : {},
    },
    { action: 'booking.status_change', details: { from: booking.status, to: input.status } },
  );
}

async function decideExtension(ctx: AppContext, booking: BookingListItem): Promise<ExtensionEligibility> {
  const { db } = accessFor(ctx);
  const { kits, holds, notReady } = await loadKitsAndHolds(
    db,
    booking.kitType,
    neededWindow(booking.startDate, '3-day'),
    { readyFor: { startDate: booking.startDate, today: await practiceToday(ctx) } },
  );
  // A swap never moves the test onto a kit that will not be clean in time (the booking's own kit
  // is already its own: the gate applied when it was assigned).
  notReady.delete(booking.kitId ?? -1);
  return extensionEligibility(
    booking,
    kits.filter((kit) => !notReady.has(kit.id)),
    holds,
  );
}

export async function checkExtension(ctx: AppContext, id: number): Promise<ExtensionEligibility> {
  const booking = await requireBooking(ctx, id, 'read');
  const eligibility = await decideExtension(ctx, booking);
  await recordAccess(accessFor(ctx).db, ctx, {
    action: 'booking.eligibility',
    entityType: 'booking',
    ids: [id],
    details: { check: 'extension', allowed: eligibility.canExtend },
  });
  return eligibility;
}

export async function checkReduction(ctx: AppContext, id: number): Promise<ReductionEligibility> {
  const { db } = accessFor(ctx);
  const booking = await requireBooking(ctx, id, 'read');
  const { kits } = await loadKitsAndHolds(db, booking.kitType, {
    from: booking.startDate,
    to: booking.startDate,
  });
  const eligibility = reductionEligibility(booking, kits);
  await recordAccess(db, ctx, {
    action: 'booking.eligibility',
    entityType: 'booking',
    ids: [id],
    details: { check: 'reduction', allowed: eligibility.canReduce },
  });
  return eligibility;
}

/**
 * 2-day -> 3-day. The booking row is locked for the transaction and the decision re-made on
 * what is committed now; if another request takes the target kit first, the update fails on the
 * exclusion constraint and the decision is made again.
 */
export async function extendBooking(ctx: AppContext, id: number): Promise<BookingListItem> {
  const { db } = accessFor(ctx);
  const booking = await requireBooking(ctx, id, 'extend', { lock: true });
  await queueForKitType(db, booking.kitType);
  const dates = testDates(booking.startDate, '3-day');
  for (let attempt = 1; attempt <= EXTEND_ATTEMPTS; attempt++) {
    const eligibility = await decideExtension(ctx, booking);
    if (!eligibility.canExtend || eligibility.targetKitId === null) {
      throw conflict(eligibility.reason ?? messages.extension.failed.description);
    }
    const targetKitId = eligibility.targetKitId;
    try {
      await db.transaction(async (savepoint) => {
        await savepoint('bookings').where({ id }).update({
          test_type: '3-day',
          end_date: dates.endDate,
          return_date: dates.returnDate,
          kit_id: targetKitId,
          updated_at: db.fn.now(),
        });
      });
    } catch (error) {
      if (isKitHoldConflict(error)) continue;
      throw error;
    }
    return answerWithEvent(
      ctx,
      db,
      {
        bookingId: id,
        action: 'extended',
        fromStatus: booking.status,
        toStatus: booking.status,
        details: {
          fromTestType: '2-day',
          toTestType: '3-day',
          fromKitId: booking.kitId,
          toKitId: targetKitId,
          kitSwapped: eligibility.requiresKitSwap,
        },
      },
      { action: 'booking.extend', details: { kitSwapped: eligibility.requiresKitSwap } },
    );
  }
  throw conflict(messages.extension.noKitAvailable(booking.kitType));
}

/** 3-day -> 2-day: the same kit, held one day less. A shorter hold can never conflict. */
export async function reduceBooking(ctx: AppContext, id: number): Promise<BookingListItem> {
  const { db } = accessFor(ctx);
  const booking = await requireBooking(ctx, id, 'reduce', { lock: true });
  const { kits } = await loadKitsAndHolds(db, booking.kitType, {
    from: booking.startDate,
    to: booking.startDate,
  });
  const eligibility = reductionEligibility(booking, kits);
  if (!eligibility.canReduce) throw conflict(eligibility.message);
  const dates = testDates(booking.startDate, '2-day');
  await db('bookings').where({ id }).update({
    test_type: '2-day',
    end_date: dates.endDate,
    return_date: dates.returnDate,
    updated_at: db.fn.now(),
  });
  return answerWithEvent(
    ctx,
    db,
    {
      bookingId: id,
      action: 'reduced',
      fromStatus: booking.status,
      toStatus: booking.status,
      details: {
        fromTestType: '3-day',
        toTestType: '2-day',
        freedKitId: eligibility.kitToFree?.id ?? null,
      },
    },
    { action: 'booking.reduce' },
  );
}
