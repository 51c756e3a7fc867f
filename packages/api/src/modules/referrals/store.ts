import {
  type CreateReferralInput,
  computeSlas,
  DEFAULT_LETTERHEAD,
  DEFAULT_PRACTICE_CALENDAR,
  type InterpretationView,
  type LetterheadInput,
  type PracticeCalendar,
  type PublicReferralInput,
  REFERRAL_STAGES,
  type RecordScope,
  type ReferralClock,
  type ReferralDetail,
  type ReferralListItem,
  type ReferralListQuery,
  type ReferralStage,
  type ReferralStatus,
  type SlaDefinition,
  type SubmittedPatient,
  type SubmittedPhysician,
  severityOf,
  type TransitionVia,
  worstSlaState,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { writeOutbox } from '../../jobs/outbox.js';
import { applyScope } from '../patients/access.js';
import { getSetting } from '../settings/store.js';

// Referrals: their rows, events, attachments and SLA clocks. Every read takes the caller's row
// scope (a physician's store only ever sees that physician's referrals).

export const REFERRAL_SCOPE = { physicianId: 'referrals.physician_id' } as const;

export interface ReferralRow {
  id: number;
  request_id: string;
  physician_id: number;
  patient_id: number | null;
  status: ReferralStatus;
  urgency: ReferralListItem['urgency'];
  reason: string;
  icd10_codes: string[];
  preferred_test_type: ReferralDetail['preferredTestType'];
  preferred_kit_type: ReferralDetail['preferredKitType'];
  insurance: string;
  notes: string;
  source: 'public' | 'console';
  submitted_physician: SubmittedPhysician | null;
  submitted_patient: SubmittedPatient | null;
  booking_id: number | null;
  status_reason: string | null;
  created_at: Date;
  status_changed_at: Date;
}

const PRACTICE_CALENDAR_KEY = 'practice_calendar';

/** The practice's working week for business-hours clocks (a setting, with Mon–Fri 08:00–17:00 by default). */
export async function practiceCalendar(db: Knex, timeZone: string): Promise<PracticeCalendar> {
  const stored = await getSetting<Partial<PracticeCalendar>>(db, PRACTICE_CALENDAR_KEY);
  return { ...DEFAULT_PRACTICE_CALENDAR, ...(stored ?? {}), timeZone };
}
export { PRACTICE_CALENDAR_KEY };

export const LETTERHEAD_KEY = 'practice_letterhead';

/** The report letterhead (a setting an administrator edits). */
export async function practiceLetterhead(db: Knex): Promise<LetterheadInput> {
  const stored = await getSetting<Partial<LetterheadInput>>(db, LETTERHEAD_KEY);
  return { ...DEFAULT_LETTERHEAD, ...(stored ?? {}) };
}

/** The letterhead as printed on reports: the clinical letterhead with the settings' logo. */
export async function printedLetterhead(db: Knex): Promise<LetterheadInput & { logo: string }> {
  const logo = await getSetting<string>(db, 'letterheadLogo');
  return { ...(await practiceLetterhead(db)), logo: typeof logo === 'string' ? logo : '' };
}

interface DefinitionRow {
  id: number;
  name: string;
  from_stage: ReferralStage;
  to_stage: ReferralStage;
  target_hours: string | number;
  business_hours: boolean;
  urgencies: SlaDefinition['urgencies'];
  active: boolean;
}

export function toDefinition(row: DefinitionRow): SlaDefinition {
  return {
    id: row.id,
    name: row.name,
    fromStage: row.from_stage,
    toStage: row.to_stage,
    targetHours: Number(row.target_hours),
    businessHours: row.business_hours,
    urgencies: row.urgencies,
    active: row.active,
  };
}

export async function listDefinitions(db: Knex): Promise<SlaDefinition[]> {
  const rows = (await db('sla_definitions').orderBy('id')) as DefinitionRow[];
  return rows.map(toDefinition);
}

/** When each referral first reached each stage, from its events. */
export async function stageTimesOf(
  db: Knex,
  ids: readonly number[],
): Promise<Map<number, Partial<Record<ReferralStage, string>>>> {
  const result = new Map<number, Partial<Record<ReferralStage, string>>>();
  if (ids.length === 0) return result;
  const rows = (await db('referral_events')
    .whereIn('referral_id', ids)
    .whereIn('to_status', [...REFERRAL_STAGES])
    .groupBy('referral_id', 'to_status')
    .select('referral_id', 'to_status', db.raw('min(created_at) as at'))) as Array<{
    referral_id: number;
    to_status: ReferralStage;
    at: Date;
  }>;
  for (const row of rows) {
    const times = result.get(row.referral_id) ?? {};
    times[row.to_status] = new Date(row.at).toISOString();
    result.set(row.referral_id, times);
  }
  return result;
}

export interface ClockContext {
  definitions: SlaDefinition[];
  calendar: PracticeCalendar;
  now: Date;
}

export async function clockContext(db: Knex, timeZone: string, now = new Date()): Promise<ClockContext> {
  return { definitions: await listDefinitions(db), calendar: await practiceCalendar(db, timeZone), now };
}

function listQuery(db: Knex): Knex.QueryBuilder {
  return db('referrals')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .leftJoin('patients', 'patients.id', 'referrals.patient_id')
    .select(
      'referrals.*',
      'physicians.name as physician_name',
      'physicians.npi as physician_npi',
      'patients.name as patient_name',
      db.raw(
        '(select count(*)::int from referral_attachments a where a.referral_id = referrals.id) as attachment_count',
      ),
      db.raw(
        '(select i.report_pdf is not null from interpretations i where i.referral_id = referrals.id) as report_ready',
      ),
    );
}

type ListRow = ReferralRow & {
  physician_name: string;
  physician_npi: string;
  patient_name: string | null;
  attachment_count: number;
  report_ready: boolean | null;
};

function toListItem(
  row: ListRow,
  times: Partial<Record<ReferralStage, string>>,
  clocks: ClockContext,
): ReferralListItem {
  const clock: ReferralClock = { urgency: row.urgency, status: row.status, stageTimes: times };
  const sla = computeSlas(clocks.definitions, clock, clocks.calendar, clocks.now);
  return {
    id: row.id,
    requestId: row.request_id,
    status: row.status,
    urgency: row.urgency,
    reason: row.reason,
    icd10Codes: row.icd10_codes ?? [],
    source: row.source,
    physicianId: row.physician_id,
    physicianName: row.physician_name,
    patientId: row.patient_id,
    patientName: row.patient_name ?? row.submitted_patient?.name ?? '',
    bookingId: row.booking_id,
    attachmentCount: row.attachment_count,
    createdAt: new Date(row.created_at).toISOString(),
    statusChangedAt: new Date(row.status_changed_at).toISOString(),
    slaState: worstSlaState(sla),
    sla,
    reportReady: row.report_ready === true,
  };
}

export const REFERRAL_LIST_LIMIT = 1000;

export async function listReferrals(
  db: Knex,
  scope: RecordScope,
  filters: ReferralListQuery,
  clocks: ClockContext,
): Promise<ReferralListItem[]> {
  const query = listQuery(db).orderBy('referrals.id', 'desc').limit(REFERRAL_LIST_LIMIT);
  applyScope(query, scope, REFERRAL_SCOPE);
  if (filters.status) query.where('referrals.status', filters.status);
  if (filters.urgency) query.where('referrals.urgency', filters.urgency);
  if (filters.physicianId) query.where('referrals.physician_id', filters.physicianId);
  if (filters.q) {
    const like = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((q) =>
      q
        .whereILike('patients.name', like)
        .orWhereILike('physicians.name', like)
        .orWhereRaw("referrals.submitted_patient->>'name' ilike ?", [like]),
    );
  }
  const rows = (await query) as ListRow[];
  const times = await stageTimesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toListItem(row, times.get(row.id) ?? {}, clocks));
}

/** The referral if it exists and is within scope; 'denied' when it exists outside it. */
export async function findReferral(
  db: Knex,
  id: number,
  scope: RecordScope,
  options: { lock?: boolean } = {},
): Promise<ReferralRow | 'missing' | 'denied'> {
  const query = db('referrals').where({ id });
  if (options.lock) query.forUpdate();
  const row = (await query.first()) as ReferralRow | undefined;
  if (!row) return 'missing';
  const scoped = db('referrals').where({ id });
  applyScope(scoped, scope, { physicianId: 'physician_id' });
  if (!(await scoped.first('id'))) return 'denied';
  return row;
}

async function interpretationOf(db: Knex, referralId: number): Promise<InterpretationView | null> {
  const row = await db('interpretations')
    .leftJoin('users as reader', 'reader.id', 'interpretations.reader_user_id')
    .leftJoin('users as signer', 'signer.id', 'interpretations.signed_by')
    .where('interpretations.referral_id', referralId)
    .first(
      'interpretations.*',
      'reader.display_name as reader_name',
      'signer.display_name as signer_name',
      db.raw('interpretations.report_pdf is not null as report_ready'),
    );
  if (!row) return null;
  const addenda = await db('interpretation_addenda')
    .leftJoin('users', 'users.id', 'interpretation_addenda.author_user_id')
    .where({ interpretation_id: row.id })
    .orderBy('interpretation_addenda.id')
    .select('interpretation_addenda.*', 'users.display_name as author');
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const ahi = num(row.ahi);
  return {
    id: row.id,
    referralId,
    readerUserId: row.reader_user_id,
    readerName: row.reader_name ?? null,
    assignedAt: row.assigned_at ? new Date(row.assigned_at).toISOString() : null,
    ahi,
    odi: num(row.odi),
    lowestSpo2: num(row.lowest_spo2),
    recordingMinutes: num(row.recording_minutes),
    severity: ahi === null ? null : severityOf(ahi),
    impression: row.impression,
    recommendation: row.recommendation,
    signedAt: row.signed_at ? new Date(row.signed_at).toISOString() : null,
    signedByName: row.signer_name ?? null,
    reportReady: row.report_ready === true,
    addenda: addenda.map((a: { id: number; text: string; author: string | null; created_at: Date }) => ({
      id: a.id,
      text: a.text,
      author: a.author,
      at: new Date(a.created_at).toISOString(),
    })),
  };
}

export async function referralDetail(db: Knex, id: number, clocks: ClockContext): Promise<ReferralDetail> {
  const row = (await listQuery(db).where('referrals.id', id).first()) as ListRow;
  const times = await stageTimesOf(db, [id]);
  const item = toListItem(row, times.get(id) ?? {}, clocks);
  const events = await db('referral_events')
    .leftJoin('users', 'users.id', 'referral_events.actor_user_id')
    .where({ referral_id: id })
    .orderBy('referral_events.id')
    .select('referral_events.*', 'users.display_name as actor');
  const attachments = await db('referral_attachments')
    .where({ referral_id: id })
    .orderBy('created_at')
    .select('id', 'filename', 'content_type', 'size', 'created_at');
  const booking = row.booking_id ? await db('bookings').where({ id: row.booking_id }).first() : null;
  return {
    ...item,
    preferredTestType: row.preferred_test_type,
    preferredKitType: row.preferred_kit_type,
    insurance: row.insurance,
    notes: row.notes,
    statusReason: row.status_reason,
    physicianNpi: row.physician_npi,
    submittedPhysician: row.submitted_physician,
    submittedPatient: row.submitted_patient,
    events: events.map(
      (e: {
        id: string | number;
        from_status: ReferralStatus | null;
        to_status: ReferralStatus;
        via: ReferralDetail['events'][number]['via'];
        note: string;
        actor: string | null;
        created_at: Date;
      }) => ({
        id: Number(e.id),
        fromStatus: e.from_status,
        toStatus: e.to_status,
        via: e.via,
        note: e.note,
        actor: e.actor,
        at: new Date(e.created_at).toISOString(),
      }),
    ),
    attachments: attachments.map(
      (a: { id: string; filename: string; content_type: string; size: number; created_at: Date }) => ({
        id: a.id,
        filename: a.filename,
        contentType: a.content_type,
        size: a.size,
        createdAt: new Date(a.created_at).toISOString(),
      }),
    ),
    booking: booking
      ? {
          id: booking.id,
          status: booking.status,
          kitType: booking.kit_type,
          testType: booking.test_type,
          startDate: booking.start_date,
          endDate: booking.end_date,
          returnDate: booking.return_date,
        }
      : null,
    interpretation: await interpretationOf(db, id),
  };
}

/** Moves a referral and records the event (and the outbox event for workflows and alerts). */
export async function recordTransition(
  db: Knex,
  referral: { id: number; status: ReferralStatus | null },
  to: ReferralStatus,
  via: TransitionVia | 'public' | 'console',
  actorUserId: number | null,
  note = '',
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (referral.status !== null) {
    await db('referrals')
      .where({ id: referral.id })
      .update({
        status: to,
        status_changed_at: db.fn.now(),
        ...(to === 'declined' || to === 'cancelled' ? { status_reason: note } : {}),
        ...extra,
      });
  }
  await db('referral_events').insert({
    referral_id: referral.id,
    from_status: referral.status,
    to_status: to,
    via,
    note,
    actor_user_id: actorUserId,
  });
  await writeOutbox(db, 'referral.status_changed', {
    referralId: referral.id,
    from: referral.status,
    to,
  });
}

async function newRequestId(db: Knex): Promise<string> {
  const row = (await db.raw('select gen_random_uuid()::text as id')) as { rows: Array<{ id: string }> };
  return row.rows[0]?.id ?? '';
}

/** A referral made in the console, by staff or by the referring physician. */
export async function createConsoleReferral(
  db: Knex,
  input: CreateReferralInput & { physicianId: number },
  userId: number,
): Promise<number> {
  let patientId = input.patientId ?? null;
  if (input.newPatient) {
    const [patient] = await db('patients')
      .insert({
        name: input.newPatient.name,
        email: input.newPatient.email,
        phone: input.newPatient.phone,
        date_of_birth: input.newPatient.dateOfBirth || null,
        lead_source: 'Referral',
        physician_id: input.physicianId,
        created_by: userId,
      })
      .returning('id');
    patientId = (patient as { id: number }).id;
  }
  const [row] = await db('referrals')
    .insert({
      request_id: await newRequestId(db),
      physician_id: input.physicianId,
      patient_id: patientId,
      status: 'received',
      urgency: input.urgency,
      reason: input.reason,
      icd10_codes: JSON.stringify(input.icd10Codes),
      preferred_test_type: input.preferredTestType ?? null,
      preferred_kit_type: input.preferredKitType ?? null,
      insurance: input.insurance,
      notes: input.notes,
      source: 'console',
      created_by: userId,
    })
    .returning('id');
  const id = (row as { id: number }).id;
  await recordTransition(db, { id, status: null }, 'received', 'console', userId);
  return id;
}

/**
 * A referral from the public referral widget. It never changes an existing record: the
 * physician is matched by NPI (or created `pending` when the NPI is new) and the details sent
 * are kept on the referral beside the match; the patient is never matched here (staff link or
 * create one when they review it), so nothing a public caller sees depends on who is a patient.
 */
export async function createPublicReferral(
  db: Knex,
  input: PublicReferralInput,
  meta: { requestId: string; embedKeyId: number | null },
  attachment: { filename: string; contentType: string; data: Buffer } | null,
): Promise<{ id: number; physicianId: number; physicianCreated: boolean }> {
  const submittedPhysician: SubmittedPhysician = {
    name: input.physician.name,
    npi: input.physician.npi,
    ...(input.physician.practice ? { practice: input.physician.practice } : {}),
    email: input.physician.email,
    ...(input.physician.phone ? { phone: input.physician.phone } : {}),
  };
  const inserted = (await db('physicians')
    .insert({
      name: input.physician.name,
      npi: input.physician.npi,
      practice: input.physician.practice || null,
      email: input.physician.email || null,
      phone: input.physician.phone || null,
      status: 'pending',
    })
    .onConflict('npi')
    .ignore()
    .returning('id')) as Array<{ id: number }>;
  const physicianCreated = inserted.length > 0;
  const physicianId =
    inserted[0]?.id ??
    ((await db('physicians').where({ npi: input.physician.npi }).first('id')) as { id: number }).id;
  const submittedPatient: SubmittedPatient = {
    name: input.patient.name,
    phone: input.patient.phone,
    ...(input.patient.email ? { email: input.patient.email } : {}),
    ...(input.patient.dateOfBirth ? { dateOfBirth: input.patient.dateOfBirth } : {}),
  };
  const [row] = await db('referrals')
    .insert({
      request_id: meta.requestId,
      physician_id: physicianId,
      patient_id: null,
      status: 'received',
      urgency: input.urgency,
      reason: input.reason,
      source: 'public',
      submitted_physician: JSON.stringify(submittedPhysician),
      submitted_patient: JSON.stringify(submittedPatient),
      utm: JSON.stringify(Object.fromEntries(Object.entries(input.utm ?? {}).filter(([, v]) => v))),
      embed_key_id: meta.embedKeyId,
    })
    .returning('id');
  const id = (row as { id: number }).id;
  if (attachment) {
    await db('referral_attachments').insert({
      id: db.raw('gen_random_uuid()'),
      referral_id: id,
      filename: attachment.filename,
      content_type: attachment.contentType,
      size: attachment.data.length,
      data: attachment.data,
    });
  }
  await recordTransition(db, { id, status: null }, 'received', 'public', null);
  return { id, physicianId, physicianCreated };
}
