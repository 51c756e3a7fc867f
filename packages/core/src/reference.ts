import { MAINTENANCE_DAYS, TEST_END_OFFSET_DAYS } from './constants.js';
import { addDays, dayLabel } from './dates/calendar.js';
import type { KitType, TestType } from './enums.js';
import { HOLDING_STATUSES, OUT_OF_SERVICE_KIT_STATUSES } from './enums.js';
import { messages } from './messages.js';
import type { AvailabilityDay } from './schemas/availability.js';
import type { Booking, Kit } from './schemas/booking.js';
import type { Patient } from './schemas/patient.js';

// Deliberately naive reference implementations of the availability engine: the rules written
// out as plainly as possible, looping days × kits × bookings. Property tests check the fast
// engine against them and the benchmark measures the speed-up. Cost: O(days × kits × bookings),
// so at 1,000 kits × 500,000 bookings × 60 days they make about 3·10^10 checks (minutes).
// Each booking's last held day is computed once up front so the inner loop is plain
// comparisons; that keeps the reference runnable without changing its complexity.
// Never use these in the product.

function inService(kit: Kit): boolean {
  return !(OUT_OF_SERVICE_KIT_STATUSES as readonly string[]).includes(kit.status ?? 'available');
}

/** Each booking with the last date it holds its kit, or null when it holds nothing. */
function heldUntil(bookings: Booking[]): { booking: Booking; lastHeld: string | null }[] {
  return bookings.map((booking) => ({
    booking,
    lastHeld:
      (HOLDING_STATUSES as readonly string[]).includes(booking.status) && booking.startDate <= booking.endDate
        ? addDays(booking.endDate, MAINTENANCE_DAYS)
        : null,
  }));
}

export function naiveDailyAvailability(
  data: { kits: Kit[]; bookings: Booking[]; patients: Patient[] },
  range: { from: string; days: number; today: string },
): AvailabilityDay[] {
  const held = heldUntil(data.bookings);
  const names = new Map(data.patients.map((p) => [p.id, p.name]));
  const labels = new Map(data.kits.map((k) => [k.id, k.kitId]));
  const nameOf = (patientId: number): string => names.get(patientId) ?? messages.labels.unknownPatient;
  const labelOf = (kitId: number | null): string =>
    (kitId !== null && labels.get(kitId)) || messages.labels.unknownKit;

  const result: AvailabilityDay[] = [];
  for (let d = 0; d < range.days; d++) {
    const date = addDays(range.from, d);
    let availableUnits = 0;
    for (const kit of data.kits) {
      if (!inService(kit)) continue;
      let isHeld = false;
      for (const { booking, lastHeld } of held) {
        if (booking.kitId === kit.id && lastHeld !== null && booking.startDate <= date && date <= lastHeld) {
          isHeld = true;
        }
      }
      if (!isHeld) availableUnits++;
    }
    const live = data.bookings.filter((b) => b.status !== 'cancelled');
    result.push({
      date,
      label: dayLabel(date, range.today),
      availableUnits,
      pickups: live
        .filter((b) => b.startDate === date)
        .sort((a, b) => a.id - b.id)
        .map((b) => ({
          id: b.id,
          patientId: b.patientId,
          patientName: nameOf(b.patientId),
          testType: b.testType,
          kitType: b.kitType,
          kitId: labelOf(b.kitId),
          status: b.status,
        })),
      dropoffs: live
        .filter((b) => b.returnDate === date)
        .sort((a, b) => a.id - b.id)
        .map((b) => ({
          id: b.id,
          patientId: b.patientId,
          patientName: nameOf(b.patientId),
          kitType: b.kitType,
          kitId: labelOf(b.kitId),
        })),
    });
  }
  return result;
}

export function naiveAvailableKitsOfType(
  kitType: KitType,
  kits: Kit[],
  bookings: Booking[],
  startDate: string,
  testType: TestType,
): Kit[] {
  const held = heldUntil(bookings);
  const newDays: string[] = [];
  for (let d = 0; d <= TEST_END_OFFSET_DAYS[testType] + MAINTENANCE_DAYS; d++)
    newDays.push(addDays(startDate, d));
  const free: Kit[] = [];
  for (const kit of kits) {
    if (kit.type !== kitType || !inService(kit)) continue;
    let clash = false;
    for (const { booking, lastHeld } of held) {
      for (const date of newDays) {
        if (booking.kitId === kit.id && lastHeld !== null && booking.startDate <= date && date <= lastHeld) {
          clash = true;
        }
      }
    }
    if (!clash) free.push(kit);
  }
  return free.sort((a, b) => a.id - b.id);
}
