import type {
  CodeableConcept,
  DeviceRequest,
  DiagnosticReport,
  Identifier,
  Observation,
  Patient,
  Practitioner,
  ServiceRequest,
} from '@medplum/fhirtypes';

// Wellrest records as FHIR R4 resources. Pure: rows in, resources out. Codes: NPI for
// practitioners, ICD-10-CM for referral reasons, LOINC for the AHI (69990-0) and the oxygen
// desaturation index (90567-9); the lowest SpO2 of a study has no LOINC code of its own, so it
// carries the product's local code beside its text.

/** Identifier systems and code systems of the product's own records. */
export const SYSTEMS = {
  npi: 'http://hl7.org/fhir/sid/us-npi',
  icd10: 'http://hl7.org/fhir/sid/icd-10-cm',
  loinc: 'http://loinc.org',
  ucum: 'http://unitsofmeasure.org',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  patient: 'urn:wellrest:patient',
  referral: 'urn:wellrest:referral',
  booking: 'urn:wellrest:booking',
  kit: 'urn:wellrest:kit',
  kitType: 'urn:wellrest:kit-type',
  interpretation: 'urn:wellrest:interpretation',
  localCode: 'urn:wellrest:code',
} as const;

const iso = (value: Date | string | null | undefined): string | undefined =>
  value == null ? undefined : new Date(value).toISOString();
const day = (value: Date | string | null | undefined): string | undefined => {
  if (value == null) return undefined;
  if (typeof value === 'string') return value.slice(0, 10);
  // `date` columns arrive as local-midnight Dates from the pg driver.
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
};
const text = (value: string | null | undefined): string | undefined =>
  value != null && value.trim() !== '' ? value : undefined;

/** A literal reference; it fits any Reference<T> the element asks for. */
interface LiteralReference {
  reference: string;
  display?: string;
}

const ref = (type: string, id: number | null | undefined, display?: string): LiteralReference | undefined =>
  id == null ? undefined : { reference: `${type}/${id}`, ...(display ? { display } : {}) };

/** Leaves out what is undefined, so resources carry no empty elements (FHIR forbids them). */
function compact<T extends object>(resource: T): T {
  return JSON.parse(JSON.stringify(resource)) as T;
}

export interface PatientRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  date_of_birth: Date | string | null;
  gender: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  physician_id: number | null;
  updated_at: Date | string;
}

const GENDER: Record<string, Patient['gender']> = {
  male: 'male',
  female: 'female',
  other: 'other',
  'prefer-not-to-say': 'unknown',
};

export function patientResource(row: PatientRow): Patient {
  const [given, ...rest] = row.name.trim().split(/\s+/);
  const hasAddress = [row.address, row.city, row.state, row.zip_code].some((part) => text(part));
  return compact<Patient>({
    resourceType: 'Patient',
    id: String(row.id),
    meta: { lastUpdated: iso(row.updated_at) },
    identifier: [{ system: SYSTEMS.patient, value: String(row.id) }],
    active: true,
    name: [
      {
        text: row.name,
        ...(rest.length > 0 ? { family: rest.at(-1), given: [given as string, ...rest.slice(0, -1)] } : {}),
      },
    ],
    telecom: [
      ...(text(row.phone) ? [{ system: 'phone' as const, value: row.phone }] : []),
      ...(text(row.email) ? [{ system: 'email' as const, value: row.email }] : []),
    ],
    gender: row.gender ? GENDER[row.gender] : undefined,
    birthDate: day(row.date_of_birth),
    address: hasAddress
      ? [
          {
            line: text(row.address) ? [row.address as string] : undefined,
            city: text(row.city),
            state: text(row.state),
            postalCode: text(row.zip_code),
          },
        ]
      : undefined,
    generalPractitioner:
      row.physician_id == null ? undefined : [ref('Practitioner', row.physician_id) as LiteralReference],
  });
}

export interface PhysicianRow {
  id: number;
  name: string;
  npi: string;
  credentials: string;
  specialty: string | null;
  practice: string | null;
  email: string | null;
  phone: string | null;
  fax: string | null;
  address: string | null;
  status: string;
  updated_at: Date | string;
}

export function practitionerResource(row: PhysicianRow): Practitioner {
  return compact<Practitioner>({
    resourceType: 'Practitioner',
    id: String(row.id),
    meta: { lastUpdated: iso(row.updated_at) },
    identifier: [{ system: SYSTEMS.npi, value: row.npi }],
    active: row.status === 'active',
    name: [{ text: row.name, suffix: text(row.credentials) ? [row.credentials] : undefined }],
    telecom: [
      ...(text(row.phone)
        ? [{ system: 'phone' as const, value: row.phone as string, use: 'work' as const }]
        : []),
      ...(text(row.fax) ? [{ system: 'fax' as const, value: row.fax as string, use: 'work' as const }] : []),
      ...(text(row.email)
        ? [{ system: 'email' as const, value: row.email as string, use: 'work' as const }]
        : []),
    ],
    address: text(row.address) ? [{ text: row.address as string, use: 'work' }] : undefined,
    qualification: text(row.specialty) ? [{ code: { text: row.specialty as string } }] : undefined,
  });
}

export interface ReferralRow {
  id: number;
  request_id: string;
  physician_id: number;
  physician_name: string;
  patient_id: number | null;
  patient_name: string | null;
  status: string;
  urgency: string;
  reason: string;
  icd10_codes: string[] | string;
  notes: string;
  insurance: string;
  created_at: Date | string;
  status_changed_at: Date | string;
  status_reason: string | null;
}

/** Referral status -> ServiceRequest.status (FHIR request-status). */
export const SERVICE_REQUEST_STATUS: Record<string, ServiceRequest['status']> = {
  received: 'active',
  contacted: 'active',
  scheduled: 'active',
  tested: 'active',
  interpreted: 'active',
  reported: 'completed',
  declined: 'revoked',
  cancelled: 'revoked',
};

const HOME_SLEEP_TEST: CodeableConcept = {
  coding: [{ system: SYSTEMS.localCode, code: 'home-sleep-apnea-test', display: 'Home sleep apnea test' }],
  text: 'Home sleep apnea test',
};

export function serviceRequestResource(row: ReferralRow): ServiceRequest {
  const codes =
    typeof row.icd10_codes === 'string' ? (JSON.parse(row.icd10_codes) as string[]) : row.icd10_codes;
  return compact<ServiceRequest>({
    resourceType: 'ServiceRequest',
    id: String(row.id),
    meta: { lastUpdated: iso(row.status_changed_at) },
    identifier: [{ system: SYSTEMS.referral, value: row.request_id }],
    status: SERVICE_REQUEST_STATUS[row.status] ?? 'unknown',
    // A referral is the physician's order for the test.
    intent: 'order',
    priority: row.urgency as ServiceRequest['priority'],
    code: HOME_SLEEP_TEST,
    subject:
      row.patient_id == null
        ? { display: 'Patient not yet linked to a record' }
        : (ref('Patient', row.patient_id, row.patient_name ?? undefined) as LiteralReference),
    requester: ref('Practitioner', row.physician_id, row.physician_name),
    authoredOn: iso(row.created_at),
    reasonCode: [
      ...codes.map((code) => ({ coding: [{ system: SYSTEMS.icd10, code }] })),
      ...(text(row.reason) ? [{ text: row.reason }] : []),
    ],
    note: [
      ...(text(row.notes) ? [{ text: row.notes }] : []),
      ...(text(row.insurance) ? [{ text: `Insurance: ${row.insurance}` }] : []),
      ...(text(row.status_reason) ? [{ text: `Status: ${row.status} (${row.status_reason})` }] : []),
    ],
    // The referral's own status, finer than the request status.
    extension: [{ url: 'urn:wellrest:referral-status', valueCode: row.status }],
  });
}

export interface BookingRow {
  id: number;
  patient_id: number;
  patient_name: string;
  kit_id: number | null;
  kit_label: string | null;
  kit_type: string;
  test_type: string;
  status: string;
  start_date: Date | string;
  end_date: Date | string;
  return_date: Date | string;
  referral_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Booking status -> DeviceRequest.status. */
export const DEVICE_REQUEST_STATUS: Record<string, DeviceRequest['status']> = {
  pending: 'draft',
  confirmed: 'active',
  picked_up: 'active',
  completed: 'completed',
  cancelled: 'revoked',
};

/** The loan of a home sleep-test kit for a booking. */
export function deviceRequestResource(row: BookingRow): DeviceRequest {
  const identifier: Identifier[] = [{ system: SYSTEMS.booking, value: String(row.id) }];
  return compact<DeviceRequest>({
    resourceType: 'DeviceRequest',
    id: String(row.id),
    meta: { lastUpdated: iso(row.updated_at) },
    identifier,
    basedOn:
      row.referral_id == null ? undefined : [ref('ServiceRequest', row.referral_id) as LiteralReference],
    status: DEVICE_REQUEST_STATUS[row.status] ?? 'unknown',
    intent: 'order',
    codeCodeableConcept: {
      coding: [
        { system: SYSTEMS.kitType, code: row.kit_type, display: `${row.kit_type} home sleep-test kit` },
      ],
      text: `${row.kit_type} home sleep-test kit`,
    },
    parameter: [
      { code: { text: 'Test length' }, valueCodeableConcept: { text: row.test_type } },
      ...(row.kit_label ? [{ code: { text: 'Kit' }, valueCodeableConcept: { text: row.kit_label } }] : []),
      { code: { text: 'Return date' }, valueCodeableConcept: { text: day(row.return_date) } },
    ],
    subject: ref('Patient', row.patient_id, row.patient_name) as LiteralReference,
    occurrencePeriod: { start: day(row.start_date), end: day(row.end_date) },
    authoredOn: iso(row.created_at),
  });
}

export interface InterpretationRow {
  id: number;
  referral_id: number;
  patient_id: number | null;
  patient_name: string | null;
  reader_name: string | null;
  physician_id: number;
  ahi: string | number | null;
  odi: string | number | null;
  lowest_spo2: string | number | null;
  severity: string | null;
  impression: string;
  recommendation: string;
  signed_at: Date | string;
  addenda: number | string;
}

interface Measure {
  id: string;
  code: CodeableConcept;
  value: number;
  unit: string;
  ucum: string;
}

function measures(row: InterpretationRow): Measure[] {
  const all: Array<Measure | undefined> = [
    row.ahi == null
      ? undefined
      : {
          id: 'ahi',
          code: {
            coding: [{ system: SYSTEMS.loinc, code: '69990-0', display: 'Apnea hypopnea index 24 hour' }],
            text: 'Apnea-hypopnea index (AHI)',
          },
          value: Number(row.ahi),
          unit: 'events/h',
          ucum: '/h',
        },
    row.odi == null
      ? undefined
      : {
          id: 'odi',
          code: {
            coding: [{ system: SYSTEMS.loinc, code: '90567-9', display: 'Oxygen desaturation index' }],
            text: 'Oxygen desaturation index (ODI)',
          },
          value: Number(row.odi),
          unit: 'events/h',
          ucum: '/h',
        },
    row.lowest_spo2 == null
      ? undefined
      : {
          id: 'lowest-spo2',
          code: {
            coding: [
              {
                system: SYSTEMS.localCode,
                code: 'lowest-spo2',
                display: 'Lowest oxygen saturation during the study',
              },
            ],
            text: 'Lowest SpO2',
          },
          value: Number(row.lowest_spo2),
          unit: '%',
          ucum: '%',
        },
  ];
  return all.filter((m): m is Measure => m !== undefined);
}

/** A signed interpretation: the report, with its measurements as contained Observations. */
export function diagnosticReportResource(row: InterpretationRow): DiagnosticReport {
  const subject = ref('Patient', row.patient_id, row.patient_name ?? undefined) ?? {
    display: 'Patient not yet linked to a record',
  };
  const issued = iso(row.signed_at) as string;
  // The report is effective when it was signed: that is also what `date` searches on.
  const effective = issued;
  const observations: Observation[] = measures(row).map((m) =>
    compact<Observation>({
      resourceType: 'Observation',
      id: m.id,
      status: 'final',
      category: [{ coding: [{ system: SYSTEMS.observationCategory, code: 'exam', display: 'Exam' }] }],
      code: m.code,
      subject,
      effectiveDateTime: effective,
      issued,
      valueQuantity: { value: m.value, unit: m.unit, system: SYSTEMS.ucum, code: m.ucum },
    }),
  );
  return compact<DiagnosticReport>({
    resourceType: 'DiagnosticReport',
    id: String(row.id),
    meta: { lastUpdated: issued },
    contained: observations,
    identifier: [{ system: SYSTEMS.interpretation, value: String(row.id) }],
    basedOn: [ref('ServiceRequest', row.referral_id) as LiteralReference],
    status: Number(row.addenda) > 0 ? 'amended' : 'final',
    code: {
      coding: [
        {
          system: SYSTEMS.localCode,
          code: 'home-sleep-apnea-test-report',
          display: 'Home sleep apnea test report',
        },
      ],
      text: 'Home sleep apnea test interpretation',
    },
    subject,
    effectiveDateTime: effective,
    issued,
    resultsInterpreter: row.reader_name ? [{ display: row.reader_name }] : undefined,
    result: observations.map((o) => ({ reference: `#${o.id}` })),
    conclusion: [text(row.impression), text(row.recommendation)].filter(Boolean).join('\n\n') || undefined,
    conclusionCode: row.severity
      ? [{ coding: [{ system: SYSTEMS.localCode, code: `severity-${row.severity}` }], text: row.severity }]
      : undefined,
  });
}
