import { type SearchInput, type SearchResult, searchResultUrl } from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { accessFor, applyScope, PATIENT_SCOPE, recordAccess, scopeOf } from '../patients/access.js';

// The global search (spec §2 search dialog): typo-tolerant matching with pg_trgm plus prefix and
// substring matches, ranked, and limited to what the caller may see. Physicians and referrals
// join the results once their tables exist.

/**
 * Below this (word) similarity a fuzzy match is noise. Set per transaction as pg_trgm's
 * thresholds so the matches use the indexable `<%` and `%` operators (trigram GIN indexes)
 * instead of comparing a function's result row by row.
 */
const FUZZY_THRESHOLD = 0.3;
/** Patients whose bookings a name search considers. */
const BOOKING_PATIENT_CANDIDATES = 50;

function whereNameOrContactMatches(w: Knex.QueryBuilder, q: string): void {
  const digits = q.replace(/\D/g, '');
  w.whereRaw('? <% patients.name', [q])
    .orWhereILike('patients.name', likePattern(q, 'anywhere'))
    .orWhereILike('patients.email', likePattern(q, 'prefix'))
    .orWhereRaw('patients.email % ?', [q]);
  // Same expression as the patients_phone_digits_trgm index.
  if (digits.length >= 3)
    w.orWhereRaw("regexp_replace(patients.phone, '\\D', '', 'g') LIKE ?", [`%${digits}%`]);
}

function likePattern(text: string, where: 'prefix' | 'anywhere'): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return where === 'prefix' ? `${escaped}%` : `%${escaped}%`;
}

interface Ranked {
  result: SearchResult;
  score: number;
}

async function searchPatients(ctx: AppContext, db: Knex, q: string, limit: number): Promise<Ranked[]> {
  const prefix = likePattern(q, 'prefix');
  const anywhere = likePattern(q, 'anywhere');
  const digits = q.replace(/\D/g, '');
  const query = db('patients')
    .select(
      'patients.id',
      'name',
      'email',
      db.raw(
        `GREATEST(
          word_similarity(?, name),
          similarity(email, ?),
          CASE WHEN name ILIKE ? OR email ILIKE ? THEN 1.0 ELSE 0 END,
          CASE WHEN name ILIKE ? THEN 0.9 ELSE 0 END,
          CASE WHEN ? <> '' AND regexp_replace(phone, '\\D', '', 'g') LIKE ? THEN 0.8 ELSE 0 END
        ) AS score`,
        [q, q, prefix, prefix, anywhere, digits, `%${digits}%`],
      ),
    )
    .where((w) => whereNameOrContactMatches(w, q))
    .orderBy([{ column: 'score', order: 'desc' }, { column: 'name' }, { column: 'id' }])
    .limit(limit);
  applyScope(query, scopeOf(ctx, 'read', 'Patient'), PATIENT_SCOPE);
  const rows = (await query) as { id: number; name: string; email: string; score: number }[];
  return rows.map((r) => ({
    score: Number(r.score),
    result: {
      type: 'patient',
      id: r.id,
      title: r.name,
      subtitle: r.email,
      url: searchResultUrl('patient', r.id),
    },
  }));
}

async function searchBookings(ctx: AppContext, db: Knex, q: string, limit: number): Promise<Ranked[]> {
  const prefix = likePattern(q, 'prefix');
  const anywhere = likePattern(q, 'anywhere');
  const bookingId = /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : 0;
  // Matching patients and kits first (trigram indexes), then their bookings by index: never a
  // scan of the bookings table.
  const patientIds = (
    (await db('patients')
      .where((w) => whereNameOrContactMatches(w, q))
      .limit(BOOKING_PATIENT_CANDIDATES)
      .pluck('patients.id')) as number[]
  ).map(Number);
  const kitIds = ((await db('kits').whereILike('kit_id', anywhere).pluck('id')) as number[]).map(Number);
  if (patientIds.length === 0 && kitIds.length === 0 && bookingId === 0) return [];
  const query = db('bookings')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .leftJoin('kits', 'kits.id', 'bookings.kit_id')
    .select(
      'bookings.id',
      'bookings.kit_type',
      'bookings.test_type',
      'bookings.start_date',
      'bookings.status',
      'patients.name as patient_name',
      'kits.kit_id as kit_label',
      db.raw(
        `GREATEST(
          CASE WHEN bookings.id = ? THEN 1.0 ELSE 0 END,
          CASE WHEN kits.kit_id ILIKE ? THEN 0.95 ELSE 0 END,
          word_similarity(?, patients.name) * 0.9,
          CASE WHEN patients.name ILIKE ? THEN 0.85 ELSE 0 END
        ) AS score`,
        [bookingId, prefix, q, anywhere],
      ),
    )
    .where((w) =>
      w
        .where('bookings.id', bookingId)
        .orWhereIn('bookings.patient_id', patientIds)
        .orWhereIn('bookings.kit_id', kitIds),
    )
    .orderBy([
      { column: 'score', order: 'desc' },
      { column: 'bookings.start_date', order: 'desc' },
      { column: 'bookings.id' },
    ])
    .limit(limit);
  applyScope(query, scopeOf(ctx, 'read', 'Booking'), PATIENT_SCOPE);
  const rows = (await query) as {
    id: number;
    kit_type: string;
    test_type: string;
    start_date: string;
    status: string;
    patient_name: string;
    kit_label: string | null;
    score: number;
  }[];
  return rows.map((r) => ({
    score: Number(r.score),
    result: {
      type: 'booking',
      id: r.id,
      title: `${r.patient_name} · ${r.test_type} ${r.kit_type}`,
      subtitle: [`#${r.id}`, r.start_date, r.kit_label, r.status.replace('_', ' ')]
        .filter(Boolean)
        .join(' · '),
      url: searchResultUrl('booking', r.id),
    },
  }));
}

/**
 * The best `limit` matches over everything the caller may read. One audit event names how many
 * records of each kind were shown, never the query (it may be a patient's name).
 */
export async function search(ctx: AppContext, input: SearchInput): Promise<SearchResult[]> {
  const { db } = accessFor(ctx);
  const ability = ctx.state.ability;
  const ranked: Ranked[] = await db.transaction(async (trx) => {
    await trx.raw(
      "SELECT set_config('pg_trgm.word_similarity_threshold', ?, true), set_config('pg_trgm.similarity_threshold', ?, true)",
      [String(FUZZY_THRESHOLD), String(FUZZY_THRESHOLD)],
    );
    const found: Ranked[] = [];
    if (ability?.can('read', 'Patient'))
      found.push(...(await searchPatients(ctx, trx, input.query, input.limit)));
    if (ability?.can('read', 'Booking'))
      found.push(...(await searchBookings(ctx, trx, input.query, input.limit)));
    return found;
  });
  ranked.sort(
    (a, b) => b.score - a.score || a.result.type.localeCompare(b.result.type) || a.result.id - b.result.id,
  );
  const results = ranked.slice(0, input.limit).map((r) => r.result);
  await recordAccess(db, ctx, {
    action: 'search.query',
    entityType: 'patient',
    ids: results.filter((r) => r.type === 'patient').map((r) => r.id),
    details: {
      results: results.length,
      bookingIds: results
        .filter((r) => r.type === 'booking')
        .map((r) => r.id)
        .join(','),
    },
  });
  return results;
}
