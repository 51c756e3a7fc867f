import type { KitType } from '../enums.js';
import { messages } from '../messages.js';
import type { BookingForm } from '../schemas/booking.js';

function isBlank(value: string | null | undefined): boolean {
  return value == null || value.trim() === '';
}

/**
 * The first failing booking-dialog check, in the order of spec §5, or null when the form can be
 * submitted: start date, kit type, kit type available on that date, then the patient.
 */
export function validateBookingSubmission(form: BookingForm, availableKitTypes: KitType[]): string | null {
  if (isBlank(form.startDate)) return messages.booking.startDateRequired;
  if (form.kitType == null) return messages.booking.kitTypeRequired;
  if (!availableKitTypes.includes(form.kitType)) return messages.booking.kitNotAvailable(form.kitType);
  if (form.tab === 'new') {
    const p = form.newPatient;
    if (isBlank(p?.name) || isBlank(p?.email) || isBlank(p?.phone))
      return messages.booking.patientFieldsRequired;
  } else if (!form.patientId) {
    return messages.booking.patientRequired;
  }
  return null;
}
