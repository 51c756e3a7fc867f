import { z } from 'zod';
import { DEFAULT_TEST_TYPE } from '../constants.js';
import { BookingStatus, KitStatus, KitType, TestType } from '../enums.js';
import { Id, IsoDate, optionalText } from './common.js';

export const Booking = z.object({
  id: Id,
  patientId: Id,
  /** The numeric Kit.id of the kit assigned to the booking; null until one is assigned. */
  kitId: Id.nullable(),
  testType: TestType,
  kitType: KitType,
  status: BookingStatus,
  startDate: IsoDate,
  endDate: IsoDate,
  returnDate: IsoDate,
  notes: z.string().nullable(),
  /** The physician of the booking's patient, when known: scopes what a physician may read. */
  physicianId: Id.nullish(),
});
export type Booking = z.infer<typeof Booking>;

/**
 * Body of POST /api/bookings. The server recomputes endDate and returnDate from startDate and
 * testType and assigns a free kit of kitType, so the client's values for those are advisory.
 */
export const CreateBookingInput = z.object({
  patientId: Id,
  testType: TestType.default(DEFAULT_TEST_TYPE),
  kitType: KitType,
  startDate: IsoDate,
  endDate: IsoDate.optional(),
  returnDate: IsoDate.optional(),
  status: BookingStatus.optional(),
  notes: optionalText(5000),
  /**
   * The caller means a second active booking for the same patient, kit type and start date
   * (without it such a booking is refused with 409 naming the existing one).
   */
  allowDuplicate: z.boolean().optional(),
});
export type CreateBookingInput = z.infer<typeof CreateBookingInput>;

export const UpdateBookingStatusInput = z.object({ status: BookingStatus });
export type UpdateBookingStatusInput = z.infer<typeof UpdateBookingStatusInput>;

/** The state of the booking dialog, as validateBookingSubmission reads it. */
export type BookingForm = {
  tab: 'existing' | 'new';
  patientId?: number | null;
  newPatient?: { name?: string; email?: string; phone?: string };
  testType: TestType;
  kitType?: KitType | null;
  startDate?: string | null;
};

export const Kit = z.object({
  id: Id,
  /** The label printed on the kit, e.g. 'SOM-001'. */
  kitId: z.string().trim().min(1),
  type: KitType,
  status: KitStatus.optional(),
  serialNumber: z.string().nullish(),
  notes: z.string().nullish(),
});
export type Kit = z.infer<typeof Kit>;

export const CreateKitInput = z.object({
  kitId: z.string().trim().min(1).max(60),
  type: KitType,
  status: KitStatus.default('available'),
  serialNumber: optionalText(120),
  notes: optionalText(5000),
});
export type CreateKitInput = z.infer<typeof CreateKitInput>;

export const UpdateKitInput = z
  .object({
    kitId: z.string().trim().min(1).max(60),
    type: KitType,
    status: KitStatus,
    serialNumber: optionalText(120),
    notes: optionalText(5000),
  })
  .partial();
export type UpdateKitInput = z.infer<typeof UpdateKitInput>;

/** Response of POST /api/bookings/{id}/initiate-agreement. */
export const AgreementInitiation = z.object({
  formUrl: z.string(),
  patientName: z.string(),
});
export type AgreementInitiation = z.infer<typeof AgreementInitiation>;
