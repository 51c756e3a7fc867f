import {
  businessDaysBetween,
  type PracticeCalendar,
  recordTypeOf,
  todayInTimeZone,
  type WorkflowRecordType,
  type WorkflowTriggerKind,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppServices } from '../../http/context.js';
import { practiceCalendar } from '../referrals/store.js';

// The data a run works on: the trigger's record read fresh when each step runs (so a condition
// after a wait sees the booking as it is then), shaped as the nested object conditions test and
// templates print (see core's fieldsFor), plus the addresses messages go to.

export interface RecordRef {
  type: WorkflowRecordType;
  id: number;
}

export interface RunContext {
  data: Record<string, Record<string, unknown>>;
  recipients: { patientEmail: string | null; patientPhone: string | null; physicianEmail: string | null };
  patientId: number | null;
  /** The record's physician (for permission checks of status changes). */
  physicianId: number | null;
  /** The record's page in the console. */
  link: string | null;
}

/** Which payload key of an outbox event names the trigger's record. */
const PAYLOAD_KEYS: Record<WorkflowRecordType, string> = {
  booking: 'bookingId',
  referral: 'referralId',
  patient: 'patientId',
  kit: 'kitId',
  form_submission: 'submissionId',
};

export function recordOfEvent(kind: WorkflowTriggerKind, payload: Record<string, unknown>): RecordRef | null {
  const type = recordTypeOf(kind);
  if (!type) return null;
  const id = Number(payload[PAYLOAD_KEYS[type]]);
  return Number.isInteger(id) && id > 0 ? { type, id } : null;
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? '';
const lastName = (name: string) => name.trim().split(/\s+/).slice(1).join(' ');
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const absolute = (publicUrl: string | undefined, path: string) =>
  publicUrl ? new URL(path, publicUrl).toString() : path;

interface PatientRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  lead_source: string;
  medications: string | null;
  medical_history: string | null;
  physician_id: number | null;
}

function patientFields(row: PatientRow | undefined): Record<string, unknown> {
  if (!row) return {};
  return {
    id: row.id,
    firstName: firstName(row.name),
    lastName: lastName(row.name),
    name: row.name,
    leadSource: row.lead_source,
    hasEmail: text(row.email).trim() !== '',
    hasPhone: text(row.phone).trim() !== '',
    medications: text(row.medications),
    medicalHistory: text(row.medical_history),
  };
}

async function patient(db: Knex, id: number | null): Promise<PatientRow | undefined> {
  if (id === null) return undefined;
  return db('patients')
    .where({ id })
    .first('id', 'name', 'email', 'phone', 'lead_source', 'medications', 'medical_history', 'physician_id');
}

/** The practice, the calendar and today, read once per step. */
export async function practiceFacts(services: AppServices, db: Knex, now: Date) {
  const settings = await services.settings.all(db);
  const timeZone = settings.practiceTimeZone || services.config.practiceTimeZone;
  const calendar: PracticeCalendar = await practiceCalendar(db, timeZone);
  return {
    timeZone,
    calendar,
    today: todayInTimeZone(timeZone, now),
    practice: {
      name: settings.practiceName,
      phone: settings.practicePhone,
      email: settings.privacyOfficerEmail,
    },
  };
}

export type PracticeFacts = Awaited<ReturnType<typeof practiceFacts>>;

/** The run's data, or null when its record no longer exists. */
export async function loadRunContext(
  services: AppServices,
  db: Knex,
  kind: WorkflowTriggerKind,
  record: RecordRef | null,
  input: Record<string, unknown>,
  facts: PracticeFacts,
): Promise<RunContext | null> {
  const publicUrl = services.config.publicUrl;
  const data: RunContext['data'] = {
    practice: { ...facts.practice },
    event: { date: facts.today },
  };
  const out: RunContext = {
    data,
    recipients: { patientEmail: null, patientPhone: null, physicianEmail: null },
    patientId: null,
    physicianId: null,
    link: null,
  };
  if (input.from !== undefined || input.to !== undefined)
    data.change = { from: input.from ?? null, to: input.to ?? null };
  if (!record) return out;

  const withPatient = (row: PatientRow | undefined) => {
    data.patient = patientFields(row);
    out.patientId = row?.id ?? null;
    out.physicianId = row?.physician_id ?? null;
    out.recipients.patientEmail = row && row.email.trim() !== '' ? row.email : null;
    out.recipients.patientPhone = row && row.phone.trim() !== '' ? row.phone : null;
  };

  switch (record.type) {
    case 'booking': {
      const row = await db('bookings')
        .leftJoin('kits', 'kits.id', 'bookings.kit_id')
        .where('bookings.id', record.id)
        .first(
          'bookings.id',
          'bookings.patient_id',
          'bookings.status',
          'bookings.test_type',
          'bookings.kit_type',
          'bookings.start_date',
          'bookings.end_date',
          'bookings.return_date',
          'kits.kit_id as kit_code',
        );
      if (!row) return null;
      withPatient(await patient(db, row.patient_id));
      data.booking = {
        id: row.id,
        status: row.status,
        testType: row.test_type,
        startDate: row.start_date,
        endDate: row.end_date,
        returnDate: row.return_date,
      };
      data.kit = { type: row.kit_type, id: text(row.kit_code) };
      if (kind === 'booking.return_overdue')
        data.overdue = { businessDays: businessDaysBetween(row.return_date, facts.today, facts.calendar) };
      out.link = `/bookings-management?booking=${row.id}`;
      return out;
    }
    case 'referral': {
      const row = await db('referrals')
        .leftJoin('physicians', 'physicians.id', 'referrals.physician_id')
        .where('referrals.id', record.id)
        .first(
          'referrals.id',
          'referrals.patient_id',
          'referrals.physician_id',
          'referrals.status',
          'referrals.urgency',
          'referrals.reason',
          'referrals.icd10_codes',
          'physicians.name as physician_name',
          'physicians.email as physician_email',
        );
      if (!row) return null;
      withPatient(await patient(db, row.patient_id));
      out.physicianId = row.physician_id;
      const codes = Array.isArray(row.icd10_codes) ? (row.icd10_codes as string[]) : [];
      data.referral = {
        id: row.id,
        status: row.status,
        urgency: row.urgency,
        reason: text(row.reason),
        diagnosis: codes.join(', '),
        link: absolute(publicUrl, `/referrals?referral=${row.id}`),
      };
      data.physician = { name: text(row.physician_name), hasEmail: text(row.physician_email).trim() !== '' };
      data.report = { link: absolute(publicUrl, `/api/referrals/${row.id}/report.pdf`) };
      out.recipients.physicianEmail = text(row.physician_email).trim() || null;
      if (input.definitionId !== undefined) {
        const definition = await db('sla_definitions')
          .where({ id: Number(input.definitionId) })
          .first();
        data.sla = {
          name: text(definition?.name),
          targetHours: Number(definition?.target_hours ?? 0),
        };
      }
      out.link = `/referrals?referral=${row.id}`;
      return out;
    }
    case 'patient': {
      const row = await patient(db, record.id);
      if (!row) return null;
      withPatient(row);
      out.link = `/patients#patient-${row.id}`;
      return out;
    }
    case 'kit': {
      const row = await db('kits').where({ id: record.id }).first('id', 'kit_id', 'type', 'cleaning_due_on');
      if (!row) return null;
      data.kit = { id: row.kit_id, type: row.type, cleaningDueOn: row.cleaning_due_on ?? '' };
      out.link = '/inventory';
      return out;
    }
    case 'form_submission': {
      const row = await db('form_submissions')
        .leftJoin('form_templates', 'form_templates.id', 'form_submissions.template_id')
        .where('form_submissions.id', record.id)
        .first(
          'form_submissions.id',
          'form_submissions.patient_id',
          'form_templates.name',
          'form_templates.id as template_id',
        );
      if (!row) return null;
      withPatient(await patient(db, row.patient_id));
      data.form = { name: text(row.name), link: absolute(publicUrl, `/forms/submit/${row.template_id}`) };
      out.link = `/patients#patient-${row.patient_id}`;
      return out;
    }
  }
}
