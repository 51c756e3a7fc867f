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
import { type DirectoryData, searchDirectoryFor } from './directory.js';
import { directoryMatcher } from './directory-matcher.js';
import {
  fuzzyCoversSubstrings,
  fuzzyThreshold,
  fuzzyWords,
  type KitMatch,
  type Matcher,
  type PatientMatch,
  type PhysicianMatch,
  RELATED_CANDIDATES,
  type ReferralCandidates,
  type ReferralMatch,
  typedNumber,
} from './matching.js';

// The global search (spec §2 search dialog): typo-tolerant matching with pg_trgm plus prefix and
// substring matches, ranked, and limited to what the caller may see. People and kits are matched
// by the search directory kept in this process (directory.ts) whenever it is up to date, else by
// the same matching in SQL; bookings and referrals of what matched are then read by index.

function whereNameOrContactMatches(w: Knex.QueryBuilder, q: string): void {
  const digits = q.replace(/\D/g, '');
  w.where((fuzzy) => {
    for (const word of fuzzyWords(q)) fuzzy.whereRaw('? <% patients.name', [word]);
  });
  if (!fuzzyCoversSubstrings(q)) w.orWhereILike('patients.name', likePattern(q, 'anywhere'));
  // Emails by prefix only (fuzzy matching an address matches every address of its domain), on
  // the patients_email_prefix btree; an address has no spaces, so a query with one skips it.
  if (!/\s/.test(q)) w.orWhereRaw('lower(patients.email) LIKE lower(?)', [likePattern(q, 'prefix')]);
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

/** The best `limit` patients for `q` within `scope`, best first. */
async function matchingPatients(
  db: Knex,
  q: string,
  limit: number,
  scope: RecordScope,
): Promise<PatientMatch[]> {
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
          CASE WHEN name ILIKE ? OR lower(email) LIKE lower(?) THEN 1.0 ELSE 0 END,
          CASE WHEN name ILIKE ? THEN 0.9 ELSE 0 END,
          ${digits.length >= 3 ? "CASE WHEN regexp_replace(phone, '\\D', '', 'g') LIKE ? THEN 0.8 ELSE 0 END" : '0'}
        ) AS score`,
        [q, prefix, prefix, anywhere, ...(digits.length >= 3 ? [`%${digits}%`] : [])],
      ),
    )
    .where((w) => whereNameOrContactMatches(w, q))
    .orderBy([{ column: 'score', order: 'desc' }, { column: 'name' }, { column: 'id' }])
    .limit(limit);
  applyScope(query, scope, PATIENT_SCOPE);
  const rows = (await query) as PatientMatch[];
  return rows.map((r) => ({ id: Number(r.id), name: r.name, email: r.email, score: Number(r.score) }));
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

/** Matching in SQL; `<%` needs the query's threshold set in the transaction (see search). */
export function sqlMatcher(db: Knex): Matcher {
  return {
    patients: (q, limit, scope) => matchingPatients(db, q, limit, scope),
    physicians: (q, limit, scope) => matchingPhysicians(db, q, limit, scope),
    referrals: (q, limit, candidates, scope) => matchingReferrals(db, q, limit, candidates, scope),
    kits: async (q) =>
      (
        (await db('kits')
          .whereILike('kit_id', likePattern(q, 'anywhere'))
          .select('id', 'kit_id')) as KitMatch[]
      ).map((k) => ({ id: Number(k.id), kit_id: k.kit_id })),
    directory: null,
  };
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
 * Bookings of the candidate patients, of kits whose label matches, or with the number typed.
 * The candidates are read by index in one statement (the matching kits' most recent `limit`
 * bookings, every booking of the candidate patients) and scored here from what matched; names
 * and labels of the best `limit` come from the directory, or from one more query without it.
 */
async function searchBookings(
  ctx: AppContext,
  db: Knex,
  q: string,
  limit: number,
  patients: PatientMatch[],
  matcher: Matcher,
): Promise<Ranked[]> {
  const bookingId = typedNumber(q);
  const kits = await matcher.kits(q);
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
  // The most recent bookings of the kits whose label starts with the query, and of those that
  // only contain it: one part each, however many kits match.
  const lowerQ = q.toLowerCase();
  const prefixKits = kits.filter((k) => k.kit_id.toLowerCase().startsWith(lowerQ));
  const otherKits = kits.filter((k) => !k.kit_id.toLowerCase().startsWith(lowerQ));
  for (const group of [prefixKits, otherKits].filter((g) => g.length > 0))
    parts.push(
      candidates()
        .whereIn(
          'bookings.kit_id',
          group.map((k) => k.id),
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

  const kitScore = new Map([
    ...prefixKits.map((k) => [Number(k.id), 0.95] as const),
    ...otherKits.map((k) => [Number(k.id), 0.75] as const),
  ]);
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
    best.map(([, { booking }]) => booking),
    matcher.directory,
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
async function bookingDetails(
  db: Knex,
  bookings: BookingCandidate[],
  directory: DirectoryData | null,
): Promise<Map<number, BookingDetails>> {
  if (directory) {
    return new Map(
      bookings.flatMap((b) => {
        const patientName = directory.patientName(Number(b.patient_id));
        if (patientName === undefined) return [];
        const details: BookingDetails = {
          ...b,
          start_date: String(b.start_date),
          patient_name: patientName,
          kit_label: b.kit_id === null ? null : (directory.kits.get(Number(b.kit_id))?.label ?? null),
        };
        return [[Number(b.id), details] as const];
      }),
    );
  }
  const rows = (await db('bookings')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .leftJoin('kits', 'kits.id', 'bookings.kit_id')
    .whereIn(
      'bookings.id',
      bookings.map((b) => b.id),
    )
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

/** The best `limit` physicians by name (typo-tolerant), NPI prefix or practice, within `scope`. */
async function matchingPhysicians(
  db: Knex,
  q: string,
  limit: number,
  scope: RecordScope,
): Promise<PhysicianMatch[]> {
  const prefix = likePattern(q, 'prefix');
  const anywhere = likePattern(q, 'anywhere');
  const query = db('physicians')
    .select(
      'physicians.id',
      'physicians.name',
      'physicians.npi',
      'physicians.practice',
      db.raw(
        `GREATEST(
          word_similarity(?, physicians.name),
          CASE WHEN physicians.npi LIKE ? THEN 1.0 ELSE 0 END,
          CASE WHEN physicians.name ILIKE ? THEN 0.9 ELSE 0 END,
          CASE WHEN physicians.practice ILIKE ? THEN 0.7 ELSE 0 END
        ) AS score`,
        [q, prefix, anywhere, anywhere],
      ),
    )
    .where((w) => {
      w.where((fuzzy) => {
        for (const word of fuzzyWords(q)) fuzzy.whereRaw('? <% physicians.name', [word]);
      })
        .orWhereILike('physicians.name', anywhere)
        .orWhereILike('physicians.practice', anywhere);
      if (/^\d{3,10}$/.test(q)) w.orWhereLike('physicians.npi', prefix);
    })
    .orderBy([{ column: 'score', order: 'desc' }, { column: 'physicians.name' }, { column: 'physicians.id' }])
    .limit(limit);
  applyScope(query, scope, { id: 'physicians.id' });
  const rows = (await query) as PhysicianMatch[];
  return rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
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

/** Referrals of the candidate patients or physicians, or with the number typed, ranked in SQL. */
async function matchingReferrals(
  db: Knex,
  q: string,
  limit: number,
  candidates: ReferralCandidates,
  scope: RecordScope,
): Promise<ReferralMatch[]> {
  const { referralId } = candidates;
  const query = db('referrals')
    .join('patients', 'patients.id', 'referrals.patient_id')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .select(
      'referrals.id',
      'referrals.status',
      'referrals.urgency',
      'patients.name as patient_name',
      'physicians.name as physician_name',
      db.raw(
        `GREATEST(
          CASE WHEN referrals.id = ? THEN 1.0 ELSE 0 END,
          word_similarity(?, patients.name) * 0.9,
          word_similarity(?, physicians.name) * 0.8,
          CASE WHEN patients.name ILIKE ? THEN 0.85 ELSE 0 END
        ) AS score`,
        [referralId, q, q, likePattern(q, 'anywhere')],
      ),
    )
    .where((w) =>
      w
        .where('referrals.id', referralId)
        .orWhereIn('referrals.patient_id', candidates.patientIds)
        .orWhereIn('referrals.physician_id', candidates.physicianIds),
    )
    .orderBy([
      { column: 'score', order: 'desc' },
      { column: 'referrals.id', order: 'desc' },
    ])
    .limit(limit);
  applyScope(query, scope, { physicianId: 'referrals.physician_id' });
  const rows = (await query) as ReferralMatch[];
  return rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
}

/**
 * Referrals of the candidate patients or physicians, or with the number typed. The referred
 * patient's and the referring physician's names rank them.
 */
async function searchReferrals(
  ctx: AppContext,
  q: string,
  limit: number,
  candidates: Omit<ReferralCandidates, 'referralId'>,
  matcher: Matcher,
): Promise<Ranked[]> {
  const referralId = typedNumber(q);
  if (candidates.patientIds.length === 0 && candidates.physicianIds.length === 0 && referralId === 0)
    return [];
  const rows = await matcher.referrals(
    q,
    limit,
    { ...candidates, referralId },
    scopeOf(ctx, 'read', 'Referral'),
  );
  return rows.map((r) => ({
    score: r.score,
    result: {
      type: 'referral',
      id: r.id,
      title: `${r.patient_name} · referral #${r.id}`,
      subtitle: [r.physician_name, r.urgency, r.status].filter(Boolean).join(' · '),
      url: searchResultUrl('referral', r.id),
    },
  }));
}

const ALL: RecordScope = { kind: 'all' };

/**
 * Patients and physicians matching the query: the caller's own results, and the candidates
 * whose bookings and referrals the search considers (matched once, used for both). Candidates
 * are ids only, never shown; bookings and referrals are scoped in their own queries.
 */
async function matchPeople(ctx: AppContext, matcher: Matcher, input: SearchInput) {
  const ability = abilityOf(ctx);
  const { query: q, limit } = input;
  const wantsCandidates = ability.can('read', 'Booking') || ability.can('read', 'Referral');
  const candidateLimit = Math.max(limit, RELATED_CANDIDATES);

  const patientScope = ability.can('read', 'Patient') ? scopeOf(ctx, 'read', 'Patient') : null;
  // A physician's candidates are their own patients, so their bookings are never crowded out.
  const candidateScope = ability.can('read', 'Booking') ? scopeOf(ctx, 'read', 'Booking') : ALL;
  // One query serves both when both see every patient.
  const shared = patientScope?.kind === 'all' && candidateScope.kind === 'all';
  const patientCandidates =
    wantsCandidates || shared ? await matcher.patients(q, candidateLimit, candidateScope) : [];
  const patients =
    patientScope === null
      ? []
      : shared
        ? patientCandidates.slice(0, limit)
        : await matcher.patients(q, limit, patientScope);

  const physicianScope = ability.can('read', 'Physician') ? scopeOf(ctx, 'read', 'Physician') : null;
  const wantsPhysicianCandidates = ability.can('read', 'Referral');
  const physicianCandidates = wantsPhysicianCandidates
    ? await matcher.physicians(q, candidateLimit, ALL)
    : [];
  const physicians =
    physicianScope === null
      ? []
      : physicianScope.kind === 'all' && wantsPhysicianCandidates
        ? physicianCandidates.slice(0, limit)
        : await matcher.physicians(q, limit, physicianScope);
  return { patients, patientCandidates, physicians, physicianCandidates };
}

/** Everything the caller may read that matches, ranked, before the limit. */
async function rankedMatches(
  ctx: AppContext,
  db: Knex,
  input: SearchInput,
  matcher: Matcher,
): Promise<Ranked[]> {
  const ability = abilityOf(ctx);
  const people = await matchPeople(ctx, matcher, input);
  const found: Ranked[] = [...people.patients.map(patientResult), ...people.physicians.map(physicianResult)];
  if (ability.can('read', 'Booking'))
    found.push(
      ...(await searchBookings(ctx, db, input.query, input.limit, people.patientCandidates, matcher)),
    );
  if (ability.can('read', 'Referral'))
    found.push(
      ...(await searchReferrals(
        ctx,
        input.query,
        input.limit,
        {
          patientIds: people.patientCandidates.map((p) => p.id),
          physicianIds: people.physicianCandidates.map((p) => p.id),
        },
        matcher,
      )),
    );
  return found;
}

/**
 * The best `limit` matches over everything the caller may read. One audit event names how many
 * records of each kind were shown, never the query (it may be a patient's name).
 */
export async function search(ctx: AppContext, input: SearchInput): Promise<SearchResult[]> {
  const { db } = accessFor(ctx);
  const directory = await searchDirectoryFor(ctx.services.db.knex).current(
    ctx.state.versions?.searchDirectory,
  );
  const ranked: Ranked[] = directory
    ? await rankedMatches(ctx, db, input, directoryMatcher(directory))
    : // A change is in flight: PostgreSQL matches, with the fuzzy threshold set for this query.
      await db.transaction(async (trx) => {
        await trx.raw("SELECT set_config('pg_trgm.word_similarity_threshold', ?, true)", [
          String(fuzzyThreshold(input.query)),
        ]);
        return rankedMatches(ctx, trx, input, sqlMatcher(trx));
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
      referralIds: results
        .filter((r) => r.type === 'referral')
        .map((r) => r.id)
        .join(','),
    },
  });
  return results;
}
