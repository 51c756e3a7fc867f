/**
 * Field checks the widgets run before sending, mirroring the rules of core's public schemas (the API
 * checks again with the schemas themselves). Kept here so each script stays within its size budget.
 */
export const fieldMessages = {
  nameRequired: 'Please enter your name',
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  phoneRequired: 'Please enter a phone number',
  kitTypeRequired: 'Please choose a kit type',
  startDateRequired: 'Please choose a start date',
  npiRequired: 'Please enter the 10-digit NPI',
  npiInvalid: 'Please enter a valid 10-digit NPI',
  practiceRequired: 'Please enter the practice name',
  specialtyRequired: 'Please enter the specialty',
  physicianNameRequired: "Please enter the physician's name",
  patientNameRequired: "Please enter the patient's name",
  reasonTooShort: 'Please describe the reason for referral (at least 10 characters)',
  urgencyRequired: 'Please choose an urgency',
  attachmentType: 'Attachments must be a PDF, PNG or JPEG file',
  attachmentTooLarge: 'Attachments must be 2 MB or smaller',
} as const;

/** Widget-only wording: not sent by the API. */
export const formMessages = {
  phoneInvalid: 'Please enter a valid phone number',
  dateInvalid: 'Please enter a valid date',
  fixErrors: 'Please correct the highlighted fields.',
} as const;

export type FieldErrors = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export function isPhone(value: string): boolean {
  const digits = value.replace(/\D/g, '');
  return digits.length >= 10 && digits.length <= 15 && /^[\d\s()+.-]+$/.test(value.trim());
}

export function isPastDate(value: string): boolean {
  return (
    ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) && value <= new Date().toISOString().slice(0, 10)
  );
}

/** A 10-digit NPI whose last digit is the Luhn check digit computed with the 80840 prefix. */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type Check = (value: string) => string | undefined;

/** A non-blank value, else `message`. */
export const required =
  (message: string): Check =>
  (value) =>
    value.trim() ? undefined : message;

export const checks = {
  email: (value: string) =>
    !value.trim() ? fieldMessages.emailRequired : isEmail(value) ? undefined : fieldMessages.emailInvalid,
  optionalEmail: (value: string) =>
    !value.trim() || isEmail(value) ? undefined : fieldMessages.emailInvalid,
  phone: (value: string) =>
    !value.trim() ? fieldMessages.phoneRequired : isPhone(value) ? undefined : formMessages.phoneInvalid,
  optionalPhone: (value: string) => (!value.trim() || isPhone(value) ? undefined : formMessages.phoneInvalid),
  npi: (value: string) =>
    !value.trim()
      ? fieldMessages.npiRequired
      : isValidNpi(value.trim())
        ? undefined
        : fieldMessages.npiInvalid,
  optionalPastDate: (value: string) => (!value || isPastDate(value) ? undefined : formMessages.dateInvalid),
  reason: (value: string) => (value.trim().length >= 10 ? undefined : fieldMessages.reasonTooShort),
} satisfies Record<string, Check>;

/** Runs each field's check; the result names only fields with a problem. */
export function validateFields(values: Record<string, string>, rules: Record<string, Check>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, check] of Object.entries(rules)) {
    const message = check(values[field] ?? '');
    if (message) errors[field] = message;
  }
  return errors;
}
