import type {
  PhysicianDetail,
  PhysicianInput,
  PhysicianListQuery,
  PhysicianStatus,
  PhysicianSummary,
  RecordScope,
  UpdatePhysicianInput,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { applyScope } from '../patients/access.js';

export interface PhysicianFields {
  name: string;
  npi: string;
  practice?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  specialty?: string | undefined;
}

/**
 * An administrator approving a sign-up: the physician with this NPI, created or refreshed with the
 * details given (blank ones kept), and active.
 */
export async function upsertPhysicianByNpi(db: Knex, fields: PhysicianFields): Promise<number> {
  const values = {
    name: fields.name,
    npi: fields.npi,
    practice: fields.practice || null,
    email: fields.email || null,
    phone: fields.phone || null,
    specialty: fields.specialty || null,
    status: 'active',
  };
  const [row] = await db('physicians')
    .insert(values)
    .onConflict('npi')
    .merge({
      name: values.name,
      practice: db.raw('coalesce(excluded.practice, physicians.practice)'),
      email: db.raw('coalesce(excluded.email, physicians.email)'),
      phone: db.raw('coalesce(excluded.phone, physicians.phone)'),
      specialty: db.raw('coalesce(excluded.specialty, physicians.specialty)'),
      status: 'active',
      updated_at: db.fn.now(),
    })
    .returning('id');
  return (row as { id: number }).id;
}

// --- The directory -------------------------------------------------------------------------

export interface PhysicianRow {
  id: number;
  name: string;
  credentials: string;
  npi: string;
  specialty: string | null;
  practice: string | null;
  email: string | null;
  phone: string | null;
  fax: string | null;
  address: string | null;
  status: PhysicianStatus;
  created_at: Date;
}

type SummaryRow = PhysicianRow & { referral_count: number; last_referral_at: Date | null };

export function toPhysicianSummary(row: SummaryRow): PhysicianSummary {
  return {
    id: row.id,
    name: row.name,
    credentials: row.credentials ?? '',
    npi: row.npi,
    specialty: row.specialty ?? '',
    practice: row.practice ?? '',
    email: row.email ?? '',
    phone: row.phone ?? '',
    fax: row.fax ?? '',
    address: row.address ?? '',
    status: row.status,
    referralCount: Number(row.referral_count ?? 0),
    lastReferralAt: row.last_referral_at ? new Date(row.last_referral_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function summaryQuery(db: Knex): Knex.QueryBuilder {
  return db('physicians').select(
    'physicians.*',
    db.raw('(select count(*)::int from referrals r where r.physician_id = physicians.id) as referral_count'),
    db.raw(
      '(select max(r.created_at) from referrals r where r.physician_id = physicians.id) as last_referral_at',
    ),
  );
}

export const PHYSICIAN_LIST_LIMIT = 2000;

export async function listPhysicians(
  db: Knex,
  scope: RecordScope,
  filters: PhysicianListQuery,
): Promise<PhysicianSummary[]> {
  const query = summaryQuery(db).orderBy('physicians.name').limit(PHYSICIAN_LIST_LIMIT);
  applyScope(query, scope, { id: 'physicians.id' });
  if (filters.status) query.where('physicians.status', filters.status);
  if (filters.q) {
    const like = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((q) =>
      q
        .whereILike('physicians.name', like)
        .orWhereILike('physicians.practice', like)
        .orWhere('physicians.npi', filters.q ?? ''),
    );
  }
  return ((await query) as SummaryRow[]).map(toPhysicianSummary);
}

export async function physicianDetail(db: Knex, id: number): Promise<PhysicianDetail | null> {
  const row = (await summaryQuery(db).where('physicians.id', id).first()) as SummaryRow | undefined;
  if (!row) return null;
  const users = await db('users').where({ physician_id: id }).orderBy('username').select('id', 'username');
  const patients = await db('patients')
    .where({ physician_id: id })
    .orWhereIn(
      'id',
      db('referrals').where({ physician_id: id }).whereNotNull('patient_id').select('patient_id'),
    )
    .orderBy('name')
    .limit(500)
    .select('id', 'name');
  const perMonth = (await db('referrals')
    .where({ physician_id: id })
    .where('created_at', '>=', db.raw("date_trunc('month', now()) - interval '11 months'"))
    .groupByRaw("to_char(created_at, 'YYYY-MM')")
    .orderByRaw("to_char(created_at, 'YYYY-MM')")
    .select(db.raw("to_char(created_at, 'YYYY-MM') as month"), db.raw('count(*)::int as count'))) as Array<{
    month: string;
    count: number;
  }>;
  const median = (await db('referral_events as e')
    .join('referrals as r', 'r.id', 'e.referral_id')
    .where('r.physician_id', id)
    .where('e.to_status', 'reported')
    .first(
      db.raw(
        'percentile_cont(0.5) within group (order by extract(epoch from (e.created_at - r.created_at)) / 86400) as days',
      ),
    )) as { days: number | null } | undefined;
  return {
    ...toPhysicianSummary(row),
    linkedUsers: users,
    patients,
    referralsPerMonth: perMonth,
    medianDaysToReport: median?.days == null ? null : Math.round(Number(median.days) * 10) / 10,
  };
}

function columnsOf(input: UpdatePhysicianInput): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  const map: Record<keyof UpdatePhysicianInput, string> = {
    name: 'name',
    credentials: 'credentials',
    npi: 'npi',
    specialty: 'specialty',
    practice: 'practice',
    email: 'email',
    phone: 'phone',
    fax: 'fax',
    address: 'address',
    status: 'status',
  };
  for (const [key, column] of Object.entries(map)) {
    const value = input[key as keyof UpdatePhysicianInput];
    if (value !== undefined) columns[column] = value;
  }
  return columns;
}

export async function insertPhysician(db: Knex, input: PhysicianInput): Promise<number> {
  const [row] = await db('physicians').insert(columnsOf(input)).returning('id');
  return (row as { id: number }).id;
}

export async function updatePhysician(db: Knex, id: number, input: UpdatePhysicianInput): Promise<boolean> {
  const changed = await db('physicians')
    .where({ id })
    .update({ ...columnsOf(input), updated_at: db.fn.now() });
  return changed > 0;
}
