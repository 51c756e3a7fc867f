import { Cron } from 'croner';
import type { PracticeCalendar } from '../clinical/sla.js';
import { zonedInstant } from '../clinical/sla.js';
import { addDays, dayOfWeek, todayInTimeZone } from '../dates/calendar.js';
import type { WorkflowWait } from './graph.js';
import { workflowMessages as m } from './messages.js';
import { PICKUP_TIME } from './triggers.js';

// Time in workflows: schedules (five-field cron in the practice time zone), waits (a duration, or
// until a time of day on a business day), and the time-based triggers' business-day counting.

const MINUTE_MS = 60_000;

/** The problem with a cron expression, or null when it is a valid five-field schedule. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (expression.trim() === '' || fields.length !== 5)
    return m.validation.badCron('use five fields: minute hour day-of-month month day-of-week');
  try {
    new Cron(expression, { paused: true });
    return null;
  } catch (error) {
    return m.validation.badCron(
      error instanceof Error ? error.message.replace(/^CronPattern: /, '') : 'invalid',
    );
  }
}

/** The instants a schedule fires in (afterMs, untilMs], in the practice time zone (at most `limit`). */
export function cronFireTimes(
  expression: string,
  timeZone: string,
  afterMs: number,
  untilMs: number,
  limit = 100,
): Date[] {
  const cron = new Cron(expression, { paused: true, timezone: timeZone });
  const out: Date[] = [];
  let cursor = new Date(afterMs);
  while (out.length < limit) {
    const next = cron.nextRun(cursor);
    if (!next || next.getTime() > untilMs) break;
    out.push(next);
    cursor = next;
  }
  return out;
}

function minutesOf(hhmm: string): number {
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + mi;
}

export function isBusinessDate(date: string, calendar: PracticeCalendar): boolean {
  return calendar.workDays.includes(dayOfWeek(date)) && !calendar.holidays.includes(date);
}

/** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
export function businessDaysBetween(from: string, to: string, calendar: PracticeCalendar): number {
  let count = 0;
  for (let date = addDays(from, 1); date <= to; date = addDays(date, 1)) {
    if (isBusinessDate(date, calendar)) count++;
    if (count > 3660) break;
  }
  return count;
}

/** When a wait that starts at `nowMs` ends. */
export function waitEnd(wait: WorkflowWait, nowMs: number, calendar: PracticeCalendar): Date {
  if (wait.mode === 'duration')
    return new Date(nowMs + ((wait.days * 24 + wait.hours) * 60 + wait.minutes) * MINUTE_MS);
  const minutes = minutesOf(wait.time);
  const today = todayInTimeZone(calendar.timeZone, new Date(nowMs));
  let date = today;
  let skipped = 0;
  for (let i = 0; i < 3660; i++, date = addDays(date, 1)) {
    if (!isBusinessDate(date, calendar)) continue;
    const at = zonedInstant(date, minutes, calendar.timeZone);
    // 0 business days: the next such time from now; k: that time on the k-th business day after today.
    if (wait.businessDays === 0 ? at > nowMs : date > today && ++skipped === wait.businessDays)
      return new Date(at);
  }
  return new Date(nowMs);
}

/** The problem with a wait, or null. */
export function waitProblem(wait: WorkflowWait): string | null {
  if (wait.mode === 'duration') {
    const minutes = (wait.days * 24 + wait.hours) * 60 + wait.minutes;
    return minutes < 1 || minutes > 30 * 24 * 60 ? m.validation.waitRange : null;
  }
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(wait.time) ? null : m.validation.timeInvalid;
}

/** The instant a booking's kit is picked up: its start date at PICKUP_TIME, practice time. */
export function pickupInstant(startDate: string, timeZone: string): Date {
  return new Date(zonedInstant(startDate, minutesOf(PICKUP_TIME), timeZone));
}
