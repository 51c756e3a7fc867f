import {
  addDays,
  availableKitsOfType,
  type Booking,
  dayOfWeek,
  isValidStartDate,
  KIT_TYPES,
  type Kit,
  type KitType,
  kitTypeAvailabilityByDate,
  type TestType,
} from '@wellrest/core';

/** How a start date is shown in the booking calendar. */
export type DayAvailability = 'available' | 'limited' | 'unavailable';

/** Green from two free kits, amber with exactly one, plain with none. */
export function availabilityLevel(freeKits: number): DayAvailability {
  if (freeKits >= 2) return 'available';
  if (freeKits === 1) return 'limited';
  return 'unavailable';
}

/** A start date the picker lets the user choose: today or later, and a valid start day for the test. */
export function isSelectableStartDate(date: string, today: string, testType: TestType): boolean {
  return date >= today && isValidStartDate(date, testType);
}

/** The first day of the month a date is in ('2025-11-24' -> '2025-11-01'). */
export function monthOf(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The first day of the month `offset` months after the month of `month`. */
export function shiftMonth(month: string, offset: number): string {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7)) - 1 + offset;
  const y = year + Math.floor(index / 12);
  const m = ((index % 12) + 12) % 12;
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * The weeks of a month as the calendar draws them, Sunday first: each week has seven cells,
 * `null` for the days before the first and after the last of the month.
 */
export function monthWeeks(month: string): (string | null)[][] {
  const first = monthOf(month);
  const next = shiftMonth(first, 1);
  const cells: (string | null)[] = Array.from({ length: dayOfWeek(first) }, () => null);
  for (let day = first; day < next; day = addDays(day, 1)) cells.push(day);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/**
 * Free kits for a test starting on each day of the month: of the chosen kit type, or of any
 * type when none is chosen yet.
 */
export function freeKitsByDate(
  month: string,
  kits: Kit[],
  bookings: Booking[],
  testType: TestType,
  kitType: KitType | null,
): Map<string, number> {
  const from = monthOf(month);
  const days = 31;
  const types = kitType ? [kitType] : KIT_TYPES;
  const totals = new Map<string, number>();
  for (const type of types) {
    for (const { date, available } of kitTypeAvailabilityByDate(
      type,
      kits,
      bookings,
      { from, days },
      testType,
    )) {
      totals.set(date, (totals.get(date) ?? 0) + available);
    }
  }
  return totals;
}

/** Free kits of each type for a test starting on `startDate`; zero for every type without a date. */
export function freeKitsPerType(
  kits: Kit[],
  bookings: Booking[],
  startDate: string | null,
  testType: TestType,
): Record<KitType, number> {
  const counts = {} as Record<KitType, number>;
  for (const type of KIT_TYPES) {
    counts[type] = startDate ? availableKitsOfType(type, kits, bookings, startDate, testType).length : 0;
  }
  return counts;
}

/** The kit types with at least one free kit, in catalogue order. */
export function availableTypes(counts: Record<KitType, number>): KitType[] {
  return KIT_TYPES.filter((type) => counts[type] > 0);
}
