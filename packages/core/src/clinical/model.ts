import { z } from 'zod';
import { KIT_TYPES, TEST_TYPES } from '../enums.js';
import { isValidNpi, REFERRAL_URGENCIES } from '../public.js';
import { clinicalMessages as m } from './messages.js';

// The clinical pathway's records and rules: physicians, referrals and their status machine,
// interpretations with AASM severity bands. Pure; the API enforces these, the console builds
// its forms from them.

// --- Physicians -----------------------------------------------------------------------------

export const PHYSICIAN_STATUSES = ['pending', 'active', 'inactive'] as const;
export const PhysicianStatus = z.enum(PHYSICIAN_STATUSES);
export type PhysicianStatus = z.infer<typeof PhysicianStatus>;

function text(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: m.tooLong(max) });
}
function requiredText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: m.tooLong(max) });
}
const optionalEmail = z
  .string()
  .trim()
  .max(254, { error: m.tooLong(254) })
  .pipe(z.union([z.literal(''), z.email({ error: m.emailInvalid })]));

export const PhysicianNpi = z
  .string({ error: m.npiRequired })
  .trim()
  .min(1, { error: m.npiRequired })
  .refine(isValidNpi, { error: m.npiInvalid });

export const PhysicianInput = z.object({
  name: requiredText(m.physicianNameRequired, 200),
  credentials: text(60).default(''),
  npi: PhysicianNpi,
  specialty: text(120).default(''),
  practice: text(200).default(''),
  email: optionalEmail.default(''),
  phone: text(40).default(''),
  fax: text(40).default(''),
  address: text(500).default(''),
  status: PhysicianStatus.default('active'),
});
export type PhysicianInput = z.infer<typeof PhysicianInput>;

export const UpdatePhysicianInput = PhysicianInput.partial();
export type UpdatePhysicianInput = z.infer<typeof UpdatePhysicianInput>;

export const PhysicianListQuery = z.object({
  q: z.string().trim().max(200).optional(),
  status: PhysicianStatus.optional(),
});
export type PhysicianListQuery = z.infer<typeof PhysicianListQuery>;

export const NpiCheckQuery = z.object({ npi: z.string().trim().max(20) });

export const PhysicianSummary = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  credentials: z.string(),
  npi: z.string(),
  specialty: z.string(),
  practice: z.string(),
  email: z.string(),
  phone: z.string(),
  fax: z.string(),
  address: z.string(),
  status: PhysicianStatus,
  referralCount: z.number().int().nonnegative(),
  lastReferralAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PhysicianSummary = z.infer<typeof PhysicianSummary>;

export const PhysicianDetail = PhysicianSummary.extend({
  linkedUsers: z.array(z.object({ id: z.number().int().positive(), username: z.string() })),
  patients: z.array(z.object({ id: z.number().int().positive(), name: z.string() })),
  referralsPerMonth: z.array(z.object({ month: z.string(), count: z.number().int().nonnegative() })),
  /** Median days from received to reported over this physician's reported referrals. */
  medianDaysToReport: z.number().nullable(),
});
export type PhysicianDetail = z.infer<typeof PhysicianDetail>;

/** Admin: link a physician user to a physician record (null unlinks). */
export const LinkPhysicianInput = z.object({
  physicianId: z.number().int().positive().max(2_147_483_647).nullable(),
});
export type LinkPhysicianInput = z.infer<typeof LinkPhysicianInput>;

// --- Referrals ------------------------------------------------------------------------------

export const REFERRAL_STATUSES = [
  'received',
  'contacted',
  'scheduled',
  'tested',
  'interpreted',
  'reported',
  'declined',
  'cancelled',
] as const;
export const ReferralStatus = z.enum(REFERRAL_STATUSES);
export type ReferralStatus = z.infer<typeof ReferralStatus>;

/** The forward stages, in order; declined and cancelled leave the pathway. */
export const REFERRAL_STAGES = [
  'received',
  'contacted',
  'scheduled',
  'tested',
  'interpreted',
  'reported',
] as const satisfies readonly ReferralStatus[];
export type ReferralStage = (typeof REFERRAL_STAGES)[number];
export const ReferralStage = z.enum(REFERRAL_STAGES);

export const FINAL_REFERRAL_STATUSES: readonly ReferralStatus[] = ['reported', 'declined', 'cancelled'];

/** How a status change comes about: some only through their own action (booking, signing). */
export type TransitionVia = 'manual' | 'booking' | 'booking_completed' | 'sign' | 'report';

const TRANSITIONS: Readonly<Record<ReferralStatus, ReadonlyArray<readonly [ReferralStatus, TransitionVia]>>> =
  {
    received: [
      ['contacted', 'manual'],
      ['scheduled', 'booking'],
      ['declined', 'manual'],
      ['cancelled', 'manual'],
    ],
    contacted: [
      ['scheduled', 'booking'],
      ['declined', 'manual'],
      ['cancelled', 'manual'],
    ],
    scheduled: [
      ['tested', 'booking_completed'],
      ['tested', 'manual'],
      ['contacted', 'manual'],
      ['cancelled', 'manual'],
    ],
    tested: [['interpreted', 'sign']],
    interpreted: [['reported', 'report']],
    reported: [],
    declined: [],
    cancelled: [],
  };

/** May a referral in `from` become `to` by this means? */
export function canTransition(from: ReferralStatus, to: ReferralStatus, via: TransitionVia): boolean {
  return TRANSITIONS[from].some(([next, how]) => next === to && how === via);
}

/** The statuses staff may set by hand from `from` (the status menu). */
export function manualTransitions(from: ReferralStatus): ReferralStatus[] {
  return TRANSITIONS[from].filter(([, via]) => via === 'manual').map(([to]) => to);
}

/** Declining or cancelling needs a reason. */
export function transitionNeedsReason(to: ReferralStatus): boolean {
  return to === 'declined' || to === 'cancelled';
}

/** ICD-10-CM code shape: a letter, a digit, a digit or letter, then optionally a dot and 1–4 characters. */
const ICD10 = /^[A-TV-Z][0-9][0-9AB](\.[0-9A-TV-Z]{1,4})?$/;
export function isIcd10Code(code: string): boolean {
  return ICD10.test(code);
}

/** 'g47.33, r06.83' -> ['G47.33', 'R06.83'] (not validated). */
export function parseIcd10List(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);
}

export const Icd10Codes = z
  .array(z.string().trim().toUpperCase().max(10))
  .max(12, { error: m.tooManyCodes })
  .superRefine((codes, ctx) => {
    codes.forEach((code, index) => {
      if (!isIcd10Code(code)) ctx.addIssue({ code: 'custom', path: [index], message: m.icd10Invalid(code) });
    });
  });

export const ReferralUrgencyInput = z.enum(REFERRAL_URGENCIES, { error: m.urgencyRequired });

const NewPatient = z.object({
  name: requiredText(m.patientNameRequired, 200),
  email: requiredText(m.patientEmailRequired, 254).pipe(z.email({ error: m.emailInvalid })),
  phone: requiredText(m.patientPhoneRequired, 40),
  dateOfBirth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

const DbId = z.number().int().positive().max(2_147_483_647);

export const CreateReferralInput = z
  .object({
    patientId: DbId.optional(),
    newPatient: NewPatient.optional(),
    /** Staff name the physician; a physician's own referrals are always theirs. */
    physicianId: DbId.optional(),
    reason: z
      .string({ error: m.reasonRequired })
      .trim()
      .min(10, { error: m.reasonRequired })
      .max(5000, { error: m.tooLong(5000) }),
    icd10Codes: Icd10Codes.default([]),
    urgency: ReferralUrgencyInput,
    preferredTestType: z.enum(TEST_TYPES).nullish(),
    preferredKitType: z.enum(KIT_TYPES).nullish(),
    insurance: text(200).default(''),
    notes: text(5000).default(''),
  })
  .superRefine((input, ctx) => {
    if ((input.patientId === undefined) === (input.newPatient === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['patientId'], message: m.patientRequired });
    }
  });
export type CreateReferralInput = z.infer<typeof CreateReferralInput>;

export const ReferralListQuery = z.object({
  status: ReferralStatus.optional(),
  urgency: ReferralUrgencyInput.optional(),
  physicianId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  q: z.string().trim().max(200).optional(),
});
export type ReferralListQuery = z.infer<typeof ReferralListQuery>;

export const ReferralTransitionInput = z
  .object({
    status: ReferralStatus,
    note: text(2000).default(''),
  })
  .superRefine((input, ctx) => {
    if (transitionNeedsReason(input.status) && input.note === '') {
      ctx.addIssue({ code: 'custom', path: ['note'], message: m.reasonForStatus });
    }
  });
export type ReferralTransitionInput = z.infer<typeof ReferralTransitionInput>;

export const BulkTransitionInput = z
  .object({
    ids: z.array(DbId).min(1).max(200),
    status: ReferralStatus,
    note: text(2000).default(''),
  })
  .superRefine((input, ctx) => {
    if (transitionNeedsReason(input.status) && input.note === '') {
      ctx.addIssue({ code: 'custom', path: ['note'], message: m.reasonForStatus });
    }
  });
export type BulkTransitionInput = z.infer<typeof BulkTransitionInput>;

export const LinkBookingInput = z.object({ bookingId: DbId });
export type LinkBookingInput = z.infer<typeof LinkBookingInput>;

/** Staff resolving a public referral's patient: an existing patient, or a new one from the details sent. */
export const LinkReferralPatientInput = z.union([
  z.object({ patientId: DbId }),
  z.object({ createFromSubmission: z.literal(true) }),
]);
export type LinkReferralPatientInput = z.infer<typeof LinkReferralPatientInput>;

export const REFERRAL_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const REFERRAL_ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

// --- Interpretations ------------------------------------------------------------------------

export const SEVERITIES = ['normal', 'mild', 'moderate', 'severe'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** AASM bands on the AHI (or REI), events per hour: < 5 normal, 5–<15 mild, 15–<30 moderate, ≥ 30 severe. */
export function severityOf(ahi: number): Severity {
  if (ahi < 5) return 'normal';
  if (ahi < 15) return 'mild';
  if (ahi < 30) return 'moderate';
  return 'severe';
}

function measure(min: number, max: number) {
  return z
    .number({ error: m.numberRequired })
    .min(min, { error: m.numberRange(min, max) })
    .max(max, { error: m.numberRange(min, max) });
}

export const InterpretationDraftInput = z.object({
  ahi: measure(0, 200).nullish(),
  odi: measure(0, 200).nullish(),
  lowestSpo2: measure(40, 100).nullish(),
  recordingMinutes: measure(0, 4320).nullish(),
  impression: text(5000).default(''),
  recommendation: text(5000).default(''),
});
export type InterpretationDraftInput = z.infer<typeof InterpretationDraftInput>;

/** What must be filled in before signing. */
export const InterpretationFinal = z.object({
  ahi: measure(0, 200),
  odi: measure(0, 200),
  lowestSpo2: measure(40, 100),
  recordingMinutes: measure(0, 4320),
  impression: requiredText(m.impressionRequired, 5000),
  recommendation: requiredText(m.recommendationRequired, 5000),
});

/** Signing saves the values given with it, then signs; the stored draft fills in the rest. */
export const SignInterpretationInput = InterpretationDraftInput.partial().extend({
  /** The reader's password, or a 6-digit TOTP code when they have two-factor on. */
  credential: z
    .string({ error: m.signCredentialRequired })
    .min(1, { error: m.signCredentialRequired })
    .max(200),
});
export type SignInterpretationInput = z.infer<typeof SignInterpretationInput>;

export const AssignReaderInput = z.object({ readerUserId: DbId });
export type AssignReaderInput = z.infer<typeof AssignReaderInput>;

export const AddendumInput = z.object({ text: requiredText(m.addendumRequired, 5000) });
export type AddendumInput = z.infer<typeof AddendumInput>;
