import { MAINTENANCE_DAYS, TEST_END_OFFSET_DAYS } from '../constants.js';
import { addDays, dayLabel, fromDayNumber, isIsoDate, toDayNumber } from '../dates/calendar.js';
import { testEndDate } from '../dates/testDates.js';
import type { KitType, TestType } from '../enums.js';
import { isHoldingStatus, isKitInService, KIT_TYPES } from '../enums.js';
import { isCleaningOverdue } from '../inventory.js';
import { messages } from '../messages.js';
import type { AvailabilityDay, Dropoff, Pickup } from '../schemas/availability.js';
import type { Booking, Kit } from '../schemas/booking.js';
import type { Patient } from '../schemas/patient.js';

// The availability engine. A booking in a holding status holds its kit from its start date
// through the maintenance day after its end date (DESIGN.md §2). Dates are compared as
// 'YYYY-MM-DD' strings, which order like the dates they name, and converted to day numbers only
// for bookings that touch the range asked about. A booking whose end date is before its start
// date is malformed and holds nothing.

/** What deciding about a kit reads of a booking: which kit it holds, in which status, for which dates. */
export type HoldingFields = Pick<Booking, 'id' | 'kitId' | 'status' | 'startDate' | 'endDate'>;

/** The fields of a kit dailyAvailability reads. */
export type DailyKit = Pick<Kit, 'id' | 'kitId' | 'type' | 'status'>;
/** The fields of a booking dailyAvailability reads. */
export type DailyBooking = Pick<
  Booking,
  'id' | 'patientId' | 'kitId' | 'testType' | 'kitType' | 'status' | 'startDate' | 'endDate' | 'returnDate'
>;

function assertDate(value: string): void {
  if (!isIsoDate(value)) throw new RangeError(messages.dates.invalidDate);
}

/**
 * Ids of the kits that bookings hold on any day of a new test's window [start, end + maintenance].
 * One pass over the bookings. `excludeBookingId` leaves one booking out (the one being changed).
 */
export function blockedKitIds(
  bookings: readonly HoldingFields[],
  startDate: string,
  testType: TestType,
  excludeBookingId?: number,
): Set<number> {
  const windowEnd = addDays(testEndDate(startDate, testType), MAINTENANCE_DAYS);
  // A held window [s, e + maintenance] reaches the new window's start when e >= start - maintenance.
  const endFloor = addDays(startDate, -MAINTENANCE_DAYS);
  const blocked = new Set<number>();
  for (const b of bookings) {
    if (
      b.kitId !== null &&
      b.startDate <= windowEnd &&
      b.endDate >= endFloor &&
      b.startDate <= b.endDate &&
      b.id !== excludeBookingId &&
      isHoldingStatus(b.status)
    ) {
      blocked.add(b.kitId);
    }
  }
  return blocked;
}

/**
 * True when no booking holds kit `kitId` on any day of a new test starting `startDate`, its
 * maintenance day included. The kit's own status is not known here: see availableKitsOfType.
 */
export function isKitFree(
  kitId: number,
  bookings: readonly HoldingFields[],
  startDate: string,
  testType: TestType,
): boolean {
  const windowEnd = addDays(testEndDate(startDate, testType), MAINTENANCE_DAYS);
  const endFloor = addDays(startDate, -MAINTENANCE_DAYS);
  for (const b of bookings) {
    if (
      b.kitId === kitId &&
      b.startDate <= windowEnd &&
      b.endDate >= endFloor &&
      b.startDate <= b.endDate &&
      isHoldingStatus(b.status)
    ) {
      return false;
    }
  }
  return true;
}

function byId(a: { id: number }, b: { id: number }): number {
  return a.id - b.id;
}

/** In-service kits of `kitType` that are free for a test starting `startDate`, sorted by id. */
export function availableKitsOfType(
  kitType: KitType,
  kits: Kit[],
  bookings: readonly HoldingFields[],
  startDate: string,
  testType: TestType,
): Kit[] {
  const blocked = blockedKitIds(bookings, startDate, testType);
  return kits.filter((k) => k.type === kitType && isKitInService(k) && !blocked.has(k.id)).sort(byId);
}

/** The kit types with at least one in-service kit free for a test starting `startDate`. */
export function availableKitTypes(
  kits: Kit[],
  bookings: readonly HoldingFields[],
  startDate: string,
  testType: TestType,
): KitType[] {
  const blocked = blockedKitIds(bookings, startDate, testType);
  const free = new Set<KitType>();
  for (const k of kits) {
    if (isKitInService(k) && !blocked.has(k.id)) free.add(k.type);
  }
  return KIT_TYPES.filter((t) => free.has(t));
}

/**
 * Counts, for each of `days` days from `fromDay`, how many of the indexed kits are blocked. A
 * booking blocks its kit on [start - leadDays, end + maintenance]: leadDays 0 gives the days a kit
 * is held; leadDays = a test's end offset + maintenance gives the days a new test cannot start on
 * that kit. Intervals are clipped to the range, sorted by (kit, start), merged per kit so a kit is
 * counted once a day, and added to a difference array: O(B log B + K + days) in all.
 */
class BlockedDaysSweep {
  // Each interval is packed as (kit index, clipped start, clipped end) in one number, so a native
  // typed-array sort orders by kit, then start. Exact while kits * days^2 < 2^53 (checked).
  private readonly keys: Float64Array;
  private count = 0;
  private readonly lastDay: number;
  private readonly startCeiling: string;
  private readonly endFloor: string;

  constructor(
    private readonly kitIndex: ReadonlyMap<number, number>,
    capacity: number,
    private readonly fromDay: number,
    private readonly days: number,
    private readonly leadDays: number,
  ) {
    if (kitIndex.size * days * days >= Number.MAX_SAFE_INTEGER) throw new RangeError('Date range too long');
    this.keys = new Float64Array(days > 0 && kitIndex.size > 0 ? capacity : 0);
    this.lastDay = fromDay + days - 1;
    this.startCeiling = fromDayNumber(this.lastDay + leadDays);
    this.endFloor = fromDayNumber(fromDay - MAINTENANCE_DAYS);
  }

  add(b: HoldingFields): void {
    if (
      this.keys.length === 0 ||
      b.kitId === null ||
      b.startDate > this.startCeiling ||
      b.endDate < this.endFloor ||
      b.startDate > b.endDate ||
      !isHoldingStatus(b.status)
    ) {
      return;
    }
    this.block(b.kitId, toDayNumber(b.startDate) - this.leadDays, toDayNumber(b.endDate) + MAINTENANCE_DAYS);
  }

  /** Blocks an indexed kit on the day numbers [first, last], clipped to the range. */
  block(kitId: number, first: number, last: number): void {
    if (this.count >= this.keys.length) return;
    const kit = this.kitIndex.get(kitId);
    if (kit === undefined) return;
    const start = Math.max(first, this.fromDay) - this.fromDay;
    const end = Math.min(last, this.lastDay) - this.fromDay;
    if (start > end) return;
    this.keys[this.count++] = (kit * this.days + start) * this.days + end;
  }

  counts(): Int32Array {
    const days = this.days;
    const diff = new Int32Array(days + 1);
    let kit = -1;
    let runStart = 0;
    let runEnd = -1;
    for (const key of this.keys.subarray(0, this.count).sort()) {
      const end = key % days;
      const rest = (key - end) / days;
      const start = rest % days;
      const k = (rest - start) / days;
      if (k === kit && start <= runEnd + 1) {
        if (end > runEnd) runEnd = end;
        continue;
      }
      if (kit !== -1) {
        diff[runStart]++;
        diff[runEnd + 1]--;
      }
      kit = k;
      runStart = start;
      runEnd = end;
    }
    if (kit !== -1) {
      diff[runStart]++;
      diff[runEnd + 1]--;
    }
    const counts = new Int32Array(days);
    let running = 0;
    for (let d = 0; d < days; d++) {
      running += diff[d];
      counts[d] = running;
    }
    return counts;
  }
}

/**
 * The last day number a kit waiting for cleaning cannot take a new test (isKitReadyFor): its due
 * day or today, whichever is later; `rangeEnd` (the whole range) once the cleaning is overdue.
 */
function cleaningBlockedThrough(dueOn: string | null | undefined, today: string, rangeEnd: number): number {
  const due = dueOn ?? today;
  if (isCleaningOverdue(due, today)) return rangeEnd;
  return toDayNumber(due > today ? due : today);
}

/** Map of kit id -> dense index over the in-service kits that pass `include`. */
function indexKits<K extends Pick<Kit, 'id' | 'status'>>(
  kits: readonly K[],
  include: (k: K) => boolean,
): Map<number, number> {
  const index = new Map<number, number>();
  for (const k of kits) {
    if (include(k) && isKitInService(k) && !index.has(k.id)) index.set(k.id, index.size);
  }
  return index;
}

function dayCount(days: number): number {
  return Number.isFinite(days) && days > 0 ? Math.floor(days) : 0;
}

/**
 * One entry per date from `range.from` for `range.days` days: its label against `range.today`,
 * the in-service kits no booking holds that day, the tests starting that day (pickups) and the
 * kits coming back that day (drop-offs). Cancelled bookings are neither picked up nor returned.
 * Kits are identified by unique ids.
 */
export function dailyAvailability(
  data: {
    kits: readonly DailyKit[];
    bookings: readonly DailyBooking[];
    patients: readonly Pick<Patient, 'id' | 'name'>[];
    /**
     * Optional: the cleaning gate. Kit id -> cleaning due date of each kit waiting for its
     * cleaning (status 'cleaning'). When given, such a kit is no available unit on the days
     * isKitReadyFor refuses it: through its due day (and today), or every day once overdue.
     */
    cleaningDueOn?: ReadonlyMap<number, string | null>;
  },
  range: { from: string; days: number; today: string },
): AvailabilityDay[] {
  assertDate(range.from);
  assertDate(range.today);
  const days = dayCount(range.days);
  const fromDay = toDayNumber(range.from);
  const { kits, bookings, cleaningDueOn } = data;

  const kitIndex = indexKits(kits, () => true);
  const waiting = cleaningDueOn ? kits.filter((k) => k.status === 'cleaning') : [];
  const held = new BlockedDaysSweep(kitIndex, bookings.length + waiting.length, fromDay, days, 0);
  if (days > 0) {
    const lastDay = fromDay + days - 1;
    for (const kit of waiting) {
      held.block(kit.id, fromDay, cleaningBlockedThrough(cleaningDueOn?.get(kit.id), range.today, lastDay));
    }
  }

  const lastDate = fromDayNumber(fromDay + days - 1);
  const pickups: Pickup[][] = Array.from({ length: days }, () => []);
  const dropoffs: Dropoff[][] = Array.from({ length: days }, () => []);
  let names: Map<number, string> | undefined;
  let labels: Map<number, string> | undefined;
  const patientName = (id: number): string => {
    names ??= new Map(data.patients.map((p) => [p.id, p.name]));
    return names.get(id) ?? messages.labels.unknownPatient;
  };
  const kitLabel = (id: number | null): string => {
    labels ??= new Map(kits.map((k) => [k.id, k.kitId]));
    return (id !== null && labels.get(id)) || messages.labels.unknownKit;
  };

  // One pass over the bookings: holds for the sweep, pickups and drop-offs for their days.
  if (days > 0) {
    for (const b of bookings) {
      held.add(b);
      if (b.status === 'cancelled') continue;
      if (b.startDate >= range.from && b.startDate <= lastDate) {
        // Optional chaining: a malformed date string must not take the whole dashboard down.
        pickups[toDayNumber(b.startDate) - fromDay]?.push({
          id: b.id,
          patientId: b.patientId,
          patientName: patientName(b.patientId),
          testType: b.testType,
          kitType: b.kitType,
          kitId: kitLabel(b.kitId),
          status: b.status,
        });
      }
      if (b.returnDate >= range.from && b.returnDate <= lastDate) {
        dropoffs[toDayNumber(b.returnDate) - fromDay]?.push({
          id: b.id,
          patientId: b.patientId,
          patientName: patientName(b.patientId),
          kitType: b.kitType,
          kitId: kitLabel(b.kitId),
        });
      }
    }
  }
  const heldCounts = held.counts();

  const result: AvailabilityDay[] = [];
  for (let d = 0; d < days; d++) {
    const date = fromDayNumber(fromDay + d);
    result.push({
      date,
      label: dayLabel(date, range.today),
      availableUnits: kitIndex.size - heldCounts[d],
      pickups: pickups[d].sort(byId),
      dropoffs: dropoffs[d].sort(byId),
    });
  }
  return result;
}

/**
 * For each of `range.days` start dates from `range.from`: how many in-service kits of `kitType`
 * are free for a `testType` test starting that day. Drives the booking calendar's green (free),
 * amber (limited) and unavailable dates. Same sweep as dailyAvailability.
 */
export function kitTypeAvailabilityByDate(
  kitType: KitType,
  kits: Kit[],
  bookings: readonly HoldingFields[],
  range: { from: string; days: number },
  testType: TestType,
): { date: string; available: number }[] {
  assertDate(range.from);
  const days = dayCount(range.days);
  const fromDay = toDayNumber(range.from);
  const kitIndex = indexKits(kits, (k) => k.type === kitType);
  const leadDays = TEST_END_OFFSET_DAYS[testType] + MAINTENANCE_DAYS;
  const sweep = new BlockedDaysSweep(kitIndex, bookings.length, fromDay, days, leadDays);
  for (const b of bookings) sweep.add(b);
  const blocked = sweep.counts();
  return Array.from({ length: days }, (_, d) => ({
    date: fromDayNumber(fromDay + d),
    available: kitIndex.size - blocked[d],
  }));
}
