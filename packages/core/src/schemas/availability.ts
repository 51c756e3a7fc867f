import { z } from 'zod';
import { AVAILABILITY_RANGE_DAYS } from '../constants.js';
import { BookingStatus, KitType, TestType } from '../enums.js';
import { Id, IsoDate } from './common.js';

/** A booking whose test starts on a given day. kitId is the kit's printed label. */
export const Pickup = z.object({
  id: Id,
  patientId: Id,
  patientName: z.string(),
  testType: TestType,
  kitType: KitType,
  kitId: z.string(),
  status: BookingStatus,
  /** When the booking's agreement was signed; null or absent while it is not. */
  agreementSignedAt: z.string().nullish(),
});
export type Pickup = z.infer<typeof Pickup>;

/** A booking whose kit comes back on a given day. kitId is the kit's printed label. */
export const Dropoff = z.object({
  id: Id,
  patientId: Id,
  patientName: z.string(),
  kitType: KitType,
  kitId: z.string(),
});
export type Dropoff = z.infer<typeof Dropoff>;

export const AvailabilityDay = z.object({
  date: IsoDate,
  /** 'Today', 'Tomorrow' or 'Mon, Nov 23'. */
  label: z.string(),
  /** In-service kits no booking holds on this date and, on the dashboard, none waiting for cleaning. */
  availableUnits: z.number().int().nonnegative(),
  pickups: z.array(Pickup),
  dropoffs: z.array(Dropoff),
});
export type AvailabilityDay = z.infer<typeof AvailabilityDay>;

export const ExtensionEligibility = z.object({
  canExtend: z.boolean(),
  /** True when the booking's own kit is taken on the extra day and the test moves to another kit. */
  requiresKitSwap: z.boolean(),
  /** Why the booking cannot be extended; null when it can. */
  reason: z.string().nullable(),
  /** Names the current and the new kit when requiresKitSwap; null otherwise. */
  swapWarning: z.string().nullable(),
  /** Free kits of the booking's type for the extended (3-day) window, its own kit included. */
  availableKitsCount: z.number().int().nonnegative(),
  kitType: KitType,
  /** The kit the extended booking will use (its own, or the swap kit); null when it cannot extend. */
  targetKitId: Id.nullable(),
});
export type ExtensionEligibility = z.infer<typeof ExtensionEligibility>;

export const ReductionEligibility = z.object({
  canReduce: z.boolean(),
  message: z.string(),
  /** The kit that becomes free one day earlier; null when the booking cannot be reduced or has no kit. */
  kitToFree: z.object({ id: Id, kitId: z.string(), type: KitType }).nullable(),
});
export type ReductionEligibility = z.infer<typeof ReductionEligibility>;

/** The longest range GET /api/dashboard/daily-availability answers, in days. */
export const AVAILABILITY_MAX_DAYS = 60;

/** Query of GET /api/dashboard/daily-availability: how many days from today (default 14, DESIGN §2). */
export const DailyAvailabilityQuery = z.object({
  days: z.coerce.number().int().min(1).max(AVAILABILITY_MAX_DAYS).default(AVAILABILITY_RANGE_DAYS),
});
export type DailyAvailabilityQuery = z.infer<typeof DailyAvailabilityQuery>;
