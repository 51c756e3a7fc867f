import {
  type CreatePatientInput,
  MIN_PHONE_DIGITS_TO_MATCH,
  type Page,
  type Patient,
  type PatientDuplicate,
  type PatientDuplicateQuery,
  type PatientExportInput,
  type PatientSortField,
  type PatientTableQuery,
  phoneDigits,
  type UpdatePatientInput,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { fetchPage } from '../../db/paging.js';
import type { AppContext } from '../../http/context.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { accessFor, applyScope, PATIENT_SCOPE, recordAccess, scopeOf } from './access.js';

export interface PatientRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  date_of_birth: string | null;
  gender: Patient['gender'];
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  emergency_contact: string | null;
  emergency_phone: string | null;
  insurance_provider: string | null;
  insurance_policy_number: string | null;
  referring_physician: string | null;
  medical_history: string | null;
  medications: string | null;
  lead_source: Patient['leadSource'];
  ghl_id: string | null;
  physician_id: number | null;
  created_at: Date;
  updated_at: Date;
  created_by: number | null;
}

/** Entity field -> column, for every field a client may write. */
const COLUMNS = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  dateOfBirth: 'date_of_birth',
  gender: 'gender',
  address: 'address',
  city: 'city',
  state: 'state',
  zipCode: 'zip_code',
  emergencyContact: 'emergency_contact',
  emergencyPhone: 'emergency_phone',
  insuranceProvider: 'insurance_provider',
  insurancePolicyNumber: 'insurance_policy_number',
  referringPhysician: 'referring_physician',
  medicalHistory: 'medical_history',
  medications: 'medications',
  leadSource: 'lead_source',
  ghlId: 'ghl_id',
  physicianId: 'physician_id',
} as const satisfies Record<Exclude<keyof Patient, 'id'>, keyof PatientRow>;

export function toPatient(row: PatientRow): Patient {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    dateOfBirth: row.date_of_birth,
    gender: row.gender,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    emergencyContact: row.emergency_contact,
    emergencyPhone: row.emergency_phone,
    insuranceProvider: row.insurance_provider,
    insurancePolicyNumber: row.insurance_policy_number,
    referringPhysician: row.referring_physician,
    medicalHistory: row.medical_history,
    medications: row.medications,
    leadSource: row.lead_source,
    ghlId: row.ghl_id,
    physicianId: row.physician_id,
  };
}

/** The columns a write sets: only the fields present in the input. */
export function toColumns(input: Partial<Omit<Patient, 'id'>>): Partial<Record<string, unknown>> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = input[field as keyof typeof COLUMNS];
    if (value !== undefined) row[column] = value;
  }
  return row;
}

/** The column each sort field orders by. */
const SORT_COLUMNS: Record<PatientSortField, string> = {
  name: 'patients.name',
  email: 'patients.email',
  phone: 'patients.phone',
  dateOfBirth: 'patients.date_of_birth',
  city: 'patients.city',
  leadSource: 'patients.lead_source',
  createdAt: 'patients.created_at',
  id: 'patients.id',
};

const REQUIRED_SORT_FIELDS = new Set([
  'patients.name',
  'patients.email',
  'patients.phone',
  'patients.created_at',
  'patients.id',
]);

/** Orders by the sort the caller chose, empty values last either way, then by id so pages are stable. */
function orderBySort(query: Knex.QueryBuilder, sort: PatientTableQuery['sort']): void {
  const descending = sort.startsWith('-');
  const column = SORT_COLUMNS[(descending ? sort.slice(1) : sort) as PatientSortField];
  const order = descending ? 'desc' : 'asc';
  // Required columns hold no nulls: ordering them without NULLS LAST lets their indexes serve the sort.
  const first = REQUIRED_SORT_FIELDS.has(column)
    ? { column, order }
    : { column, order, nulls: 'last' as const };
  query.orderBy([first, { column: 'patients.id', order: 'asc' }]);
}

/** Case-insensitive match of `q` anywhere in name, email or phone. */
function whereMatches(query: Knex.QueryBuilder, q: string): void {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  query.where((w) =>
    w
      .whereILike('patients.name', pattern)
      .orWhereILike('patients.email', pattern)
      .orWhereILike('patients.phone', pattern),
  );
}

/**
 * Patient data as the caller may see it. Every method limits rows to the caller's scope and
 * records one audit event naming the patients touched.
 */
export function patientStore(ctx: AppContext) {
  const { db } = accessFor(ctx);

  function scoped(action: 'read' | 'update'): Knex.QueryBuilder {
    const query = db('patients');
    applyScope(query, scopeOf(ctx, action, 'Patient'), PATIENT_SCOPE);
    return query;
  }

  /** The readable patients a table filter matches, in its order. */
  function filtered(params: PatientExportInput): Knex.QueryBuilder {
    const query = scoped('read');
    if (params.q) whereMatches(query, params.q);
    if (params.leadSource) query.where('patients.lead_source', params.leadSource);
    orderBySort(query, params.sort);
    return query;
  }

  return {
    async list(params: PatientTableQuery): Promise<Patient[] | Page<Patient>> {
      const query = filtered(params);
      let result: Patient[] | Page<Patient>;
      if (params.page === undefined) {
        result = ((await query.select('*')) as PatientRow[]).map(toPatient);
      } else {
        const { rows, total } = await fetchPage<PatientRow>(
          query,
          ['patients.*'],
          params.page,
          params.pageSize,
        );
        result = { items: rows.map(toPatient), total, page: params.page, pageSize: params.pageSize };
      }
      const items = Array.isArray(result) ? result : result.items;
      await recordAccess(db, ctx, {
        action: 'patient.list',
        entityType: 'patient',
        ids: items.map((p) => p.id),
      });
      return result;
    },

    /**
     * Every patient the filter matches, in the table's order, for the CSV export. The audit event
     * names the filter's shape (sort, lead source, whether a search term was given) and the
     * patients exported, never the search term itself: it is often a name or phone number.
     */
    async export(params: PatientExportInput): Promise<Patient[]> {
      const rows = (await filtered(params).select('patients.*')) as PatientRow[];
      await recordAccess(db, ctx, {
        action: 'patient.export',
        entityType: 'patient',
        ids: rows.map((row) => row.id),
        details: {
          sort: params.sort,
          leadSource: params.leadSource ?? null,
          searched: params.q !== undefined,
        },
      });
      return rows.map(toPatient);
    },

    async get(id: number): Promise<Patient | undefined> {
      const row = (await scoped('read').where('patients.id', id).first()) as PatientRow | undefined;
      if (row) await recordAccess(db, ctx, { action: 'patient.read', entityType: 'patient', ids: [id] });
      return row ? toPatient(row) : undefined;
    },

    /**
     * Readable patients sharing the email address (any case) or the phone number (any spelling)
     * being entered, so the form can offer the existing record instead of a second one.
     */
    async duplicates(input: PatientDuplicateQuery): Promise<PatientDuplicate[]> {
      const email = input.email?.toLowerCase() ?? '';
      const digits = phoneDigits(input.phone ?? '');
      const byEmail = email.includes('@');
      const byPhone = digits.length >= MIN_PHONE_DIGITS_TO_MATCH;
      if (!byEmail && !byPhone) return [];
      const query = scoped('read').where((w) => {
        if (byEmail) w.orWhereRaw('lower(patients.email) = ?', [email]);
        if (byPhone) w.orWhereRaw("regexp_replace(patients.phone, '[^0-9]', '', 'g') = ?", [digits]);
      });
      if (input.excludeId !== undefined) query.whereNot('patients.id', input.excludeId);
      const rows = (await query
        .orderBy('patients.id')
        .limit(5)
        .select('patients.id', 'patients.name', 'patients.email', 'patients.phone')) as Pick<
        PatientRow,
        'id' | 'name' | 'email' | 'phone'
      >[];
      if (rows.length > 0) {
        await recordAccess(db, ctx, {
          action: 'patient.duplicate_check',
          entityType: 'patient',
          ids: rows.map((row) => row.id),
        });
      }
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        matches: [
          ...(byEmail && row.email.toLowerCase() === email ? (['email'] as const) : []),
          ...(byPhone && phoneDigits(row.phone) === digits ? (['phone'] as const) : []),
        ],
      }));
    },

    async create(input: CreatePatientInput): Promise<Patient> {
      const [row] = await db<PatientRow>('patients')
        .insert({ ...toColumns(input), created_by: ctx.state.user?.id ?? null })
        .returning('*');
      if (!row) throw new Error('insert into patients returned no row');
      await writeOutbox(db, 'patient.created', { patientId: row.id });
      await recordAccess(db, ctx, { action: 'patient.create', entityType: 'patient', ids: [row.id] });
      return toPatient(row);
    },

    async update(id: number, input: UpdatePatientInput): Promise<Patient | undefined> {
      const changes = toColumns(input);
      const [row] = (await scoped('update')
        .where('patients.id', id)
        .update({ ...changes, updated_at: db.fn.now() })
        .returning('*')) as PatientRow[];
      if (!row) return undefined;
      await recordAccess(db, ctx, {
        action: 'patient.update',
        entityType: 'patient',
        ids: [id],
        // Which fields changed, never their values.
        details: { fields: Object.keys(input).sort().join(',') },
      });
      return toPatient(row);
    },
  };
}
