import type { PhysicianSignupInput } from '@wellrest/core';
import type { Knex } from 'knex';
import { utmJson } from '../public/patients.js';
import { upsertPhysicianByNpi } from './store.js';

export type SignupStatus = 'pending' | 'approved' | 'rejected';

export interface PhysicianSignupView {
  id: number;
  requestId: string;
  name: string;
  npi: string;
  practice: string;
  email: string;
  phone: string;
  specialty: string;
  status: SignupStatus;
  physicianId: number | null;
  createdAt: string;
}

interface SignupRow {
  id: number;
  request_id: string;
  name: string;
  npi: string;
  practice: string;
  email: string;
  phone: string;
  specialty: string;
  status: SignupStatus;
  physician_id: number | null;
  created_at: Date;
}

function toView(row: SignupRow): PhysicianSignupView {
  return {
    id: row.id,
    requestId: row.request_id,
    name: row.name,
    npi: row.npi,
    practice: row.practice,
    email: row.email,
    phone: row.phone,
    specialty: row.specialty,
    status: row.status,
    physicianId: row.physician_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function createPhysicianSignup(
  db: Knex,
  input: PhysicianSignupInput,
  meta: { requestId: string; embedKeyId: number | null },
): Promise<number> {
  // A new NPI joins the directory as pending, for staff to approve; an existing record is untouched.
  await db('physicians')
    .insert({
      name: input.name,
      npi: input.npi,
      practice: input.practice,
      email: input.email,
      phone: input.phone,
      specialty: input.specialty,
      status: 'pending',
    })
    .onConflict('npi')
    .ignore();
  const [row] = await db('physician_signups')
    .insert({
      request_id: meta.requestId,
      name: input.name,
      npi: input.npi,
      practice: input.practice,
      email: input.email,
      phone: input.phone,
      specialty: input.specialty,
      utm: utmJson(input.utm),
      embed_key_id: meta.embedKeyId,
    })
    .returning('id');
  return (row as { id: number }).id;
}

export async function listPhysicianSignups(db: Knex): Promise<PhysicianSignupView[]> {
  const rows = (await db('physician_signups').orderBy('id', 'desc').limit(500)) as SignupRow[];
  return rows.map(toView);
}

/** Approving creates (or refreshes) the physician record; a decided sign-up stays decided. */
export async function decidePhysicianSignup(
  db: Knex,
  id: number,
  decision: 'approved' | 'rejected',
  userId: number | null,
): Promise<PhysicianSignupView | 'not_found' | 'decided'> {
  const row = (await db('physician_signups').where({ id }).forUpdate().first()) as SignupRow | undefined;
  if (!row) return 'not_found';
  if (row.status !== 'pending') return 'decided';
  const physicianId =
    decision === 'approved'
      ? await upsertPhysicianByNpi(db, {
          name: row.name,
          npi: row.npi,
          practice: row.practice,
          email: row.email,
          phone: row.phone,
          specialty: row.specialty,
        })
      : null;
  const [updated] = (await db('physician_signups')
    .where({ id })
    .update({ status: decision, physician_id: physicianId, decided_by: userId, decided_at: db.fn.now() })
    .returning('*')) as SignupRow[];
  return toView(updated as SignupRow);
}
