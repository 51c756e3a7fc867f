import { z } from 'zod';
import { MAINTENANCE_DAYS } from './constants.js';
import { addDays } from './dates/calendar.js';
import { KitStatus, KitType } from './enums.js';
import { Id, IsoDate, optionalText } from './schemas/common.js';

// Inventory rules shared by the API and the console: kit upkeep (the cleaning gate, scheduled
// maintenance), scanning kits out and in, and the request shapes of those calls.

/**
 * How many days before its start date a booking's kit may go out: a Friday pickup for a Monday
 * test, so patients need not come in on the day their test starts.
 */
export const EARLY_PICKUP_DAYS = 3;

/** The last start date whose kit may be picked up today. */
export function lastPickupStartDate(today: string): string {
  return addDays(today, EARLY_PICKUP_DAYS);
}

/** Messages of the inventory, scanning and kit-statistics calls. */
export const inventoryMessages = {
  kitNotFound: 'Kit not found',
  kitLabelRequired: 'Please enter the kit label',
  kitLabelTaken: (label: string): string => `A kit labelled ${label} already exists.`,
  retireHasBookings: (label: string, count: number): string =>
    `Kit ${label} cannot be retired: it has ${count} upcoming booking${count === 1 ? '' : 's'}. ` +
    'Move or cancel them first.',
  alreadyRetired: (label: string): string => `Kit ${label} is already retired.`,
  typeChangeHasBookings: (label: string): string =>
    `The type of kit ${label} cannot change while it has upcoming bookings.`,
  statusSetByScans: 'In use and cleaning are set by scanning kits out and in; retire a kit with Retire.',
  retiredKitLocked: (label: string): string => `Kit ${label} is retired and can no longer change.`,
  notInCleaning: (label: string): string => `Kit ${label} is not waiting for cleaning.`,
  unknownKit: (code: string): string => `No kit has the label ${code}. Check the label and scan again.`,
  kitOutOfService: (label: string, status: string): string =>
    `Kit ${label} is ${status.replace('_', ' ')} and cannot be checked out.`,
  kitNeedsCleaning: (label: string): string =>
    `Kit ${label} is waiting for cleaning. Log its cleaning before checking it out.`,
  kitAlreadyOut: (label: string): string => `Kit ${label} is already checked out.`,
  noBookingToday: (label: string): string =>
    `Kit ${label} has no confirmed booking due for pickup (starting today or in the next ${EARLY_PICKUP_DAYS} days).`,
  bookingNotStarted: (id: number, startDate: string): string =>
    `Booking #${id} starts on ${startDate}; its kit can be picked up from ${addDays(startDate, -EARLY_PICKUP_DAYS)}.`,
  kitNeededEarlier: (label: string): string =>
    `Kit ${label} is booked for an earlier test and cannot go out before this booking starts.`,
  bookingNotConfirmed: (id: number, status: string): string =>
    `Booking #${id} is ${status.replace('_', ' ')}, not confirmed, and cannot be picked up.`,
  wrongKit: (label: string, expected: string): string =>
    `Wrong kit: ${label} scanned, but this booking has kit ${expected}.`,
  alreadyCheckedIn: (label: string): string => `Kit ${label} is already checked in and waiting for cleaning.`,
  kitNotCheckedOut: (label: string): string => `Kit ${label} is not checked out.`,
  noPickedUpBooking: (label: string): string => `Kit ${label} has no picked-up booking to return.`,
  checkedOut: (label: string, bookingId: number): string =>
    `Kit ${label} checked out for booking #${bookingId}.`,
  checkedIn: (label: string, bookingId: number): string =>
    `Kit ${label} checked in from booking #${bookingId}. It needs cleaning before its next booking.`,
  cancelReasonRequired: 'Please give a reason for the cancellation.',
  statsPeriodOrder: 'The end of the period must not be before its start.',
  statsPeriodTooLong: (days: number): string => `Choose a period of at most ${days} days.`,
} as const;

/** Statuses staff set by hand. In use and cleaning follow the scans; retiring has its own call. */
export const MANUAL_KIT_STATUSES = ['available', 'maintenance', 'lost'] as const;

/** Which way a scanned kit goes: out to a patient (pickup) or back in (return). */
export const SCAN_MODES = ['checkout', 'checkin'] as const;
export const ScanMode = z.enum(SCAN_MODES);
export type ScanMode = z.infer<typeof ScanMode>;

export const SCAN_OUTCOMES = ['accepted', 'rejected'] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

/** The longest period the kit statistics cover in one call. */
export const KIT_STATS_MAX_DAYS = 366;

const label = z
  .string({ error: inventoryMessages.kitLabelRequired })
  .trim()
  .min(1, { error: inventoryMessages.kitLabelRequired })
  .max(60);

/** Body of POST /api/kits. A new kit is available. */
export const NewKitInput = z.object({
  kitId: label,
  type: KitType,
  serialNumber: optionalText(120),
  notes: optionalText(5000),
});
export type NewKitInput = z.infer<typeof NewKitInput>;

/** Body of PATCH /api/kits/:id: any of the fields, and a status staff may set by hand. */
export const EditKitInput = z
  .object({
    kitId: label,
    type: KitType,
    status: z.enum(MANUAL_KIT_STATUSES, { error: inventoryMessages.statusSetByScans }),
    serialNumber: optionalText(120),
    notes: optionalText(5000),
  })
  .partial();
export type EditKitInput = z.infer<typeof EditKitInput>;

const optionalQueryText = z
  .string()
  .trim()
  .max(200)
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** Query of GET /api/kits: filters; with `page` the answer is a page. */
export const KitListQuery = z.object({
  status: KitStatus.optional(),
  type: KitType.optional(),
  q: optionalQueryText,
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type KitListQuery = z.infer<typeof KitListQuery>;

/** Body of POST /api/kits/:id/cleanings and /maintenance. */
export const KitUpkeepInput = z.object({ notes: optionalText(2000) });
export type KitUpkeepInput = z.infer<typeof KitUpkeepInput>;

/** Body of POST /api/maintenance-schedules: kits of a type are serviced every N days. */
export const MaintenanceScheduleInput = z.object({
  kitType: KitType,
  everyDays: z.number().int().min(1).max(3650),
  notes: optionalText(2000),
});
export type MaintenanceScheduleInput = z.infer<typeof MaintenanceScheduleInput>;

/** Body of POST /api/scans: what the scanner typed, and which way the kit goes. */
export const ScanInput = z.object({
  code: z.string().trim().min(1).max(120),
  mode: ScanMode,
  bookingId: Id.optional(),
  /** The station (desk) the scan was made at, when the console names one. */
  station: optionalText(60),
});
export type ScanInput = z.infer<typeof ScanInput>;

export const ScanListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ScanListQuery = z.infer<typeof ScanListQuery>;

/** How a keyboard-wedge scanner frames a code; stored per user. */
export const ScannerSettings = z.object({
  prefix: z.string().max(20).default(''),
  suffix: z.string().max(20).default(''),
  terminator: z.enum(['Enter', 'Tab', 'none']).default('Enter'),
  sound: z.boolean().default(true),
});
export type ScannerSettings = z.infer<typeof ScannerSettings>;

/** What a scanner typed, without the prefix and suffix it was set up to add. */
export function stripScannerFraming(
  raw: string,
  settings: Pick<ScannerSettings, 'prefix' | 'suffix'>,
): string {
  let code = raw.trim();
  if (settings.prefix && code.startsWith(settings.prefix)) code = code.slice(settings.prefix.length);
  if (settings.suffix && code.endsWith(settings.suffix)) code = code.slice(0, -settings.suffix.length);
  return code.trim();
}

/** Query of GET /api/kit-stats: a period of calendar days, both ends included. */
export const KitStatsQuery = z
  .object({ from: IsoDate, to: IsoDate, kitType: KitType.optional() })
  .superRefine((query, issues) => {
    if (query.to < query.from) {
      issues.addIssue({ code: 'custom', path: ['to'], message: inventoryMessages.statsPeriodOrder });
    } else if (daysBetween(query.from, query.to) + 1 > KIT_STATS_MAX_DAYS) {
      issues.addIssue({
        code: 'custom',
        path: ['to'],
        message: inventoryMessages.statsPeriodTooLong(KIT_STATS_MAX_DAYS),
      });
    }
  });
export type KitStatsQuery = z.infer<typeof KitStatsQuery>;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The day a returned kit's cleaning is planned for: its maintenance day (the day after the test
 * ends), or the day it came back when it came back later than that.
 */
export function cleaningDueDate(testEndDate: string, returnedOn: string): string {
  const maintenanceDay = addDays(testEndDate, MAINTENANCE_DAYS);
  return returnedOn > maintenanceDay ? returnedOn : maintenanceDay;
}

/** A kit not cleaned by the end of its due day is overdue. */
export function isCleaningOverdue(dueOn: string | null | undefined, today: string): boolean {
  return dueOn != null && dueOn < today;
}

/**
 * The cleaning gate: may a kit be assigned to a test starting on `startDate`? A kit waiting for
 * cleaning may take only a test that starts after its cleaning's due day, never one starting
 * today, and none at all once its cleaning is overdue (nobody can say when it will be ready).
 * Other statuses are left to the availability engine (out-of-service kits hold no unit).
 */
export function isKitReadyFor(
  kit: { status?: string | null; cleaningDueOn?: string | null },
  startDate: string,
  today: string,
): boolean {
  if (kit.status !== 'cleaning') return true;
  const due = kit.cleaningDueOn ?? today;
  if (isCleaningOverdue(due, today)) return false;
  return startDate > today && startDate > due;
}

/** The day a kit next needs scheduled maintenance: `everyDays` after it was last done (or in service). */
export function maintenanceDueDate(lastDoneOn: string, everyDays: number): string {
  return addDays(lastDoneOn, everyDays);
}

/** True when scheduled maintenance is due on or before `today`. */
export function isMaintenanceDue(lastDoneOn: string, everyDays: number, today: string): boolean {
  return maintenanceDueDate(lastDoneOn, everyDays) <= today;
}

/** One line of a kit's history (GET /api/kits/:id/history), newest first. */
export type InventoryKitHistoryEntry =
  | {
      kind: 'booking';
      id: number;
      /** When it happened: the booking's start date at midnight UTC, or the time it was logged. */
      at: string;
      bookingId: number;
      status: string;
      testType: string;
      startDate: string;
      endDate: string;
      returnDate: string;
      patientId: number;
      patientName: string;
    }
  | {
      kind: 'cleaning';
      id: number;
      at: string;
      bookingId: number | null;
      startedOn: string;
      dueOn: string;
      cleanedOn: string;
      overdue: boolean;
      notes: string | null;
      username: string | null;
    }
  | {
      kind: 'maintenance';
      id: number;
      at: string;
      doneOn: string;
      notes: string | null;
      username: string | null;
    }
  | {
      kind: 'scan';
      id: number;
      at: string;
      bookingId: number | null;
      mode: string;
      outcome: string;
      message: string;
      username: string | null;
      station: string | null;
    };

/** One stored scan (POST /api/scans answers it; GET /api/scans lists them). */
export interface KitScan {
  id: number;
  code: string;
  kitId: number | null;
  kitLabel: string | null;
  bookingId: number | null;
  mode: ScanMode;
  outcome: ScanOutcome;
  message: string;
  username: string | null;
  station: string | null;
  scannedAt: string;
}
