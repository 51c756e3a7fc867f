// Public forms: what the embeddable widgets and the public pages send and receive. No session.
import { z } from 'zod';
import { DEFAULT_TEST_TYPE, LIMITED_AVAILABILITY_MAX_UNITS } from './constants.js';
import { isValidStartDate } from './dates/testDates.js';
import { KIT_TYPES, TEST_TYPES } from './enums.js';
import { IsoDate } from './schemas/common.js';

/** User-facing strings of the public forms and pages. Re-exported into the catalogue as `publicForms`. */
export const publicFormsMessages = {
  nameRequired: 'Please enter your name',
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  phoneRequired: 'Please enter a phone number',
  kitTypeRequired: 'Please choose a kit type',
  testTypeRequired: 'Please choose a test duration',
  startDateRequired: 'Please choose a start date',
  startDateInvalid: 'Tests can start Monday to Thursday only. Please choose another start date.',
  startDatePast: 'Please choose a start date that is not in the past',
  tooLong: (max: number): string => `Please use at most ${max} characters`,
  honeypot: 'Your submission could not be accepted',
  tooFast: 'Please take a moment to complete the form',
  idempotencyKeyInvalid: 'Please reload the form and try again',
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
  attachmentInvalid: 'The attachment could not be read',
  fullNameRequired: 'Please type your full name',
  signatureRequired: 'Please sign in the box',
  signatureTooLarge: 'The signature is too large. Please clear it and sign again',
  consentRequired: 'Please confirm that you agree to the terms',
  bookingReferenceRequired: 'Please enter your booking reference',
  bookingReferenceInvalid: 'Please enter the booking reference as digits, for example #123',
  lastNameRequired: 'Please enter your last name',
  dropoffDateRequired: 'Please enter the drop-off date',
  locationRequired: 'Please enter where you dropped off the kit',
  dropoffLinkRequired:
    'Please open this form from the link in your booking messages, or contact the clinic for a new link.',
  dropoffLinkHint: 'Keep this page’s link: you can use it to tell us when you return the kit.',
  embedKeyNameRequired: 'Please enter a name for the key',
  originInvalid: 'Each allowed origin must be a full origin such as https://partner.example',
  originsRequired: 'Add at least one allowed origin',
  originsTooMany: 'At most 20 allowed origins',
  embedKeyRefused: 'This site is not allowed to use this form',
  embedKeyAlreadyRevoked: 'This key is already revoked. Restore it first, or create a new key.',
  rateLimited: 'Too many submissions. Please wait a few minutes and try again.',
  agreementInvalid: 'This agreement link is not valid. Please contact the clinic for a new link.',
  agreementExpired: 'This agreement link has expired. Please contact the clinic for a new link.',
  agreementUsed: 'This agreement has already been signed.',
  agreementReplaced:
    'This agreement link has been replaced by a newer one. Please use the latest link you received.',
  submitted: 'Thank you. Your request has been received.',
  unavailable: 'The service is unavailable right now. Please try again later.',
} as const;

/** Availability as the public may see it: a level per date, never counts of bookings or names. */
export const AVAILABILITY_LEVELS = ['available', 'limited', 'none'] as const;
export const AvailabilityLevel = z.enum(AVAILABILITY_LEVELS);
export type AvailabilityLevel = z.infer<typeof AvailabilityLevel>;

/** none: no free kit; limited: 1..LIMITED_AVAILABILITY_MAX_UNITS free kits; available: more. */
export function availabilityLevel(freeUnits: number): AvailabilityLevel {
  if (freeUnits <= 0) return 'none';
  return freeUnits <= LIMITED_AVAILABILITY_MAX_UNITS ? 'limited' : 'available';
}

export const PUBLIC_AVAILABILITY_MAX_DAYS = 60;
export const PUBLIC_AVAILABILITY_DEFAULT_DAYS = 28;
/** Submissions faster than this after the form was shown are refused as automated. */
export const PUBLIC_FORM_MIN_FILL_MS = 3000;
export const ATTACHMENT_MAX_BYTES = 2 * 1024 * 1024;
export const SIGNATURE_MAX_CHARS = 500 * 1024;
export const ATTACHMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export const REFERRAL_URGENCIES = ['routine', 'urgent', 'stat'] as const;
export const ReferralUrgency = z.enum(REFERRAL_URGENCIES, { error: publicFormsMessages.urgencyRequired });
export type ReferralUrgency = z.infer<typeof ReferralUrgency>;
export const EMBED_KEY_MAX_ORIGINS = 20;
/** The header a widget sends on every /api/public call. */
export const EMBED_KEY_HEADER = 'X-Wellrest-Embed-Key';

const KitType = z.enum(KIT_TYPES, { error: publicFormsMessages.kitTypeRequired });
const TestType = z.enum(TEST_TYPES, { error: publicFormsMessages.testTypeRequired });

export const PublicAvailabilityQuery = z.object({
  kitType: KitType,
  testType: TestType.default(DEFAULT_TEST_TYPE),
  from: IsoDate,
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(PUBLIC_AVAILABILITY_MAX_DAYS)
    .default(PUBLIC_AVAILABILITY_DEFAULT_DAYS),
});
export type PublicAvailabilityQuery = z.infer<typeof PublicAvailabilityQuery>;

export const PublicAvailabilityDay = z.object({
  date: IsoDate,
  level: AvailabilityLevel,
  /** True when a test may start on this date (spec §5). */
  validStart: z.boolean(),
});
export const PublicAvailability = z.object({ days: z.array(PublicAvailabilityDay) });
export type PublicAvailability = z.infer<typeof PublicAvailability>;

const utmValue = z
  .string()
  .trim()
  .max(200, { error: publicFormsMessages.tooLong(200) })
  .optional();
export const UtmParams = z.object({
  source: utmValue,
  medium: utmValue,
  campaign: utmValue,
  term: utmValue,
  content: utmValue,
});
export type UtmParams = z.infer<typeof UtmParams>;

/** Anti-bot and idempotency fields every public submission carries. */
export const publicSubmissionFields = {
  /** Honeypot: hidden from people, so it must stay empty. */
  website: z.literal('', { error: publicFormsMessages.honeypot }).optional(),
  /** Epoch ms when the form was shown. The server refuses submissions faster than PUBLIC_FORM_MIN_FILL_MS. */
  startedAt: z.number({ error: publicFormsMessages.tooFast }).int().nonnegative(),
  idempotencyKey: z.uuid({ error: publicFormsMessages.idempotencyKeyInvalid }),
  utm: UtmParams.optional(),
};

function required(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: publicFormsMessages.tooLong(max) });
}
function optional(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: publicFormsMessages.tooLong(max) })
    .optional();
}
const email = required(publicFormsMessages.emailRequired, 254).pipe(
  z.email({ error: publicFormsMessages.emailInvalid }),
);
const optionalEmail = z
  .string()
  .trim()
  .max(254, { error: publicFormsMessages.tooLong(254) })
  .pipe(z.union([z.literal(''), z.email({ error: publicFormsMessages.emailInvalid })]))
  .optional();
const optionalDateOfBirth = z.union([z.literal(''), IsoDate]).optional();

/** True for a 10-digit NPI whose last digit is the Luhn check digit over the 80840 prefix. */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export const Npi = z
  .string({ error: publicFormsMessages.npiRequired })
  .trim()
  .min(1, { error: publicFormsMessages.npiRequired })
  .refine(isValidNpi, { error: publicFormsMessages.npiInvalid });

export const PublicBookingRequestInput = z
  .object({
    name: required(publicFormsMessages.nameRequired, 200),
    email,
    phone: required(publicFormsMessages.phoneRequired, 40),
    dateOfBirth: optionalDateOfBirth,
    kitType: KitType,
    testType: TestType.default(DEFAULT_TEST_TYPE),
    startDate: z
      .string({ error: publicFormsMessages.startDateRequired })
      .min(1, { error: publicFormsMessages.startDateRequired })
      .pipe(IsoDate),
    notes: optional(2000),
    ...publicSubmissionFields,
  })
  .superRefine((input, ctx) => {
    if (!isValidStartDate(input.startDate, input.testType)) {
      ctx.addIssue({ code: 'custom', path: ['startDate'], message: publicFormsMessages.startDateInvalid });
    }
  });
export type PublicBookingRequestInput = z.infer<typeof PublicBookingRequestInput>;

const ATTACHMENT_MAX_BASE64_CHARS = Math.ceil(ATTACHMENT_MAX_BYTES / 3) * 4;

/** Bytes a base64 string decodes to (without decoding it). */
export function base64DecodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

export const ReferralAttachment = z.object({
  filename: required(publicFormsMessages.attachmentInvalid, 200),
  contentType: z.enum(ATTACHMENT_CONTENT_TYPES, { error: publicFormsMessages.attachmentType }),
  dataBase64: z
    .string({ error: publicFormsMessages.attachmentInvalid })
    .min(1, { error: publicFormsMessages.attachmentInvalid })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: publicFormsMessages.attachmentInvalid })
    .max(ATTACHMENT_MAX_BASE64_CHARS, { error: publicFormsMessages.attachmentTooLarge })
    .refine((data) => base64DecodedBytes(data) <= ATTACHMENT_MAX_BYTES, {
      error: publicFormsMessages.attachmentTooLarge,
    }),
});
export type ReferralAttachment = z.infer<typeof ReferralAttachment>;

export const PublicReferralInput = z.object({
  physician: z.object({
    name: required(publicFormsMessages.physicianNameRequired, 200),
    npi: Npi,
    practice: optional(200),
    email,
    phone: optional(40),
  }),
  patient: z.object({
    name: required(publicFormsMessages.patientNameRequired, 200),
    dateOfBirth: optionalDateOfBirth,
    email: optionalEmail,
    phone: required(publicFormsMessages.phoneRequired, 40),
  }),
  reason: z
    .string({ error: publicFormsMessages.reasonTooShort })
    .trim()
    .min(10, { error: publicFormsMessages.reasonTooShort })
    .max(5000, { error: publicFormsMessages.tooLong(5000) }),
  urgency: ReferralUrgency,
  attachment: ReferralAttachment.optional(),
  ...publicSubmissionFields,
});
export type PublicReferralInput = z.infer<typeof PublicReferralInput>;

export const PhysicianSignupInput = z.object({
  name: required(publicFormsMessages.nameRequired, 200),
  npi: Npi,
  practice: required(publicFormsMessages.practiceRequired, 200),
  email,
  phone: required(publicFormsMessages.phoneRequired, 40),
  specialty: required(publicFormsMessages.specialtyRequired, 120),
  ...publicSubmissionFields,
});
export type PhysicianSignupInput = z.infer<typeof PhysicianSignupInput>;

export const PublicSubmissionResult = z.object({ requestId: z.string() });
export type PublicSubmissionResult = z.infer<typeof PublicSubmissionResult>;

/** The terms a patient agrees to when signing for a kit. */
export const AGREEMENT_TERMS: readonly string[] = [
  'I will use the home sleep-test kit only for my own test, as instructed by the clinic.',
  'I will return the kit, complete and undamaged, by the return date shown above.',
  'I understand that a kit returned late may delay tests for other patients, and that I may be charged for a kit that is lost or damaged.',
  'I will contact the clinic at once if the kit does not work or if I cannot complete the test nights.',
  'I consent to the clinic recording my test data and using it to interpret my sleep study.',
];

export const AGREEMENT_STATUSES = ['sent', 'signed'] as const;
export const AgreementView = z.object({
  patientName: z.string(),
  kitType: KitType,
  /** The label printed on the kit, e.g. 'SOM-001'; null until a kit is assigned. */
  kitLabel: z.string().nullable(),
  testType: TestType,
  startDate: IsoDate,
  endDate: IsoDate,
  returnDate: IsoDate,
  terms: z.array(z.string()),
  status: z.enum(AGREEMENT_STATUSES),
});
export type AgreementView = z.infer<typeof AgreementView>;

export const SignAgreementInput = z.object({
  fullName: required(publicFormsMessages.fullNameRequired, 200),
  signature: z
    .string({ error: publicFormsMessages.signatureRequired })
    .max(SIGNATURE_MAX_CHARS, { error: publicFormsMessages.signatureTooLarge })
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, { error: publicFormsMessages.signatureRequired }),
  consent: z.literal(true, { error: publicFormsMessages.consentRequired }),
});
export type SignAgreementInput = z.infer<typeof SignAgreementInput>;

/** Why an agreement link cannot be used. */
export const AGREEMENT_LINK_PROBLEMS = ['invalid', 'expired', 'used', 'replaced'] as const;
export type AgreementLinkProblem = (typeof AGREEMENT_LINK_PROBLEMS)[number];

/** '123' or '#123' -> 123; anything else -> null. */
export function parseBookingReference(value: string): number | null {
  const match = /^#?\s*(\d{1,9})$/.exec(value.trim());
  if (!match) return null;
  const id = Number(match[1]);
  return id > 0 ? id : null;
}

/**
 * A drop-off report. Its proof is the agreement link's token (unguessable, and expiring), never a
 * booking number and a name, which anyone could try in turn.
 */
export const DropoffReportInput = z.object({
  token: z
    .string({ error: publicFormsMessages.dropoffLinkRequired })
    .trim()
    .min(1, { error: publicFormsMessages.dropoffLinkRequired })
    .max(500),
  dropoffDate: z
    .string({ error: publicFormsMessages.dropoffDateRequired })
    .min(1, { error: publicFormsMessages.dropoffDateRequired })
    .pipe(IsoDate),
  location: required(publicFormsMessages.locationRequired, 200),
  notes: optional(2000),
  problems: optional(2000),
});
export type DropoffReportInput = z.infer<typeof DropoffReportInput>;

/** A full origin: scheme, host and optional port, nothing else (no path, no trailing slash). */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
const Origin = z.string().trim().refine(isOrigin, { error: publicFormsMessages.originInvalid });
const AllowedOrigins = z
  .array(Origin, { error: publicFormsMessages.originsRequired })
  .min(1, { error: publicFormsMessages.originsRequired })
  .max(EMBED_KEY_MAX_ORIGINS, { error: publicFormsMessages.originsTooMany });

export const EmbedKey = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  key: z.string(),
  allowedOrigins: z.array(z.string()),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  /** When a partner page last used the key (to within a few minutes), or null if never. */
  lastUsedAt: z.string().nullable(),
});
export type EmbedKey = z.infer<typeof EmbedKey>;

/** How many days of submissions the embed keys list counts per key. */
export const EMBED_KEY_USAGE_DAYS = 30;

/** A key as the console lists it: with the submissions it brought in the last 30 days. */
export const EmbedKeySummary = EmbedKey.extend({
  submissionsLast30Days: z.number().int().nonnegative(),
});
export type EmbedKeySummary = z.infer<typeof EmbedKeySummary>;

/** One widget script as the embed pages offer it: the versioned URL path and its SRI hash. */
export const WidgetScript = z.object({
  /** `wellrest-booking.js` */
  file: z.string(),
  /** `/widgets/wellrest-booking.1a2b3c4d5e.js`: never changes, cached for a year. */
  versionedPath: z.string(),
  /** `sha384-…`, for the script tag's `integrity` attribute. */
  integrity: z.string(),
});
export type WidgetScript = z.infer<typeof WidgetScript>;

export const CreateEmbedKeyInput = z.object({
  name: required(publicFormsMessages.embedKeyNameRequired, 120),
  allowedOrigins: AllowedOrigins,
});
export type CreateEmbedKeyInput = z.infer<typeof CreateEmbedKeyInput>;

export const UpdateEmbedKeyInput = CreateEmbedKeyInput.partial();
export type UpdateEmbedKeyInput = z.infer<typeof UpdateEmbedKeyInput>;

export const PublicDiagnostics = z.object({
  api: z.literal('ok'),
  version: z.string(),
  serverTime: z.string(),
  database: z.enum(['ready', 'unavailable']),
});
export type PublicDiagnostics = z.infer<typeof PublicDiagnostics>;
