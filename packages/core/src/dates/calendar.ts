import { messages } from '../messages.js';

// Calendar dates are plain 'YYYY-MM-DD' strings. Arithmetic happens on UTC day numbers
// (days since 1970-01-01), so no result depends on the time zone of the process.

const MS_PER_DAY = 86_400_000;
const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const WEEKDAYS_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS_SHORT = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** True when `value` is a 'YYYY-MM-DD' string naming a real calendar date. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE_PATTERN.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= monthDays;
}

function assertIsoDate(value: string): void {
  if (!isIsoDate(value)) throw new RangeError(messages.dates.invalidDate);
}

const ZERO = 48;
function digits(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (value.charCodeAt(i) - ZERO);
  return n;
}

/**
 * Day number (days since 1970-01-01, UTC) of a date already known to be valid. No validation:
 * this is the hot path of the availability sweep, which reads dates the schemas have checked.
 * Integer civil-calendar arithmetic rather than Date.UTC, which misreads years 0-99.
 */
export function toDayNumber(date: string): number {
  const month = digits(date, 5, 7);
  const year = digits(date, 0, 4) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + digits(date, 8, 10) - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The 'YYYY-MM-DD' date of a day number. */
export function fromDayNumber(dayNumber: number): string {
  const d = new Date(dayNumber * MS_PER_DAY);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** The date `days` calendar days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  assertIsoDate(date);
  return fromDayNumber(toDayNumber(date) + days);
}

/** Day of the week, 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  assertIsoDate(date);
  return new Date(toDayNumber(date) * MS_PER_DAY).getUTCDay();
}

export function isWeekend(date: string): boolean {
  const day = dayOfWeek(date);
  return day === 0 || day === 6;
}

/** -1, 0 or 1 as `a` is before, the same as, or after `b`: usable as a sort comparator. */
export function compareDates(a: string, b: string): -1 | 0 | 1 {
  assertIsoDate(a);
  assertIsoDate(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: string, b: string): number {
  assertIsoDate(a);
  assertIsoDate(b);
  return toDayNumber(b) - toDayNumber(a);
}

// Building an Intl.DateTimeFormat is costly; keep one per zone.
const dateFormatters = new Map<string, Intl.DateTimeFormat>();
function dateFormatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = dateFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date it is now in `timeZone` (an IANA name such as 'America/New_York'). */
export function todayInTimeZone(timeZone: string, now: Date = new Date()): string {
  const parts = dateFormatterFor(timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** 'Mon, Nov 23' style: weekday, month and day of a date. */
export function shortDayText(date: string): string {
  assertIsoDate(date);
  const d = new Date(toDayNumber(date) * MS_PER_DAY);
  return `${WEEKDAYS_SHORT[d.getUTCDay()]}, ${MONTHS_SHORT[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** 'Today', 'Tomorrow', or 'Mon, Nov 23' for any other date. */
export function dayLabel(date: string, today: string): string {
  const offset = daysBetween(today, date);
  if (offset === 0) return messages.dates.today;
  if (offset === 1) return messages.dates.tomorrow;
  return shortDayText(date);
}

/**
 * The calendar date a value names, or null. Strings are read as written: 'YYYY-MM-DD', or the
 * date part of an ISO date-time ('2025-11-23T10:00:00Z' is Nov 23). Date objects are read in
 * `timeZone`.
 */
function calendarDateOf(value: unknown, timeZone: string): string | null {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : todayInTimeZone(timeZone, value);
  }
  if (typeof value !== 'string') return null;
  const datePart = value.trim().slice(0, 10);
  if (!isIsoDate(datePart)) return null;
  if (value.trim().length > 10 && Number.isNaN(Date.parse(value))) return null;
  return datePart;
}

/** 'Nov 23, 2025', or 'Invalid date' when the value is missing or not a date. */
export function formatDate(value: string | Date | null | undefined, timeZone = 'UTC'): string {
  const date = calendarDateOf(value, timeZone);
  if (date === null) return messages.dates.invalidDate;
  const d = new Date(toDayNumber(date) * MS_PER_DAY);
  return `${MONTHS_SHORT[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** Like formatDate, but a missing return date reads 'No return date'. */
export function formatReturnDate(value: string | Date | null | undefined, timeZone = 'UTC'): string {
  if (value == null || value === '') return messages.dates.noReturnDate;
  return formatDate(value, timeZone);
}

/** A test period for dialogs: 'Nov 23, 2025 – Nov 24, 2025'. */
export function formatDateRange(start: string | null | undefined, end: string | null | undefined): string {
  return `${formatDate(start)} – ${formatDate(end)}`;
}
