import { MAINTENANCE_DAYS, TEST_END_OFFSET_DAYS } from '../constants.js';
import type { TestType } from '../enums.js';
import { addDays, dayOfWeek, isIsoDate, isWeekend } from './calendar.js';

const MONDAY = 1;
const TUESDAY = 2;
const WEDNESDAY = 3;
const THURSDAY = 4;
const FRIDAY = 5;

/** The last night of the test: 1 day after the start for a 2-day test, 2 days after for a 3-day test. */
export function testEndDate(startDate: string, testType: TestType): string {
  return addDays(startDate, TEST_END_OFFSET_DAYS[testType]);
}

/**
 * The day the kit comes back: the day after the end date, moved off the weekend. A Friday,
 * Saturday or Sunday result becomes the following Monday (spec §9).
 */
export function returnDateFor(endDate: string): string {
  const candidate = addDays(endDate, 1);
  const day = dayOfWeek(candidate);
  if (day === FRIDAY) return addDays(candidate, 3);
  if (day === 6) return addDays(candidate, 2);
  if (day === 0) return addDays(candidate, 1);
  return candidate;
}

/** Start, end and return dates of a test. Throws a RangeError when the start date is not a date. */
export function testDates(
  startDate: string,
  testType: TestType,
): { startDate: string; endDate: string; returnDate: string } {
  const endDate = testEndDate(startDate, testType);
  return { startDate, endDate, returnDate: returnDateFor(endDate) };
}

/**
 * Spec §5, implemented literally: tests start Monday to Thursday; Wednesday and Thursday are
 * always valid; Monday and Tuesday only when the computed return date is not a weekend.
 */
export function isValidStartDate(startDate: string, testType: TestType): boolean {
  if (!isIsoDate(startDate)) return false;
  const day = dayOfWeek(startDate);
  if (day === WEDNESDAY || day === THURSDAY) return true;
  if (day === MONDAY || day === TUESDAY) return !isWeekend(testDates(startDate, testType).returnDate);
  return false;
}

/**
 * The dates a booking keeps its kit: from the start date through the maintenance day after the
 * end date, both inclusive. Only bookings in a holding status hold anything (see isHoldingStatus).
 */
export function heldWindow(b: { startDate: string; endDate: string }): { from: string; to: string } {
  return { from: b.startDate, to: addDays(b.endDate, MAINTENANCE_DAYS) };
}
