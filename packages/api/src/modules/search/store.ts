import { type RecordScope, type SearchInput, type SearchResult, searchResultUrl } from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import {
  abilityOf,
  accessFor,
  applyScope,
  PATIENT_SCOPE,
  recordAccess,
  scopeOf,
} from '../patients/access.js';
import {
  type KitMatch,
  type PatientMatch,
  type PhysicianMatch,
  RELATED_CANDIDATES,
  type ReferralCandidates,
  typedNumber,
} from './matching.js';
import { matchedRecords, matchTerms, queryTerms, scoreOf, type TermMatches } from './words.js';

// The global search (spec §2 search dialog): patients, physicians and kits matched word by word
// through the search index in PostgreSQL (words.ts, migration 0520), ranked, and limited to what
// the caller may see; bookings and referrals of what matched are then read by index.

interface Ranked {
  result: SearchResult;
  score: number;
}

/** The best `limit` patients matching every word, within `scope`, best first. */
async function matchingPatients(
  db: Knex,
  matches: TermMatches,
  limit: number,
  scope: RecordScope,
): Promise<PatientMatch[]> {
  const query = db
    .from(matchedRecords(db, 'patient', matches))
    .join('patients', 'patients.id', 'm.id')
    .select('patients.id', 'patients.name', 'patients.email', 'm.cost')
    .orderBy([{ column: 'm.cost' }, { column: 'patients.name' }, { column: 'patients.id' }])
    .limit(limit);
  applyScope(query, scope, PATIENT_SCOPE);
  const rows = (await query) as (PatientMatch & { cost: number })[];
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    email: r.email,
    score: scoreOf(Number(r.cost)),
  }));
}

function patientResult(match: PatientMatch): Ranked {
  return {
    score: match.score,
    result: {
      type: 'patient',
      id: match.id,
      title: match.name,
      subtitle: match.email,
      url: searchResultUrl('patient', match.id),
    },
  };
}

/** Kits whose label matches every word, best first. */
async function matchingKits(db: Knex, matches: TermMatches, limit: number): Promise<KitMatch[]> {
  const rows = (await db
    .from(matchedRecords(db, 'kit', matches))
    .join('kits', 'kits.id', 'm.id')
    .select('kits.id', 'kits.kit_id', 'm.cost')
    .orderBy([{ column: 'm.cost' }, { column: 'kits.kit_id' }, { column: 'kits.id' }])
    .limit(limit)) as (KitMatch & { cost: number })[];
  return rows.map((k) => ({ id: Number(k.id), kit_id: k.kit_id, score: scoreOf(Number(k.cost)) }));
}

interface BookingCandidate {
  id: number;
  patient_id: number;
  kit_id: number | null;
  start_date: string;
  kit_type: string;
  test_type: string;
  status: string;
}

interface BookingDetails {
  id: number;
  kit_type: string;
  test_type: string;
  start_date: string;
  status: string;
  patient_name: string;
  kit_label: string | null;
}

/**
 * Bookings of the candidate patients, of the kits whose label matches, or with the number typed.
 * The candidates are read by index in one statement (the matching kits' most recent `limit`
 * bookings, every booking of the candidate patients) and scored here from what matched; the best
 * `limit` are then read with their patients' names and kits' labels.
 */
async function searchBookings(
  ctx: AppContext,
  db: Knex,
  q: string,
  limit: number,
  patients: PatientMatch[],
  kits: KitMatch[],
): Promise<Ranked[]> {
  const bookingId = typedNumber(q);
  if (patients.length === 0 && kits.length === 0 && bookingId === 0) return [];
  const scope = scopeOf(ctx, 'read', 'Booking');
  const candidates = () => {
    const query = db('bookings').select(
      'bookings.id',
      'bookings.patient_id',
      'bookings.kit_id',
      'bookings.start_date',
      'bookings.kit_type',
      'bookings.test_type',
      'bookings.status',
    );
    if (scope.kind !== 'all') query.join('patients', 'patients.id', 'bookings.patient_id');
    applyScope(query, scope, PATIENT_SCOPE);
    return query;
  };
  const parts: Knex.QueryBuilder[] = [];
  if (bookingId > 0) parts.push(candidates().where('bookings.id', bookingId));
  // The most recent bookings of the matching kits, however many kits match.
  if (kits.length > 0)
    parts.push(
      candidates()
        .whereIn(
          'bookings.kit_id',
          kits.map((k) => k.id),
        )
        .orderBy([
          { column: 'bookings.start_date', order: 'desc' },
          { column: 'bookings.id', order: 'desc' },
        ])
        .limit(limit),
    );
  if (patients.length > 0)
    parts.push(
      candidates().whereIn(
        'bookings.patient_id',
        patients.map((p) => p.id),
      ),
    );
  const found = (await db.unionAll(parts, true)) as BookingCandidate[];

  const kitScore = new Map(kits.map((k) => [k.id, k.score * 0.95] as const));
  const patientScore = new Map(patients.map((p) => [p.id, p.score * 0.9] as const));
  const scored = new Map<number, { score: number; booking: BookingCandidate }>();
  for (const b of found) {
    const id = Number(b.id);
    const score = Math.max(
      id === bookingId ? 1 : 0,
      kitScore.get(Number(b.kit_id)) ?? 0,
      patientScore.get(Number(b.patient_id)) ?? 0,
    );
    scored.set(id, { score, booking: b });
  }
  const best = [...scored.entries()]
    .sort(
      ([aId, a], [bId, b]) =>
        b.score - a.score ||
        String(b.booking.start_date).localeCompare(String(a.booking.start_date)) ||
        aId - bId,
    )
    .slice(0, limit);
  if (best.length === 0) return [];

  const details = await bookingDetails(
    db,
    best.map(([id]) => id),
  );
  return best.flatMap(([id, { score }]) => {
    const r = details.get(id);
    if (!r) return [];
    return [
      {
        score,
        result: {
          type: 'booking' as const,
          id,
          title: `${r.patient_name} · ${r.test_type} ${r.kit_type}`,
          subtitle: [`#${id}`, r.start_date, r.kit_label, r.status.replace('_', ' ')]
            .filter(Boolean)
            .join(' · '),
          url: searchResultUrl('booking', id),
        },
      },
    ];
  });
}

/** The bookings shown with their patients' names and kits' labels, by booking id. */
async function bookingDetails(db: Knex, ids: number[]): Promise<Map<number, BookingDetails>> {
  const rows = (await db('bookings')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .leftJoin('kits', 'kits.id', 'bookings.kit_id')
    .whereIn('bookings.id', ids)
    .select(
      'bookings.id',
      'bookings.kit_type',
      'bookings.test_type',
      'bookings.start_date',
      'bookings.status',
      'patients.name as patient_name',
      'kits.kit_id as kit_label',
    )) as BookingDetails[];
  return new Map(rows.map((r) => [Number(r.id), r]));
}

/** The best `limit` physicians matching every word (name, NPI, practice), within `scope`. */
async function matchingPhysicians(
  db: Knex,
  matches: TermMatches,
  limit: number,
  scope: RecordScope,
): Promise<PhysicianMatch[]> {
  const query = db
    .from(matchedRecords(db, 'physician', matches))
    .join('physicians', 'physicians.id', 'm.id')
    .select('physicians.id', 'physicians.name', 'physicians.npi', 'physicians.practice', 'm.cost')
    .orderBy([{ column: 'm.cost' }, { column: 'physicians.name' }, { column: 'physicians.id' }])
    .limit(limit);
  applyScope(query, scope, { id: 'physicians.id' });
  const rows = (await query) as (PhysicianMatch & { cost: number })[];
  return rows.map(({ cost, ...r }) => ({ ...r, id: Number(r.id), score: scoreOf(Number(cost)) }));
}

function physicianResult(match: PhysicianMatch): Ranked {
  return {
    score: match.score,
    result: {
      type: 'physician',
      id: match.id,
      title: match.name,
      subtitle: [`NPI ${match.npi}`, match.practice].filter(Boolean).join(' · '),
      url: searchResultUrl('physician', match.id),
    },
  };
}

interface ReferralRow {
  id: number;
  status: string;
  urgency: string;
  patient_id: number;
  physician_id: number;
  patient_name: string;
  physician_name: string;
}

/**
 * Referrals of the candidate patients or physicians, or with the number typed: ranked as the
 * patient (0.9 of its score) or the physician (0.8) that found them, the number typed first.
 */
async function searchReferrals(
  ctx: AppContext,
  db: Knex,
  limit: number,
  candidates: ReferralCandidates & { scores: Map<string, number> },
): Promise<Ranked[]> {
  const { referralId, patientIds, physicianIds, scores } = candidates;
  if (patientIds.length === 0 && physicianIds.length === 0 && referralId === 0) return [];
  const query = db('referrals')
    .join('patients', 'patients.id', 'referrals.patient_id')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .select(
      'referrals.id',
      'referrals.status',
      'referrals.urgency',
      'referrals.patient_id',
      'referrals.physician_id',
      'patients.name as patient_name',
      'physicians.name as physician_name',
    )
    .where((w) =>
      w
        .where('referrals.id', referralId)
        .orWhereIn('referrals.patient_id', patientIds)
        .orWhereIn('referrals.physician_id', physicianIds),
    );
  applyScope(query, scopeOf(ctx, 'read', 'Referral'), { physicianId: 'referrals.physician_id' });
  const rows = (await query) as ReferralRow[];
  return rows
    .map((r) => ({
      id: Number(r.id),
      row: r,
      score: Math.max(
        Number(r.id) === referralId ? 1 : 0,
        (scores.get(`patient:${r.patient_id}`) ?? 0) * 0.9,
        (scores.get(`physician:${r.physician_id}`) ?? 0) * 0.8,
      ),
    }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .slice(0, limit)
    .map(({ id, row, score }) => ({
      score,
      result: {
        type: 'referral' as const,
        id,
        title: `${row.patient_name} · referral #${id}`,
        subtitle: [row.physician_name, row.urgency, row.status].filter(Boolean).join(' · '),
        url: searchResultUrl('referral', id),
      },
    }));
}

const ALL: RecordScope = { kind: 'all' };

/**
 * Patients and physicians matching the query: the caller's own results, and the candidates
 * whose bookings and referrals the search considers (matched once, used for both). Candidates
 * are ids only, never shown; bookings and referrals are scoped in their own queries.
 */
async function matchPeople(ctx: AppContext, db: Knex, matches: TermMatches, limit: number) {
  const ability = abilityOf(ctx);
  const wantsCandidates = ability.can('read', 'Booking') || ability.can('read', 'Referral');
  const candidateLimit = Math.max(limit, RELATED_CANDIDATES);

  const patientScope = ability.can('read', 'Patient') ? scopeOf(ctx, 'read', 'Patient') : null;
  // A physician's candidates are their own patients, so their bookings are never crowded out.
  const candidateScope = ability.can('read', 'Booking') ? scopeOf(ctx, 'read', 'Booking') : ALL;
  // One query serves both when both see every patient.
  const shared = patientScope?.kind === 'all' && candidateScope.kind === 'all';
  const patientCandidates =
    wantsCandidates || shared ? await matchingPatients(db, matches, candidateLimit, candidateScope) : [];
  const patients =
    patientScope === null
      ? []
      : shared
        ? patientCandidates.slice(0, limit)
        : await matchingPatients(db, matches, limit, patientScope);

  const physicianScope = ability.can('read', 'Physician') ? scopeOf(ctx, 'read', 'Physician') : null;
  const wantsPhysicianCandidates = ability.can('read', 'Referral');
  const physicianCandidates = wantsPhysicianCandidates
    ? await matchingPhysicians(db, matches, candidateLimit, ALL)
    : [];
  const physicians =
    physicianScope === null
      ? []
      : physicianScope.kind === 'all' && wantsPhysicianCandidates
        ? physicianCandidates.slice(0, limit)
        : await matchingPhysicians(db, matches, limit, physicianScope);
  return { patients, patientCandidates, physicians, physicianCandidates };
}

/** Everything the caller may read that matches, ranked, before the limit. */
async function rankedMatches(ctx: AppContext, db: Knex, input: SearchInput): Promise<Ranked[]> {
  const ability = abilityOf(ctx);
  const terms = queryTerms(input.query);
  if (terms.length === 0) return [];
  const matches = await matchTerms(db, terms);
  const people = await matchPeople(ctx, db, matches, input.limit);
  const found: Ranked[] = [...people.patients.map(patientResult), ...people.physicians.map(physicianResult)];
  if (ability.can('read', 'Booking')) {
    const kits = await matchingKits(db, matches, RELATED_CANDIDATES);
    found.push(...(await searchBookings(ctx, db, input.query, input.limit, people.patientCandidates, kits)));
  }
  if (ability.can('read', 'Referral'))
    found.push(
      ...(await searchReferrals(ctx, db, input.limit, {
        referralId: typedNumber(input.query),
        patientIds: people.patientCandidates.map((p) => p.id),
        physicianIds: people.physicianCandidates.map((p) => p.id),
        scores: new Map([
          ...people.patientCandidates.map((p) => [`patient:${p.id}`, p.score] as const),
          ...people.physicianCandidates.map((p) => [`physician:${p.id}`, p.score] as const),
        ]),
      })),
    );
  return found;
}

/**
 * The best `limit` matches over everything the caller may read. One audit event names how many
 * records of each kind were shown, never the query (it may be a patient's name).
 */
export async function search(ctx: AppContext, input: SearchInput): Promise<SearchResult[]> {
  const { db } = accessFor(ctx);
  const ranked = await rankedMatches(ctx, db, input);
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
      referralIds: results
        .filter((r) => r.type === 'referral')
        .map((r) => r.id)
        .join(','),
    },
  });
  return results;
}
