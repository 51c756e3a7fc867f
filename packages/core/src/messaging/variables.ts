// The variables each trigger provides to its templates. A template may use only its trigger's
// variables (checked when it is saved); clinical ones may never go into an SMS and mark an email
// as containing PHI. The sample values feed the live preview.

export const TEMPLATE_CHANNELS = ['email', 'sms'] as const;
export type TemplateChannel = (typeof TEMPLATE_CHANNELS)[number];

export const TEMPLATE_CATEGORIES = ['reminder', 'referral', 'report', 'form', 'account', 'general'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export interface TemplateVariable {
  /** Dotted path as written in a template: `{{ patient.firstName }}`. */
  readonly path: string;
  readonly label: string;
  readonly sample: string;
  /** Diagnosis, reason, results, medications and the like: minimum-necessary rules apply. */
  readonly clinical?: boolean;
}

const v = (path: string, label: string, sample: string, clinical = false): TemplateVariable =>
  clinical ? { path, label, sample, clinical } : { path, label, sample };

const PRACTICE = [
  v('practice.name', 'Practice name', 'Wellrest Sleep Center'),
  v('practice.phone', 'Practice phone', '(555) 555-0100'),
  v('practice.email', 'Practice email', 'care@wellrest.example'),
];
const PATIENT = [
  v('patient.firstName', 'Patient first name', 'Jordan'),
  v('patient.lastName', 'Patient last name', 'Rivera'),
  v('patient.name', 'Patient full name', 'Jordan Rivera'),
];
const PATIENT_CLINICAL = [
  v('patient.medications', 'Patient medications', 'Melatonin 3 mg', true),
  v('patient.medicalHistory', 'Patient medical history', 'Hypertension', true),
];
const BOOKING = [
  v('booking.startDate', 'Test start date', '2031-03-03'),
  v('booking.endDate', 'Test end date', '2031-03-04'),
  v('booking.returnDate', 'Kit return date', '2031-03-05'),
  v('booking.testType', 'Test type', '2-day'),
];
const KIT = [v('kit.type', 'Kit type', 'Somfit'), v('kit.id', 'Kit id', 'SOM-001')];
const PHYSICIAN = [v('physician.name', 'Physician name', 'Dr. Avery Chen')];
const REFERRAL = [
  v('referral.status', 'Referral status', 'received'),
  v('referral.link', 'Referral link', 'https://ops.example/referrals'),
  v('referral.reason', 'Referral reason', 'Suspected obstructive sleep apnea', true),
  v('referral.diagnosis', 'Referral diagnosis', 'G47.33', true),
];
const REPORT = [
  v('report.link', 'Report link', 'https://ops.example/reports/1'),
  v('report.results', 'Report results', 'AHI 18 (moderate)', true),
  v('report.diagnosis', 'Report diagnosis', 'Moderate obstructive sleep apnea', true),
];
const FORM = [
  v('form.name', 'Form name', 'Sleep history questionnaire'),
  v('form.link', 'Form link', 'https://ops.example/forms/submit/1'),
];

export const TEMPLATE_TRIGGERS = [
  'booking.pickup_reminder',
  'booking.return_reminder',
  'booking.return_overdue',
  'referral.received',
  'report.ready',
  'agreement.link',
  'form.link',
  'auth.password_reset',
] as const;
export type TemplateTrigger = (typeof TEMPLATE_TRIGGERS)[number];

/** What each trigger provides, for the variable picker and the save-time check. */
export const TRIGGER_VARIABLES: Readonly<Record<TemplateTrigger, readonly TemplateVariable[]>> = {
  'booking.pickup_reminder': [...PATIENT, ...BOOKING, ...KIT, ...PRACTICE],
  'booking.return_reminder': [...PATIENT, ...BOOKING, ...KIT, ...PRACTICE],
  'booking.return_overdue': [...PATIENT, ...BOOKING, ...KIT, ...PRACTICE],
  'referral.received': [...PHYSICIAN, ...PATIENT, ...REFERRAL, ...PATIENT_CLINICAL, ...PRACTICE],
  'report.ready': [...PHYSICIAN, ...PATIENT, ...REPORT, ...PRACTICE],
  'agreement.link': [
    ...PATIENT,
    ...BOOKING,
    v('form.link', 'Agreement form link', 'https://ops.example/agreement-form?token=sample'),
    ...PRACTICE,
  ],
  'form.link': [...PATIENT, ...FORM, ...PRACTICE],
  'auth.password_reset': [
    v('user.name', 'User name', 'Sam Taylor'),
    v('reset.link', 'Password reset link', 'https://ops.example/set-password?token=sample'),
    ...PRACTICE,
  ],
};

export function variablesFor(trigger: TemplateTrigger): readonly TemplateVariable[] {
  return TRIGGER_VARIABLES[trigger];
}

/** The sample data of a trigger as the nested object a template renders against. */
export function sampleDataFor(trigger: TemplateTrigger): Record<string, unknown> {
  const data: Record<string, Record<string, string>> = {};
  for (const variable of TRIGGER_VARIABLES[trigger]) {
    const [group, key] = variable.path.split('.') as [string, string];
    data[group] ??= {};
    data[group][key] = variable.sample;
  }
  return data;
}
