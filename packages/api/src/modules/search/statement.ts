import { createHash } from 'node:crypto';
import type { RecordScope } from '@wellrest/core';
import type { Knex } from 'knex';
import { applyScope, PATIENT_SCOPE } from '../patients/access.js';
import type { RecordKind, TermMatches } from './words.js';

// Everything a search shows, read in one statement once the query's words are matched
// (words.ts): the records matching every word, the bookings and referrals of the best of them,
// scored and cut to the limit in PostgreSQL. One round trip instead of one per record kind: on
// a busy server each round trip costs more than the index lookups it carries.

/** What one search reads, and within which scope; a part left out is not read. */
export interface SearchPlan {
  limit: number;
  /** Patients whose bookings and referrals are considered (never shown as such). */
  patientCandidates?: { scope: RecordScope; limit: number };
  /** Patients shown; `shared` when they are the first `limit` candidates. */
  patients?: { scope: RecordScope } | 'shared';
  /** Physicians whose referrals are considered (every physician). */
  physicianCandidates?: { limit: number };
  /** Physicians shown; `shared` when they are the first `limit` candidates. */
  physicians?: { scope: RecordScope } | 'shared';
  /** Bookings of the candidate patients and of the kits whose label matches. */
  bookings?: { scope: RecordScope; kitLimit: number };
  /** Referrals of the candidate patients and physicians. */
  referrals?: { scope: RecordScope };
  /** The booking or referral number typed, or 0. */
  typedNumber: number;
}

/** One row of the statement's answer; the text columns depend on `type`. */
export interface SearchRow {
  type: 'patient' | 'physician' | 'booking' | 'referral';
  /** 'shown' for records shown, 'candidate' for patient or physician candidates only. */
  role: 'shown' | 'candidate';
  id: number;
  score: number;
  /** The row's place in its part, as the part chose it (1 first). */
  rank: number;
  t1: string | null;
  t2: string | null;
  t3: string | null;
  t4: string | null;
  t5: string | null;
  t6: string | null;
}

/** A record's score from what its words' matches cost: 1 for every word exact (words.ts). */
const SCORE = '1.0::float8 / (1 + m.cost)';

/**
 * The records of the `kinds` matching every term, with what their words' matches cost (the sum
 * over the terms of each term's best match): one index lookup per term's words, joined on the
 * record. `m (kind, id, cost)`.
 */
function matchedRecords(db: Knex, kinds: RecordKind[], matches: TermMatches): Knex.Raw {
  const bindings: Knex.RawBinding[] = [];
  const costs: string[] = [];
  matches.forEach((words, i) => {
    const list = [...words.keys()];
    costs.push(`min((?::int[])[array_position(?::text[], e${i}.word)])`);
    bindings.push(
      list.map((w) => words.get(w) ?? 0),
      list,
    );
  });
  const joins = matches
    .slice(1)
    .map(
      (_, i) =>
        `JOIN search_entries e${i + 1} ON e${i + 1}.kind = e0.kind AND e${i + 1}.record_id = e0.record_id AND e${i + 1}.word = ANY(?::text[])`,
    );
  return db.raw(
    `SELECT e0.kind, e0.record_id AS id, ${costs.join(' + ')} AS cost
     FROM search_entries e0 ${joins.join(' ')}
     WHERE e0.kind = ANY(?::text[]) AND e0.word = ANY(?::text[])
     GROUP BY e0.kind, e0.record_id`,
    [
      ...bindings,
      ...matches.slice(1).map((words) => [...words.keys()]),
      kinds,
      [...(matches[0]?.keys() ?? [])],
    ],
  );
}

/**
 * The best `limit` patients: cheapest match first, then the most recently registered. A common
 * surname matches thousands of patients equally at a million; the newest of them are the likely
 * ones at a front desk, and finding them needs no read of the others' rows. Without a scope the
 * best are chosen from the index alone, and only they are read.
 */
function patientsOf(db: Knex, scope: RecordScope, limit: number): Knex.QueryBuilder {
  const best =
    scope.kind === 'all'
      ? db
          .from('m')
          .where('m.kind', 'patient')
          .select('m.id', 'm.cost')
          .orderBy([{ column: 'm.cost' }, { column: 'm.id', order: 'desc' }])
          .limit(limit)
      : null;
  const query = db
    .from(best ? best.as('m') : 'm')
    .join('patients', 'patients.id', 'm.id')
    .select(
      'patients.id',
      'patients.name',
      'patients.email',
      db.raw(`${SCORE} AS score`),
      db.raw('row_number() OVER (ORDER BY m.cost, m.id DESC) AS rank'),
    )
    .orderBy([{ column: 'm.cost' }, { column: 'm.id', order: 'desc' }])
    .limit(limit);
  if (!best) query.where('m.kind', 'patient');
  applyScope(query, scope, PATIENT_SCOPE);
  return query;
}

function physiciansOf(db: Knex, scope: RecordScope, limit: number): Knex.QueryBuilder {
  const query = db
    .from('m')
    .join('physicians', 'physicians.id', 'm.id')
    .where('m.kind', 'physician')
    .select(
      'physicians.id',
      'physicians.name',
      'physicians.npi',
      'physicians.practice',
      db.raw(`${SCORE} AS score`),
      db.raw('row_number() OVER (ORDER BY m.cost, physicians.name, physicians.id) AS rank'),
    )
    .orderBy([{ column: 'm.cost' }, { column: 'physicians.name' }, { column: 'physicians.id' }])
    .limit(limit);
  applyScope(query, scope, { id: 'physicians.id' });
  return query;
}

/** Kits whose label matches every word, best first. */
function kitsOf(db: Knex, limit: number): Knex.QueryBuilder {
  return db
    .from('m')
    .join('kits', 'kits.id', 'm.id')
    .where('m.kind', 'kit')
    .select('kits.id', db.raw(`${SCORE} AS score`))
    .orderBy([{ column: 'm.cost' }, { column: 'kits.kit_id' }, { column: 'kits.id' }])
    .limit(limit);
}

/**
 * The ids of the bookings considered: the number typed, the most recent `kitLimit` bookings of
 * the matching kits, every booking of the candidate patients; within the caller's scope.
 */
function bookingCandidates(
  db: Knex,
  plan: SearchPlan,
  scope: RecordScope,
  kitLimit: number,
): Knex.QueryBuilder {
  const candidates = () => {
    const query = db('bookings').select('bookings.id');
    if (scope.kind !== 'all') query.join('patients', 'patients.id', 'bookings.patient_id');
    applyScope(query, scope, PATIENT_SCOPE);
    return query;
  };
  // Per matching kit its latest bookings by index, then the latest of them all.
  const ofEachKit = candidates()
    .select('bookings.start_date')
    .whereRaw('bookings.kit_id = k.id')
    .orderBy([
      { column: 'bookings.start_date', order: 'desc' },
      { column: 'bookings.id', order: 'desc' },
    ])
    .limit(kitLimit);
  const parts: Knex.QueryBuilder[] = [
    db
      .from('k')
      .crossJoin(db.raw('LATERAL ? AS kb', [ofEachKit]))
      .select('kb.id')
      .orderBy([
        { column: 'kb.start_date', order: 'desc' },
        { column: 'kb.id', order: 'desc' },
      ])
      .limit(kitLimit),
  ];
  if (plan.typedNumber > 0) parts.push(candidates().where('bookings.id', plan.typedNumber));
  if (plan.patientCandidates)
    parts.push(candidates().whereIn('bookings.patient_id', db.from('pc').select('pc.id')));
  return db.union(parts, true);
}

/**
 * A booking's or referral's score: 1 for the number typed (bound as the one parameter), else the
 * best of what found it, each finder's score already weighted.
 */
function bestOf(table: 'bookings' | 'referrals', finders: string[]): string {
  const found = finders.map((finder) => `coalesce(${finder}, 0)`).join(', ');
  return `greatest(CASE WHEN ${table}.id = ? THEN 1 ELSE 0 END, ${found})::float8`;
}

/**
 * The best `limit` bookings considered, scored as the number typed (1), the kit that found them
 * (0.95 of its score) or the patient (0.9), the better of them; then the latest first.
 */
function bestBookings(db: Knex, plan: SearchPlan): Knex.QueryBuilder {
  const patientScore = plan.patientCandidates ? 'pc.score * 0.9' : '0';
  const score = bestOf('bookings', ['k.score * 0.95', patientScore]);
  const query = db
    .from('bc')
    .join('bookings', 'bookings.id', 'bc.id')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .leftJoin('kits', 'kits.id', 'bookings.kit_id')
    .leftJoin('k', 'k.id', 'bookings.kit_id')
    .select(
      'bookings.id',
      db.raw(`${score} AS score`, [plan.typedNumber]),
      'bookings.start_date',
      'bookings.kit_type',
      'bookings.test_type',
      'bookings.status',
      'patients.name as patient_name',
      'kits.kit_id as kit_label',
      db.raw(`row_number() OVER (ORDER BY ${score} DESC, bookings.start_date DESC, bookings.id) AS rank`, [
        plan.typedNumber,
      ]),
    )
    .orderBy([
      { column: 'score', order: 'desc' },
      { column: 'bookings.start_date', order: 'desc' },
      { column: 'bookings.id', order: 'asc' },
    ])
    .limit(plan.limit);
  if (plan.patientCandidates) query.leftJoin('pc', 'pc.id', 'bookings.patient_id');
  return query;
}

/**
 * The best `limit` referrals of the candidate patients or physicians, or with the number typed,
 * scored as the number typed (1), the patient that found them (0.9 of its score) or the
 * physician (0.8), the better of them; then the latest first.
 */
function bestReferrals(db: Knex, plan: SearchPlan, scope: RecordScope): Knex.QueryBuilder {
  const patientScore = plan.patientCandidates ? 'pc.score * 0.9' : '0';
  const physicianScore = plan.physicianCandidates ? 'phc.score * 0.8' : '0';
  const score = bestOf('referrals', [patientScore, physicianScore]);
  const query = db('referrals')
    .join('patients', 'patients.id', 'referrals.patient_id')
    .join('physicians', 'physicians.id', 'referrals.physician_id')
    .select(
      'referrals.id',
      db.raw(`${score} AS score`, [plan.typedNumber]),
      'referrals.status',
      'referrals.urgency',
      'patients.name as patient_name',
      'physicians.name as physician_name',
      db.raw(`row_number() OVER (ORDER BY ${score} DESC, referrals.id DESC) AS rank`, [plan.typedNumber]),
    )
    .where((w) => {
      w.where('referrals.id', plan.typedNumber);
      if (plan.patientCandidates) w.orWhereIn('referrals.patient_id', db.from('pc').select('pc.id'));
      if (plan.physicianCandidates) w.orWhereIn('referrals.physician_id', db.from('phc').select('phc.id'));
    })
    .orderBy([
      { column: 'score', order: 'desc' },
      { column: 'referrals.id', order: 'desc' },
    ])
    .limit(plan.limit);
  if (plan.patientCandidates) query.leftJoin('pc', 'pc.id', 'referrals.patient_id');
  if (plan.physicianCandidates) query.leftJoin('phc', 'phc.id', 'referrals.physician_id');
  applyScope(query, scope, { physicianId: 'referrals.physician_id' });
  return query;
}

/** A part of the answer in the statement's common shape. */
function rows(
  db: Knex,
  from: string,
  type: SearchRow['type'],
  role: SearchRow['role'],
  texts: string[],
): Knex.QueryBuilder {
  const columns = [...texts, ...Array.from({ length: 6 - texts.length }, () => 'NULL')];
  return db
    .from(from)
    .select(
      db.raw(
        `?::text AS type, ?::text AS role, ${from}.id::bigint AS id, ${from}.score::float8 AS score, ${from}.rank::int AS rank, ${columns
          .map((c, i) => `${c}::text AS t${i + 1}`)
          .join(', ')}`,
        [type, role],
      ),
    );
}

/** Every row a search needs, in one statement. */
export async function readSearch(db: Knex, matches: TermMatches, plan: SearchPlan): Promise<SearchRow[]> {
  const kinds: RecordKind[] = [];
  if (plan.patientCandidates || (plan.patients && plan.patients !== 'shared')) kinds.push('patient');
  if (plan.physicianCandidates || (plan.physicians && plan.physicians !== 'shared')) kinds.push('physician');
  if (plan.bookings) kinds.push('kit');
  if (kinds.length === 0 && plan.typedNumber === 0) return [];

  const query = db.queryBuilder().with('m', matchedRecords(db, kinds, matches));
  const parts: Knex.QueryBuilder[] = [];
  if (plan.patientCandidates) {
    query.with('pc', patientsOf(db, plan.patientCandidates.scope, plan.patientCandidates.limit));
    parts.push(rows(db, 'pc', 'patient', 'candidate', ['pc.name', 'pc.email']));
  }
  if (plan.patients && plan.patients !== 'shared') {
    query.with('ps', patientsOf(db, plan.patients.scope, plan.limit));
    parts.push(rows(db, 'ps', 'patient', 'shown', ['ps.name', 'ps.email']));
  }
  if (plan.physicianCandidates) {
    query.with('phc', physiciansOf(db, { kind: 'all' }, plan.physicianCandidates.limit));
    parts.push(rows(db, 'phc', 'physician', 'candidate', ['phc.name', 'phc.npi', 'phc.practice']));
  }
  if (plan.physicians && plan.physicians !== 'shared') {
    query.with('phs', physiciansOf(db, plan.physicians.scope, plan.limit));
    parts.push(rows(db, 'phs', 'physician', 'shown', ['phs.name', 'phs.npi', 'phs.practice']));
  }
  if (plan.bookings) {
    query.with('k', kitsOf(db, plan.bookings.kitLimit));
    query.with('bc', bookingCandidates(db, plan, plan.bookings.scope, plan.limit));
    query.with('b', bestBookings(db, plan));
    parts.push(
      rows(db, 'b', 'booking', 'shown', [
        'b.patient_name',
        'b.test_type',
        'b.kit_type',
        'b.start_date',
        'b.kit_label',
        'b.status',
      ]),
    );
  }
  if (plan.referrals) {
    query.with('r', bestReferrals(db, plan, plan.referrals.scope));
    parts.push(
      rows(db, 'r', 'referral', 'shown', ['r.patient_name', 'r.physician_name', 'r.urgency', 'r.status']),
    );
  }
  if (parts.length === 0) return [];
  query.select('*').from(db.unionAll(parts, true).as('a'));
  // Prepared once per connection for each shape of the statement (words per query, parts read),
  // and run on connections that keep its generic plan (db/connect.ts): planning this statement
  // costs more than running it. Compiled once here and run as it compiled: compiling the
  // builder costs a busy server more than the statement's round trip.
  const { sql, bindings } = query.toSQL();
  const shape = createHash('sha256').update(sql).digest('hex').slice(0, 24);
  const answer = (await db.raw(sql, bindings).options({ name: `wellrest-search-${shape}` }))
    .rows as (SearchRow & {
    id: string | number;
  })[];
  return answer
    .map((row) => ({ ...row, id: Number(row.id), score: Number(row.score), rank: Number(row.rank) }))
    .sort((a, b) => a.rank - b.rank);
}
