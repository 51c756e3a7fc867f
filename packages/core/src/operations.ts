import { z } from 'zod';
import { BookingStatus, KitType } from './enums.js';
import { Booking } from './schemas/booking.js';
import { Id, IsoDate } from './schemas/common.js';
import { DashboardStats } from './schemas/dashboard.js';

// Request and response shapes of the booking-operations calls (spec §7) that the entity schemas
// do not already describe: list paging and filters, status changes, the dashboard's numbers.

/** Messages the booking-operations API answers with, beyond those of spec §5 and §8. */
export const operationMessages = {
  patientNotFound: 'Patient not found',
  bookingNotFound: 'Booking not found',
  startDateInPast: 'The start date is in the past. Please choose today or a later date.',
  createStatusNotAllowed: 'A new booking can only be pending or confirmed.',
  invalidStatusChange: (from: string, to: string): string =>
    `A ${from.replace('_', ' ')} booking cannot change to ${to.replace('_', ' ')}.`,
  agreementOnlyConfirmed: 'An agreement form can only be sent for a confirmed booking.',
  ghlUnauthorized: 'GoHighLevel refused the access token. Check the GoHighLevel settings.',
  ghlUnavailable: 'GoHighLevel could not be reached. Please try again later.',
  ghlSyncContinues: 'The sync with GoHighLevel is taking a while and continues in the background.',
} as const;

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 200;

const optionalQueryText = z
  .string()
  .trim()
  .max(200)
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** Paging of list calls: without `page` a list answers a plain array, with it a Page. */
const pagingFields = {
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  q: optionalQueryText,
};

export const PATIENT_SORTS = ['name', '-name', 'createdAt', '-createdAt', 'id', '-id'] as const;
export const PatientListQuery = z.object({
  ...pagingFields,
  sort: z.enum(PATIENT_SORTS).default('name'),
});
export type PatientListQuery = z.infer<typeof PatientListQuery>;

export const BOOKING_SORTS = ['startDate', '-startDate', 'returnDate', '-returnDate', 'id', '-id'] as const;
export const BookingListQuery = z.object({
  ...pagingFields,
  sort: z.enum(BOOKING_SORTS).default('startDate'),
  status: BookingStatus.optional(),
  kitType: KitType.optional(),
  /** Bookings whose test period reaches this date or later. */
  from: IsoDate.optional(),
  /** Bookings that start on this date or earlier. */
  to: IsoDate.optional(),
  patientId: z.coerce.number().pipe(Id).optional(),
});
export type BookingListQuery = z.infer<typeof BookingListQuery>;

/** A page of a list: the rows asked for and how many there are in all. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** A booking as lists show it: with its patient's name and its kit's printed label. */
export const BookingListItem = Booking.extend({
  patientName: z.string(),
  kitLabel: z.string().nullable(),
});
export type BookingListItem = z.infer<typeof BookingListItem>;

/** Statuses a booking may be created in; the booking dialog creates confirmed ones. */
export const CREATE_BOOKING_STATUSES = ['pending', 'confirmed'] as const;

/** Body of POST /api/bookings/{id}/status. */
export const ChangeBookingStatusInput = z.object({
  status: BookingStatus,
  reason: z
    .string()
    .trim()
    .max(500)
    .transform((value) => (value === '' ? undefined : value))
    .optional(),
});
export type ChangeBookingStatusInput = z.infer<typeof ChangeBookingStatusInput>;

export const BOOKING_EVENT_ACTIONS = [
  'created',
  'status_changed',
  'extended',
  'reduced',
  'agreement_initiated',
  'agreement_superseded',
] as const;

/** One line of a booking's history: who did what, when, from which status to which. */
export const BookingEvent = z.object({
  id: Id,
  bookingId: Id,
  action: z.enum(BOOKING_EVENT_ACTIONS),
  fromStatus: BookingStatus.nullable(),
  toStatus: BookingStatus.nullable(),
  reason: z.string().nullable(),
  actorUserId: Id.nullable(),
  actorUsername: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  occurredAt: z.string(),
});
export type BookingEvent = z.infer<typeof BookingEvent>;

const count = z.number().int().nonnegative();

/** Response of GET /api/dashboard/stats: the stat cards' numbers, plus kits out and the week ahead. */
export const DashboardStatsResponse = DashboardStats.extend({
  /** Kits held today by a booking (kitCounts' heldToday; availableKits is its freeToday). */
  kitsInUse: count,
  /** Kits on the shelf now (status available), the number Inventory shows beside it. */
  kitsOnShelf: count.optional(),
  /** Bookings (not cancelled) starting in the 7 days after today. */
  upcomingWeek: count,
});
export type DashboardStatsResponse = z.infer<typeof DashboardStatsResponse>;
