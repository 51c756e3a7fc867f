import { z } from 'zod';
import { Id } from '../schemas/common.js';

/** The contact details of a patient being entered, checked against existing records. */
export const PatientDuplicateQuery = z.object({
  email: z.string().trim().max(254).optional(),
  phone: z.string().trim().max(40).optional(),
  /** The record being edited, which never counts as its own duplicate. */
  excludeId: Id.optional(),
});
export type PatientDuplicateQuery = z.infer<typeof PatientDuplicateQuery>;

export type DuplicateField = 'email' | 'phone';

/** An existing patient sharing an email address or phone number with the one being entered. */
export interface PatientDuplicate {
  id: number;
  name: string;
  matches: DuplicateField[];
}

/** The digits of a phone number: how two spellings of one number are compared. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** Fewer digits than this is not a phone number worth matching on. */
export const MIN_PHONE_DIGITS_TO_MATCH = 7;

/** Re-signing a signed agreement: the staff member's reason, kept in the audit trail. */
export const ResignAgreementInput = z.object({
  reason: z.string().trim().min(3).max(500),
});
export type ResignAgreementInput = z.infer<typeof ResignAgreementInput>;
