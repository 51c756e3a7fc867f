import { z } from 'zod';
import { addDays, dayOfWeek, todayInTimeZone } from '../dates/calendar.js';
import { REFERRAL_URGENCIES, type ReferralUrgency } from '../public.js';
import { IsoDate } from '../schemas/common.js';
import { clinicalMessages as m } from './messages.js';
import {
  REFERRAL_STAGES,
  type ReferralStage,
  type ReferralStatus,
  ReferralStage as StageSchema,
} from './model.js';

// SLA clocks: how long a referral took (or has taken so far) between two stages, against a target
// counted on the wall clock or only in the practice's business hours (its time zone, week days,
// opening hours and holidays). Pure: the caller passes the clock's "now".

export const SLA_STATES = ['on_track', 'at_risk', 'breached', 'met', 'missed'] as const;
export type SlaState = (typeof SLA_STATES)[number];

/** At or past this share of the target an open clock is at risk. */
export const SLA_AT_RISK_SHARE = 0.8;

export const SlaDefinitionInput = z
  .object({
    name: z
      .string({ error: m.slaNameRequired })
      .trim()
      .min(1, { error: m.slaNameRequired })
      .max(120, { error: m.tooLong(120) }),
    fromStage: StageSchema,
    toStage: StageSchema,
    targetHours: z
      .number({ error: m.targetPositive })
      .positive({ error: m.targetPositive })
      .max(24 * 365, { error: m.targetPositive }),
    businessHours: z.boolean().default(true),
    /** Empty: every urgency. */
    urgencies: z.array(z.enum(REFERRAL_URGENCIES)).max(3).default([]),
    active: z.boolean().default(true),
  })
  .superRefine((input, ctx) => {
    if (REFERRAL_STAGES.indexOf(input.toStage) <= REFERRAL_STAGES.indexOf(input.fromStage)) {
      ctx.addIssue({ code: 'custom', path: ['toStage'], message: m.stageOrder });
    }
  });
export type SlaDefinitionInput = z.infer<typeof SlaDefinitionInput>;

export interface SlaDefinition extends SlaDefinitionInput {
  id: number;
}

/** The practice's working week: opening hours on the given week days, in its time zone, minus holidays. */
export interface PracticeCalendar {
  timeZone: string;
  /** 0 = Sunday … 6 = Saturday. */
  workDays: readonly number[];
  /** 'HH:MM', local time. */
  open: string;
  close: string;
  /** 'YYYY-MM-DD' dates the practice is closed. */
  holidays: readonly string[];
}

export const DEFAULT_PRACTICE_CALENDAR: Omit<PracticeCalendar, 'timeZone'> = {
  workDays: [1, 2, 3, 4, 5],
  open: '08:00',
  close: '17:00',
  holidays: [],
};

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const PracticeCalendarInput = z
  .object({
    workDays: z.array(z.number().int().min(0).max(6)).max(7),
    open: z.string().regex(HHMM, { error: m.calendarInvalid }),
    close: z.string().regex(HHMM, { error: m.calendarInvalid }),
    holidays: z.array(IsoDate).max(366),
  })
  .superRefine((input, ctx) => {
    if (input.close <= input.open)
      ctx.addIssue({ code: 'custom', path: ['close'], message: m.calendarInvalid });
  });

const HOUR_MS = 3_600_000;
const MAX_DAYS_SCANNED = 3 * 366;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at `epochMs`, in ms (e.g. -5 h in New York in winter). */
function zoneOffset(epochMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    parts.year as number,
    (parts.month as number) - 1,
    parts.day as number,
    parts.hour as number,
    parts.minute as number,
    parts.second as number,
  );
  return asUtc - (epochMs - (epochMs % 1000));
}

/** The instant of a local wall-clock time on `date` in `timeZone` (a time skipped by DST moves forward). */
export function zonedInstant(date: string, minutes: number, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, mo - 1, d, 0, minutes);
  const first = wall - zoneOffset(wall, timeZone);
  const second = wall - zoneOffset(first, timeZone);
  return second;
}

function minutesOf(hhmm: string): number {
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + mi;
}

function isBusinessDay(date: string, calendar: PracticeCalendar): boolean {
  return calendar.workDays.includes(dayOfWeek(date)) && !calendar.holidays.includes(date);
}

/** The business-hours window of `date`, or null on a closed day. */
function windowOf(date: string, calendar: PracticeCalendar): [number, number] | null {
  if (!isBusinessDay(date, calendar)) return null;
  const open = zonedInstant(date, minutesOf(calendar.open), calendar.timeZone);
  const close = zonedInstant(date, minutesOf(calendar.close), calendar.timeZone);
  return close > open ? [open, close] : null;
}

/** Milliseconds of business time between two instants. */
export function businessMsBetween(startMs: number, endMs: number, calendar: PracticeCalendar): number {
  if (endMs <= startMs) return 0;
  let total = 0;
  let date = todayInTimeZone(calendar.timeZone, new Date(startMs));
  const last = todayInTimeZone(calendar.timeZone, new Date(endMs));
  for (let i = 0; i <= MAX_DAYS_SCANNED * 4 && date <= last; i++) {
    const window = windowOf(date, calendar);
    if (window) total += Math.max(0, Math.min(endMs, window[1]) - Math.max(startMs, window[0]));
    date = addDays(date, 1);
  }
  return total;
}

/** The instant `ms` of business time after `startMs` (the end of the window that completes it). */
export function addBusinessMs(startMs: number, ms: number, calendar: PracticeCalendar): number | null {
  let remaining = ms;
  let date = todayInTimeZone(calendar.timeZone, new Date(startMs));
  for (let i = 0; i < MAX_DAYS_SCANNED; i++) {
    const window = windowOf(date, calendar);
    if (window) {
      const from = Math.max(startMs, window[0]);
      if (window[1] > from) {
        const available = window[1] - from;
        if (remaining <= available) return from + remaining;
        remaining -= available;
      }
    }
    date = addDays(date, 1);
  }
  return null;
}

/** A referral as its clocks see it: urgency, status, and when it first reached each stage. */
export interface ReferralClock {
  urgency: ReferralUrgency;
  status: ReferralStatus;
  /** ISO instants; a stage not reached is absent. */
  stageTimes: Partial<Record<ReferralStage, string>>;
}

export interface SlaResult {
  definitionId: number;
  name: string;
  started: string;
  /** When the target falls due; null when it lies beyond what the calendar can reach. */
  due: string | null;
  completedAt: string | null;
  elapsedHours: number;
  targetHours: number;
  state: SlaState;
}

/**
 * When a stage was reached: the earliest time the referral reached it or any later stage (a
 * referral booked straight from received counts as contacted when it was scheduled).
 */
export function stageReachedAt(clock: ReferralClock, stage: ReferralStage): number | null {
  let earliest: number | null = null;
  for (const later of REFERRAL_STAGES.slice(REFERRAL_STAGES.indexOf(stage))) {
    const at = clock.stageTimes[later];
    if (at === undefined) continue;
    const ms = Date.parse(at);
    if (!Number.isNaN(ms) && (earliest === null || ms < earliest)) earliest = ms;
  }
  return earliest;
}

/**
 * The state of one definition's clock for one referral at `now`; null when it does not apply:
 * inactive, another urgency, not started, or the referral left the pathway before the end stage.
 */
export function computeSla(
  definition: SlaDefinition,
  clock: ReferralClock,
  calendar: PracticeCalendar,
  now: Date,
): SlaResult | null {
  if (!definition.active) return null;
  if (definition.urgencies.length > 0 && !definition.urgencies.includes(clock.urgency)) return null;
  const started = stageReachedAt(clock, definition.fromStage);
  if (started === null) return null;
  const completed = stageReachedAt(clock, definition.toStage);
  if (completed === null && (clock.status === 'declined' || clock.status === 'cancelled')) return null;
  const end = completed ?? now.getTime();
  const targetMs = definition.targetHours * HOUR_MS;
  const elapsedMs = definition.businessHours
    ? businessMsBetween(started, end, calendar)
    : Math.max(0, end - started);
  const due = definition.businessHours ? addBusinessMs(started, targetMs, calendar) : started + targetMs;
  let state: SlaState;
  if (completed !== null) state = elapsedMs <= targetMs ? 'met' : 'missed';
  else if (elapsedMs > targetMs) state = 'breached';
  else if (elapsedMs >= targetMs * SLA_AT_RISK_SHARE) state = 'at_risk';
  else state = 'on_track';
  return {
    definitionId: definition.id,
    name: definition.name,
    started: new Date(started).toISOString(),
    due: due === null ? null : new Date(due).toISOString(),
    completedAt: completed === null ? null : new Date(completed).toISOString(),
    elapsedHours: Math.round((elapsedMs / HOUR_MS) * 100) / 100,
    targetHours: definition.targetHours,
    state,
  };
}

/** Every applicable clock of a referral. */
export function computeSlas(
  definitions: readonly SlaDefinition[],
  clock: ReferralClock,
  calendar: PracticeCalendar,
  now: Date,
): SlaResult[] {
  return definitions.flatMap((definition) => computeSla(definition, clock, calendar, now) ?? []);
}

const STATE_WEIGHT: Record<SlaState, number> = { breached: 4, at_risk: 3, missed: 2, on_track: 1, met: 0 };

/** The one state a list chip shows: the worst of a referral's clocks. */
export function worstSlaState(results: readonly SlaResult[]): SlaState | null {
  let worst: SlaState | null = null;
  for (const result of results) {
    if (worst === null || STATE_WEIGHT[result.state] > STATE_WEIGHT[worst]) worst = result.state;
  }
  return worst;
}

/** The letterhead printed on reports: the practice's name and contact lines. */
export const LetterheadInput = z.object({
  name: z
    .string({ error: m.letterheadNameRequired })
    .trim()
    .min(1, { error: m.letterheadNameRequired })
    .max(200, { error: m.tooLong(200) }),
  address: z
    .string()
    .trim()
    .max(500, { error: m.tooLong(500) })
    .default(''),
  phone: z
    .string()
    .trim()
    .max(40, { error: m.tooLong(40) })
    .default(''),
  email: z
    .string()
    .trim()
    .max(254, { error: m.tooLong(254) })
    .default(''),
});
export type LetterheadInput = z.infer<typeof LetterheadInput>;

export const DEFAULT_LETTERHEAD: LetterheadInput = {
  name: 'Wellrest Sleep Center',
  address: '',
  phone: '(555) 555-0100',
  email: 'care@wellrest.example',
};
