import { z } from 'zod';
import { REFERRAL_STATUSES } from '../clinical/model.js';
import { BOOKING_STATUSES, KIT_TYPES, LEAD_SOURCES, TEST_TYPES } from '../enums.js';
import { REFERRAL_URGENCIES } from '../public.js';

// What starts a workflow, and what each start provides: the fields its conditions may test and
// its templates may print. Domain events come from the outbox (written in the transaction of the
// change); the time-based ones and schedules come from the engine's periodic scan.

export const WORKFLOW_TRIGGER_KINDS = [
  'booking.created',
  'booking.status_changed',
  'booking.extended',
  'booking.reduced',
  'booking.pickup_in',
  'booking.return_date_reached',
  'booking.return_overdue',
  'referral.created',
  'referral.status_changed',
  'referral.sla_at_risk',
  'referral.sla_breached',
  'form.submitted',
  'patient.created',
  'kit.needs_cleaning',
  'schedule',
] as const;
export type WorkflowTriggerKind = (typeof WORKFLOW_TRIGGER_KINDS)[number];

/** The record a trigger is about (what status and note actions change, what the loop guard keys on). */
export type WorkflowRecordType = 'booking' | 'referral' | 'patient' | 'kit' | 'form_submission';

/** Triggers fired by an outbox event: the topic written by the domain. */
export const TRIGGER_TOPICS = {
  'booking.created': 'booking.created',
  'booking.status_changed': 'booking.status_changed',
  'booking.extended': 'booking.extended',
  'booking.reduced': 'booking.reduced',
  'referral.created': 'referral.created',
  'referral.status_changed': 'referral.status_changed',
  'referral.sla_at_risk': 'referral.sla_at_risk',
  'referral.sla_breached': 'referral.sla_breached',
  'form.submitted': 'form.submitted',
  'patient.created': 'patient.created',
  'kit.needs_cleaning': 'kit.needs_cleaning',
} as const satisfies Partial<Record<WorkflowTriggerKind, string>>;
export type EventTriggerKind = keyof typeof TRIGGER_TOPICS;

/** Triggers the engine's periodic scan fires (idempotent: one run per record and occasion). */
export const SCANNED_TRIGGER_KINDS = [
  'booking.pickup_in',
  'booking.return_date_reached',
  'booking.return_overdue',
  'schedule',
] as const satisfies readonly WorkflowTriggerKind[];

/** Pickups happen on the start date; "pickup in N hours" counts back from this practice time. */
export const PICKUP_TIME = '09:00';

const BookingStatusOrNull = z.enum(BOOKING_STATUSES).nullable().default(null);
const ReferralStatusOrNull = z.enum(REFERRAL_STATUSES).nullable().default(null);

/** A trigger and its parameters. Validation messages are keyed by the trigger node. */
export const WorkflowTrigger = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('booking.created') }),
  z.object({
    kind: z.literal('booking.status_changed'),
    from: BookingStatusOrNull,
    to: BookingStatusOrNull,
  }),
  z.object({ kind: z.literal('booking.extended') }),
  z.object({ kind: z.literal('booking.reduced') }),
  z.object({ kind: z.literal('booking.pickup_in'), hours: z.number().default(24) }),
  z.object({ kind: z.literal('booking.return_date_reached') }),
  z.object({ kind: z.literal('booking.return_overdue'), businessDays: z.number().default(1) }),
  z.object({ kind: z.literal('referral.created') }),
  z.object({
    kind: z.literal('referral.status_changed'),
    from: ReferralStatusOrNull,
    to: ReferralStatusOrNull,
  }),
  z.object({ kind: z.literal('referral.sla_at_risk') }),
  z.object({ kind: z.literal('referral.sla_breached') }),
  z.object({ kind: z.literal('form.submitted') }),
  z.object({ kind: z.literal('patient.created') }),
  z.object({ kind: z.literal('kit.needs_cleaning') }),
  z.object({ kind: z.literal('schedule'), cron: z.string().max(120).default('0 9 * * 1-5') }),
]);
export type WorkflowTrigger = z.infer<typeof WorkflowTrigger>;

// --- Field catalogue ---------------------------------------------------------------------------

export const FIELD_TYPES = ['string', 'number', 'date', 'boolean', 'enum'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface WorkflowField {
  /** Dotted path: in a condition's `var`, and as a template variable `{{ booking.startDate }}`. */
  readonly path: string;
  readonly label: string;
  readonly type: FieldType;
  /** The choices of an enum field. */
  readonly options?: readonly string[];
  /** Diagnosis, reason, results, medications and the like: never in an SMS (template rules). */
  readonly clinical?: boolean;
  readonly sample: string | number | boolean;
}

const f = (
  path: string,
  label: string,
  type: FieldType,
  sample: string | number | boolean,
  extra: { options?: readonly string[]; clinical?: boolean } = {},
): WorkflowField => ({ path, label, type, sample, ...extra });

const PRACTICE_FIELDS = [
  f('practice.name', 'Practice name', 'string', 'Wellrest Sleep Center'),
  f('practice.phone', 'Practice phone', 'string', '(555) 555-0100'),
  f('practice.email', 'Practice email', 'string', 'care@wellrest.example'),
  f('event.date', 'Date of the event (practice time zone)', 'date', '2031-03-03'),
];
const PATIENT_FIELDS = [
  f('patient.id', 'Patient id', 'number', 1),
  f('patient.firstName', 'Patient first name', 'string', 'Jordan'),
  f('patient.lastName', 'Patient last name', 'string', 'Rivera'),
  f('patient.name', 'Patient full name', 'string', 'Jordan Rivera'),
  f('patient.leadSource', 'Lead source', 'enum', 'Direct', { options: LEAD_SOURCES }),
  f('patient.hasEmail', 'Patient has an email address', 'boolean', true),
  f('patient.hasPhone', 'Patient has a phone number', 'boolean', true),
];
const PATIENT_CLINICAL_FIELDS = [
  f('patient.medications', 'Patient medications', 'string', 'Melatonin 3 mg', { clinical: true }),
  f('patient.medicalHistory', 'Patient medical history', 'string', 'Hypertension', { clinical: true }),
];
const BOOKING_FIELDS = [
  f('booking.id', 'Booking id', 'number', 1),
  f('booking.status', 'Booking status', 'enum', 'confirmed', { options: BOOKING_STATUSES }),
  f('booking.testType', 'Test type', 'enum', '2-day', { options: TEST_TYPES }),
  f('booking.startDate', 'Test start date', 'date', '2031-03-03'),
  f('booking.endDate', 'Test end date', 'date', '2031-03-04'),
  f('booking.returnDate', 'Kit return date', 'date', '2031-03-05'),
];
const BOOKING_CHANGE_FIELDS = [
  f('change.from', 'Previous status', 'enum', 'pending', { options: BOOKING_STATUSES }),
  f('change.to', 'New status', 'enum', 'confirmed', { options: BOOKING_STATUSES }),
];
const KIT_FIELDS = [
  f('kit.type', 'Kit type', 'enum', 'Somfit', { options: KIT_TYPES }),
  f('kit.id', 'Kit id', 'string', 'SOM-001'),
];
const PHYSICIAN_FIELDS = [
  f('physician.name', 'Physician name', 'string', 'Dr. Avery Chen'),
  f('physician.hasEmail', 'Physician has an email address', 'boolean', true),
];
const REFERRAL_FIELDS = [
  f('referral.id', 'Referral id', 'number', 1),
  f('referral.status', 'Referral status', 'enum', 'received', { options: REFERRAL_STATUSES }),
  f('referral.urgency', 'Referral urgency', 'enum', 'routine', { options: REFERRAL_URGENCIES }),
  f('referral.link', 'Referral link', 'string', 'https://ops.example/referrals?referral=1'),
  f('referral.reason', 'Referral reason', 'string', 'Suspected obstructive sleep apnea', { clinical: true }),
  f('referral.diagnosis', 'Referral diagnosis', 'string', 'G47.33', { clinical: true }),
];
const REFERRAL_CHANGE_FIELDS = [
  f('change.from', 'Previous status', 'enum', 'received', { options: REFERRAL_STATUSES }),
  f('change.to', 'New status', 'enum', 'contacted', { options: REFERRAL_STATUSES }),
];
const REPORT_FIELDS = [f('report.link', 'Report link', 'string', 'https://ops.example/reports/1')];
const SLA_FIELDS = [
  f('sla.name', 'SLA target', 'string', 'Received to contacted'),
  f('sla.targetHours', 'SLA target hours', 'number', 24),
];
const FORM_FIELDS = [
  f('form.name', 'Form name', 'string', 'Sleep history questionnaire'),
  f('form.link', 'Form link', 'string', 'https://ops.example/forms/submit/1'),
];
const KIT_CLEANING_FIELDS = [
  f('kit.id', 'Kit id', 'string', 'SOM-001'),
  f('kit.type', 'Kit type', 'enum', 'Somfit', { options: KIT_TYPES }),
  f('kit.cleaningDueOn', 'Cleaning due on', 'date', '2031-03-06'),
];
const OVERDUE_FIELDS = [f('overdue.businessDays', 'Business days overdue', 'number', 2)];

interface TriggerDefinition {
  readonly record: WorkflowRecordType | null;
  readonly fields: readonly WorkflowField[];
}

const BOOKING_RECORD = [...PATIENT_FIELDS, ...BOOKING_FIELDS, ...KIT_FIELDS, ...PRACTICE_FIELDS];
const REFERRAL_RECORD = [
  ...PATIENT_FIELDS,
  ...PATIENT_CLINICAL_FIELDS,
  ...REFERRAL_FIELDS,
  ...PHYSICIAN_FIELDS,
  ...REPORT_FIELDS,
  ...PRACTICE_FIELDS,
];

export const TRIGGER_DEFINITIONS: Readonly<Record<WorkflowTriggerKind, TriggerDefinition>> = {
  'booking.created': { record: 'booking', fields: BOOKING_RECORD },
  'booking.status_changed': { record: 'booking', fields: [...BOOKING_RECORD, ...BOOKING_CHANGE_FIELDS] },
  'booking.extended': { record: 'booking', fields: BOOKING_RECORD },
  'booking.reduced': { record: 'booking', fields: BOOKING_RECORD },
  'booking.pickup_in': { record: 'booking', fields: BOOKING_RECORD },
  'booking.return_date_reached': { record: 'booking', fields: BOOKING_RECORD },
  'booking.return_overdue': { record: 'booking', fields: [...BOOKING_RECORD, ...OVERDUE_FIELDS] },
  'referral.created': { record: 'referral', fields: REFERRAL_RECORD },
  'referral.status_changed': { record: 'referral', fields: [...REFERRAL_RECORD, ...REFERRAL_CHANGE_FIELDS] },
  'referral.sla_at_risk': { record: 'referral', fields: [...REFERRAL_RECORD, ...SLA_FIELDS] },
  'referral.sla_breached': { record: 'referral', fields: [...REFERRAL_RECORD, ...SLA_FIELDS] },
  'form.submitted': {
    record: 'form_submission',
    fields: [...PATIENT_FIELDS, ...FORM_FIELDS, ...PRACTICE_FIELDS],
  },
  'patient.created': { record: 'patient', fields: [...PATIENT_FIELDS, ...PRACTICE_FIELDS] },
  'kit.needs_cleaning': { record: 'kit', fields: [...KIT_CLEANING_FIELDS, ...PRACTICE_FIELDS] },
  schedule: { record: null, fields: PRACTICE_FIELDS },
};

/** The fields a trigger provides, for the condition editor and the variable list. */
export function fieldsFor(kind: WorkflowTriggerKind): readonly WorkflowField[] {
  return TRIGGER_DEFINITIONS[kind].fields;
}

export function fieldOf(kind: WorkflowTriggerKind, path: string): WorkflowField | undefined {
  return TRIGGER_DEFINITIONS[kind].fields.find((field) => field.path === path);
}

/** The record a trigger is about, or null for a schedule. */
export function recordTypeOf(kind: WorkflowTriggerKind): WorkflowRecordType | null {
  return TRIGGER_DEFINITIONS[kind].record;
}

/** Who a message can go to under this trigger. */
export function recipientsFor(kind: WorkflowTriggerKind): { patient: boolean; physician: boolean } {
  const paths = new Set(fieldsFor(kind).map((field) => field.path));
  return { patient: paths.has('patient.id'), physician: paths.has('physician.name') };
}

/** The sample data of a trigger as the nested object conditions and templates read. */
export function sampleContextFor(kind: WorkflowTriggerKind): Record<string, Record<string, unknown>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const field of fieldsFor(kind)) {
    const [group, key] = field.path.split('.') as [string, string];
    data[group] ??= {};
    data[group][key] = field.sample;
  }
  return data;
}

/** The outbox topic → trigger kind, for the engine's subscription. */
export function triggerOfTopic(topic: string): EventTriggerKind | undefined {
  return (Object.keys(TRIGGER_TOPICS) as EventTriggerKind[]).find((kind) => TRIGGER_TOPICS[kind] === topic);
}
