import type { PublicReferralInput, RecordScope } from '@wellrest/core';
import type { Knex } from 'knex';
import { applyScope } from '../patients/access.js';
import { upsertPhysicianByNpi } from '../physicians/store.js';
import { matchOrCreatePatient, utmJson } from '../public/patients.js';

/**
 * A physician's referral from the referral widget: the physician is found or created by NPI,
 * the patient matched by email and name or created (lead source Referral, belonging to that
 * physician), and a referral with status 'new' keeps the reason, urgency and attachment.
 */
export async function createReferral(
  db: Knex,
  input: PublicReferralInput,
  meta: { requestId: string; embedKeyId: number | null },
): Promise<{ id: number; physicianId: number; patientId: number }> {
  const physicianId = await upsertPhysicianByNpi(db, input.physician);
  const patient = await matchOrCreatePatient(
    db,
    { ...input.patient, email: input.patient.email || undefined },
    'Referral',
    physicianId,
  );
  const attachment = input.attachment;
  const [row] = await db('referrals')
    .insert({
      request_id: meta.requestId,
      physician_id: physicianId,
      patient_id: patient.id,
      status: 'new',
      urgency: input.urgency,
      reason: input.reason,
      attachment_filename: attachment?.filename ?? null,
      attachment_content_type: attachment?.contentType ?? null,
      attachment_data: attachment ? Buffer.from(attachment.dataBase64, 'base64') : null,
      utm: utmJson(input.utm),
      embed_key_id: meta.embedKeyId,
    })
    .returning('id');
  return { id: (row as { id: number }).id, physicianId, patientId: patient.id };
}

export interface ReferralListItem {
  id: number;
  requestId: string;
  status: string;
  urgency: string;
  reason: string;
  physicianId: number;
  physicianName: string;
  patientId: number;
  patientName: string;
  hasAttachment: boolean;
  createdAt: string;
}

export async function listReferrals(db: Knex, scope: RecordScope): Promise<ReferralListItem[]> {
  const query = db('referrals')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .join('patients', 'patients.id', 'referrals.patient_id')
    .select(
      'referrals.id',
      'referrals.request_id',
      'referrals.status',
      'referrals.urgency',
      'referrals.reason',
      'referrals.physician_id',
      'physicians.name as physician_name',
      'referrals.patient_id',
      'patients.name as patient_name',
      db.raw('referrals.attachment_data is not null as has_attachment'),
      'referrals.created_at',
    )
    .orderBy('referrals.id', 'desc')
    .limit(500);
  applyScope(query, scope, { physicianId: 'referrals.physician_id' });
  const rows = (await query) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    id: row.id as number,
    requestId: row.request_id as string,
    status: row.status as string,
    urgency: row.urgency as string,
    reason: row.reason as string,
    physicianId: row.physician_id as number,
    physicianName: row.physician_name as string,
    patientId: row.patient_id as number,
    patientName: row.patient_name as string,
    hasAttachment: row.has_attachment as boolean,
    createdAt: new Date(row.created_at as string).toISOString(),
  }));
}
