import {
  DEFAULT_PRACTICE_TIME_ZONE,
  formatDate as formatCalendarDate,
  isIsoDate,
  todayInTimeZone,
} from '@wellrest/core';

/*
 * The console's one date and time formatter. Every date reads as the tables show it
 * ("Dec 16, 2026"); every time of day is shown in the practice's time zone, and says so ("EST")
 * whenever the viewer's own zone is a different one. "Today" is the practice's today everywhere.
 */

let practiceZone: string = DEFAULT_PRACTICE_TIME_ZONE;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Sets the practice's zone (the signed-in layout does, from the session). Unknown zones are ignored. */
export function setPracticeTimeZone(zone: string | null | undefined): void {
  if (zone && zone !== practiceZone && isTimeZone(zone)) practiceZone = zone;
}

export function practiceTimeZone(): string {
  return practiceZone;
}

/** The viewer's own zone, as the browser reports it. */
function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The offset of a zone at an instant, in minutes: two zone names may be the same clock. */
function offsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return Math.round((asUtc - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

/** True when the viewer's clock differs from the practice's at that instant: times then name their zone. */
export function viewerZoneDiffers(at: Date = new Date()): boolean {
  const viewer = viewerTimeZone();
  return viewer !== practiceZone && offsetMinutes(viewer, at) !== offsetMinutes(practiceZone, at);
}

/** The practice zone's short name at an instant: "EST", "EDT", "GMT+1". */
export function practiceZoneAbbreviation(at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: practiceZone,
    timeZoneName: 'short',
  }).formatToParts(at);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? practiceZone;
}

function toInstant(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const EMPTY = '—';

/** The practice's calendar date today, 'YYYY-MM-DD'. */
export function practiceToday(now: Date = new Date()): string {
  return todayInTimeZone(practiceZone, now);
}

/**
 * A date as tables show it: "Dec 16, 2026". A calendar date ('2026-12-16') is read as written; an
 * instant (a timestamp) is the practice's date at that instant.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (typeof value === 'string' && isIsoDate(value.trim())) return formatCalendarDate(value.trim());
  if (typeof value === 'string') return formatCalendarDate(toInstant(value), practiceZone);
  return formatCalendarDate(value, practiceZone);
}

function zoneSuffix(at: Date): string {
  return viewerZoneDiffers(at) ? ` ${practiceZoneAbbreviation(at)}` : '';
}

/** A time of day in the practice's zone: "3:05 PM", or "3:05 PM EST" when the viewer's zone differs. */
export function formatTime(value: string | number | Date | null | undefined, withSeconds = false): string {
  const at = toInstant(value);
  if (!at) return EMPTY;
  const time = new Intl.DateTimeFormat('en-US', {
    timeZone: practiceZone,
    hour: 'numeric',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
  }).format(at);
  return `${time}${zoneSuffix(at)}`;
}

/** A date and time: "Dec 16, 2026, 3:05 PM" (plus the zone when the viewer's differs); "—" when missing. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const at = toInstant(value);
  if (!at) return EMPTY;
  return `${formatCalendarDate(at, practiceZone)}, ${formatTime(at)}`;
}

/** Calendar dates inside free text (search subtitles from the server) rewritten as tables show them. */
export function formatDatesInText(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, (match) =>
    formatDate(match),
  );
}
