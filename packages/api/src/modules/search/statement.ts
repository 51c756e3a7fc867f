import { createHash } from 'node:crypto';
import type { RecordScope } from '@wellrest/core';
import type { Knex } from 'knex';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { PATIENT_SCOPE, scopeCondition } from '../patients/access.js';
import { type JoinedMatches, LOOKUP_RATIO, type RecordKind } from './words.js';

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

/** One record shown, in the order shown; the text columns depend on `type`. */
export interface SearchRow {
  type: 'patient' | 'physician' | 'booking' | 'referral';
  id: number;
  t1: string | null;
  t2: string | null;
  t3: string | null;
  t4: string | null;
  t5: string | null;
  t6: string | null;
}

/** A record's score from what its words' matches cost: 1 for every word exact (words.ts). */
const SCORE = raw('1.0::float8 / (1 + m.cost)');

/** A term's matched words and what each costs, in the same order. */
function wordsAndCosts(term: Map<string, number>): [string[], number[]] {
  const words = [...term.keys()];
  return [words, words.map((word) => term.get(word) ?? 0)];
}

/**
 * The records of the `kinds` matching every term, with what their words' matches cost (the sum
 * over the terms of each term's best match): `m (kind, id, cost)`. The first term's entries are
 * read (the fewest, words.ts inJoinOrder). The second's are read too and joined by hash unless
 * they are LOOKUP_RATIO times as many (words.ts); otherwise it is, like every later term, looked
 * up in the index for each record found so far. A rare surname with a common first name (a few
 * hundred entries against tens of thousands) or a middle initial then costs a lookup per record,
 * not a read of the common word's every entry. The records found and their costs are the same
 * either way. A generic plan cannot know how many entries a word has, so how each term is joined
 * is written into the statement rather than left to the plan.
 *
 * With `newestPatients`, a one-term query's patients are only the newest that many of each word
 * (by index, newest first) rather than every patient of every word: a common surname has
 * thousands at a million patients, and only the first `newestPatients` by cost, then newest, are
 * ever read (patientsOf). That first part is the same either way: a patient among them matched
 * through a word at its best cost, and fewer than that many of that word's patients are newer.
 * Only for a caller who sees every patient (a scoped list may need older ones).
 */
function matchedRecords(kinds: RecordKind[], matches: JoinedMatches, newestPatients?: number): Sql {
  const { terms, sizes } = matches;
  const [first = new Map<string, number>(), second] = terms;
  if (newestPatients !== undefined && terms.length === 1 && kinds.includes('patient')) {
    const [words, costs] = wordsAndCosts(first);
    const patients = sql`SELECT 'patient'::text AS kind, p.record_id AS id, min(w.cost) AS cost
      FROM unnest(${words}::text[], ${costs}::int[]) AS w (word, cost)
      CROSS JOIN LATERAL (SELECT e.record_id FROM search_entries e WHERE e.word = w.word AND e.kind = 'patient'
        ORDER BY e.record_id DESC LIMIT ${newestPatients}) AS p
      GROUP BY p.record_id`;
    const others = kinds.filter((kind) => kind !== 'patient');
    if (others.length === 0) return patients;
    return sql`(${patients}) UNION ALL (${matchedRecords(others, matches)})`;
  }
  const cost = (term: Map<string, number>, entry: string) => {
    const [words, wordCosts] = wordsAndCosts(term);
    return sql`min((${wordCosts}::int[])[array_position(${words}::text[], ${raw(entry)}.word)])`;
  };
  const hashed = second !== undefined && (sizes[1] ?? 0) < LOOKUP_RATIO * (sizes[0] ?? 0);
  const read = sql`SELECT e0.kind, e0.record_id AS id, ${cost(first, 'e0')}${hashed ? sql` + ${cost(second, 'e1')}` : empty} AS cost
     FROM search_entries e0${hashed ? sql` JOIN search_entries e1 ON e1.kind = e0.kind AND e1.record_id = e0.record_id AND e1.word = ANY(${[...second.keys()]}::text[])` : empty}
     WHERE e0.kind = ANY(${kinds}::text[]) AND e0.word = ANY(${[...first.keys()]}::text[])
     GROUP BY e0.kind, e0.record_id`;
  const lookedUp = terms.slice(hashed ? 2 : 1);
  if (lookedUp.length === 0) return read;
  // Each looked-up term's best cost for the record, or no row when none of its words is the record's.
  const lookups = lookedUp.map(
    (term, i) => sql`CROSS JOIN LATERAL (SELECT ${cost(term, 'e')} AS cost FROM search_entries e
      WHERE e.kind = r.kind AND e.record_id = r.id AND e.word = ANY(${[...term.keys()]}::text[])
      HAVING count(*) > 0) AS ${raw(`l${i}`)}`,
  );
  const costs = lookedUp.map((_, i) => raw(`l${i}.cost`));
  return sql`SELECT r.kind, r.id, r.cost + ${join(costs, ' + ')} AS cost FROM (${read}) AS r ${join(lookups, ' ')}`;
}

/**
 * How many of the newest patients of each word a one-term query needs (matchedRecords): the most
 * any list of patients shown or considered reads, when every such list sees every patient.
 */
function newestPatientsNeeded(plan: SearchPlan): number | undefined {
  const { patientCandidates: candidates, patients } = plan;
  if (candidates && candidates.scope.kind !== 'all') return undefined;
  if (patients && patients !== 'shared' && patients.scope.kind !== 'all') return undefined;
  return Math.max(candidates?.limit ?? 0, plan.limit);
}

/**
 * The best `limit` patients, `(id, score, rank)`: cheapest match first, then the most recently
 * registered. A common surname matches thousands of patients equally at a million; the newest of
 * them are the likely ones at a front desk, and finding them needs no read of the others' rows.
 * Without a scope the best are chosen from the index alone; the rows of those shown are read with
 * the answer (PATIENT_ROWS), not those only considered for their bookings and referrals.
 */
function patientsOf(scope: RecordScope, limit: number): Sql {
  const ranked = sql`${SCORE} AS score, row_number() OVER (ORDER BY m.cost, m.id DESC) AS rank`;
  if (scope.kind === 'all')
    return sql`SELECT m.id, ${ranked} FROM m WHERE m.kind = 'patient' ORDER BY m.cost, m.id DESC LIMIT ${limit}`;
  return sql`SELECT patients.id, ${ranked}
    FROM m JOIN patients ON patients.id = m.id
    WHERE m.kind = 'patient' AND ${scopeCondition(scope, PATIENT_SCOPE)}
    ORDER BY m.cost, m.id DESC LIMIT ${limit}`;
}

/** A patient's texts shown, read for the patients shown only (patientsOf). */
const PATIENT_ROWS = { texts: ['patients.name', 'patients.email'], join: 'patients' } as const;

function physiciansOf(scope: RecordScope, limit: number): Sql {
  return sql`SELECT physicians.id, physicians.name, physicians.npi, physicians.practice, ${SCORE} AS score,
      row_number() OVER (ORDER BY m.cost, physicians.name, physicians.id) AS rank
    FROM m JOIN physicians ON physicians.id = m.id
    WHERE m.kind = 'physician' AND ${scopeCondition(scope, { id: 'physicians.id' })}
    ORDER BY m.cost, physicians.name, physicians.id LIMIT ${limit}`;
}

/** Kits whose label matches every word, best first. */
function kitsOf(limit: number): Sql {
  return sql`SELECT kits.id, ${SCORE} AS score
    FROM m JOIN kits ON kits.id = m.id
    WHERE m.kind = 'kit'
    ORDER BY m.cost, kits.kit_id, kits.id LIMIT ${limit}`;
}

/**
 * A booking or referral found through a matching kit, patient or physician scores that record's
 * score times its weight here; one found by the number typed scores 1.
 */
const FOUND_THROUGH = { kit: 0.95, patient: 0.9, physician: 0.8 } as const;

/**
 * The bookings considered, each with the score of what found it: the number typed (1), the
 * latest `kitLimit` bookings of the matching kits (0.95 of the kit's score), every booking of the
 * candidate patients (0.9 of the patient's score, or 0.95 of its kit's when that matched better);
 * within the caller's scope. `bc (id, start_date, score)`, a booking once for each way it was found.
 */
function bookingCandidates(plan: SearchPlan, scope: RecordScope, kitLimit: number): Sql {
  const candidates = (columns: Sql, from: Sql, condition: Sql) =>
    scope.kind === 'all'
      ? sql`SELECT ${columns} FROM ${from} WHERE ${condition}`
      : sql`SELECT ${columns} FROM ${from} JOIN patients ON patients.id = bookings.patient_id
          WHERE ${scopeCondition(scope, PATIENT_SCOPE)} AND ${condition}`;
  // Per matching kit its latest bookings by index, then the latest of them all.
  const ofEachKit = candidates(
    raw(`bookings.id, bookings.start_date, k.score * ${FOUND_THROUGH.kit} AS score`),
    raw('bookings'),
    raw('bookings.kit_id = k.id'),
  );
  const parts = [
    sql`SELECT kb.id, kb.start_date, kb.score FROM k CROSS JOIN LATERAL (${ofEachKit} ORDER BY bookings.start_date DESC, bookings.id DESC LIMIT ${kitLimit}) AS kb
      WHERE ${raw(`k.score * ${FOUND_THROUGH.kit}`)} >= (SELECT t.score FROM t)
      ORDER BY kb.start_date DESC, kb.id DESC LIMIT ${kitLimit}`,
  ];
  if (plan.typedNumber > 0)
    parts.push(
      candidates(
        raw('bookings.id, bookings.start_date, 1::float8 AS score'),
        raw('bookings'),
        sql`bookings.id = ${plan.typedNumber}`,
      ),
    );
  if (plan.patientCandidates)
    parts.push(
      candidates(
        raw(
          `bookings.id, bookings.start_date, greatest(pc.score * ${FOUND_THROUGH.patient}, coalesce(k.score * ${FOUND_THROUGH.kit}, 0)) AS score`,
        ),
        raw('pc JOIN bookings ON bookings.patient_id = pc.id LEFT JOIN k ON k.id = bookings.kit_id'),
        // A booking scores at most the better of its patient's and the best kit's weighted score.
        raw(
          `greatest(pc.score * ${FOUND_THROUGH.patient}, (SELECT max(k.score) FROM k) * ${FOUND_THROUGH.kit}) >= (SELECT t.score FROM t)`,
        ),
      ),
    );
  return join(parts, ') UNION ALL (', '(', ')');
}

/**
 * The best `limit` bookings considered, each scored by the best way it was found (the number
 * typed, its kit or its patient); then the latest first. Only those are read whole.
 */
function bestBookings(plan: SearchPlan): Sql {
  return sql`SELECT bookings.id, best.score, bookings.start_date, bookings.kit_type, bookings.test_type,
      bookings.status, patients.name AS patient_name, kits.kit_id AS kit_label,
      row_number() OVER (ORDER BY best.score DESC, bookings.start_date DESC, bookings.id) AS rank
    FROM (SELECT bc.id, bc.start_date, max(bc.score)::float8 AS score FROM bc GROUP BY bc.id, bc.start_date
      ORDER BY score DESC, bc.start_date DESC, bc.id LIMIT ${plan.limit}) AS best
    JOIN bookings ON bookings.id = best.id
    JOIN patients ON patients.id = bookings.patient_id
    LEFT JOIN kits ON kits.id = bookings.kit_id
    ORDER BY best.score DESC, bookings.start_date DESC, bookings.id LIMIT ${plan.limit}`;
}

/**
 * The best `limit` referrals with the number typed (scored 1), of the candidate patients (0.9 of
 * the patient's score) or of the candidate physicians (0.8 of the physician's), each by the best
 * way it was found; then the latest first. Each way is an index lookup; only the best are read whole.
 */
function bestReferrals(plan: SearchPlan, scope: RecordScope): Sql {
  const inScope = scopeCondition(scope, { physicianId: 'referrals.physician_id' });
  const found = [
    sql`SELECT referrals.id, 1::float8 AS score FROM referrals WHERE referrals.id = ${plan.typedNumber} AND ${inScope}`,
  ];
  if (plan.patientCandidates)
    found.push(
      sql`SELECT referrals.id, pc.score * ${raw(String(FOUND_THROUGH.patient))} FROM pc JOIN referrals ON referrals.patient_id = pc.id
        WHERE pc.score * ${raw(String(FOUND_THROUGH.patient))} >= (SELECT t.score FROM t) AND ${inScope}`,
    );
  if (plan.physicianCandidates)
    found.push(
      sql`SELECT referrals.id, phc.score * ${raw(String(FOUND_THROUGH.physician))} FROM phc JOIN referrals ON referrals.physician_id = phc.id
        WHERE phc.score * ${raw(String(FOUND_THROUGH.physician))} >= (SELECT t.score FROM t) AND ${inScope}`,
    );
  return sql`SELECT referrals.id, best.score, referrals.status, referrals.urgency,
      patients.name AS patient_name, physicians.name AS physician_name,
      row_number() OVER (ORDER BY best.score DESC, referrals.id DESC) AS rank
    FROM (SELECT rc.id, max(rc.score)::float8 AS score FROM (${join(found, ') UNION ALL (', '(', ')')}) AS rc (id, score)
      GROUP BY rc.id ORDER BY score DESC, rc.id DESC LIMIT ${plan.limit}) AS best
    JOIN referrals ON referrals.id = best.id
    JOIN patients ON patients.id = referrals.patient_id
    JOIN physicians ON physicians.id = referrals.physician_id
    ORDER BY best.score DESC, referrals.id DESC LIMIT ${plan.limit}`;
}

/**
 * The least score a record needs to be shown: once `limit` patients are shown, anything scoring
 * below the last of them is not, so the bookings and referrals found only through a patient,
 * physician or kit weighted below it are never read (a common surname matches hundreds of
 * patients alike, and reading all their bookings cost more than the rest of the search). A record
 * scoring the same is still read: at equal scores a booking or referral is shown first (by kind).
 * `t (score)`, one row; 0 while fewer patients are shown.
 */
function threshold(plan: SearchPlan): Sql {
  const shown = plan.patients === 'shared' ? 'pc' : plan.patients ? 'ps' : undefined;
  if (!shown) return raw('SELECT 0::float8 AS score');
  return sql`SELECT coalesce((SELECT ${raw(shown)}.score FROM ${raw(shown)} WHERE ${raw(shown)}.rank = ${plan.limit}), 0)::float8 AS score`;
}

/**
 * A part of the answer in the statement's common shape; `upTo` keeps the first rows of a part
 * chosen for more (the candidates shown as such when they are the same list), and `join` names
 * the table whose row of the same id holds the texts (read for the rows kept only).
 */
function rows(
  from: string,
  type: SearchRow['type'],
  texts: readonly string[],
  options: { upTo?: number; join?: string } = {},
): Sql {
  const columns = [...texts, ...Array.from({ length: 6 - texts.length }, () => 'NULL')];
  const joined = options.join ? ` JOIN ${options.join} ON ${options.join}.id = ${from}.id` : '';
  const select = raw(
    `SELECT '${type}'::text AS type, ${from}.id::bigint AS id, ${from}.score::float8 AS score, ${from}.rank::int AS rank, ${columns
      .map((c, i) => `${c}::text AS t${i + 1}`)
      .join(', ')} FROM ${from}${joined}`,
  );
  return options.upTo === undefined ? select : sql`${select} WHERE ${raw(from)}.rank <= ${options.upTo}`;
}

/** What a search statement read: the records shown, and whether its condition held. */
export interface SearchRead {
  rows: SearchRow[];
  /** False when the statement's `holds` condition did not: then nothing was shown or written. */
  held: boolean;
}

/**
 * The records shown, best first, read in one statement that also writes `withShown` (the audit
 * event), which reads `shown (type, id, ord)` and is given the condition it is written on;
 * undefined when nothing can match, and then nothing was written. With `holds` (a boolean
 * expression, evaluated once), the records are read and the event written only when it is true.
 */
export async function readSearch(
  db: Knex,
  matches: JoinedMatches,
  plan: SearchPlan,
  withShown: (condition: Sql | undefined) => Sql,
  holds?: Sql,
): Promise<SearchRead | undefined> {
  const kinds: RecordKind[] = [];
  if (plan.patientCandidates || (plan.patients && plan.patients !== 'shared')) kinds.push('patient');
  if (plan.physicianCandidates || (plan.physicians && plan.physicians !== 'shared')) kinds.push('physician');
  if (plan.bookings) kinds.push('kit');
  if (kinds.length === 0 && plan.typedNumber === 0) return undefined;

  const parts: { name: string; query: Sql }[] = [
    { name: 'm', query: matchedRecords(kinds, matches, newestPatientsNeeded(plan)) },
  ];
  const answers: Sql[] = [];
  if (plan.patientCandidates)
    parts.push({ name: 'pc', query: patientsOf(plan.patientCandidates.scope, plan.patientCandidates.limit) });
  if (plan.patients === 'shared')
    answers.push(rows('pc', 'patient', PATIENT_ROWS.texts, { upTo: plan.limit, join: PATIENT_ROWS.join }));
  else if (plan.patients) {
    parts.push({ name: 'ps', query: patientsOf(plan.patients.scope, plan.limit) });
    answers.push(rows('ps', 'patient', PATIENT_ROWS.texts, { join: PATIENT_ROWS.join }));
  }
  parts.push({ name: 't', query: threshold(plan) });
  if (plan.physicianCandidates)
    parts.push({ name: 'phc', query: physiciansOf({ kind: 'all' }, plan.physicianCandidates.limit) });
  const physicianTexts = (from: string) => [`${from}.name`, `${from}.npi`, `${from}.practice`];
  if (plan.physicians === 'shared')
    answers.push(rows('phc', 'physician', physicianTexts('phc'), { upTo: plan.limit }));
  else if (plan.physicians) {
    parts.push({ name: 'phs', query: physiciansOf(plan.physicians.scope, plan.limit) });
    answers.push(rows('phs', 'physician', physicianTexts('phs')));
  }
  if (plan.bookings) {
    parts.push({ name: 'k', query: kitsOf(plan.bookings.kitLimit) });
    parts.push({ name: 'bc', query: bookingCandidates(plan, plan.bookings.scope, plan.limit) });
    parts.push({ name: 'b', query: bestBookings(plan) });
    answers.push(
      rows('b', 'booking', [
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
    parts.push({ name: 'r', query: bestReferrals(plan, plan.referrals.scope) });
    answers.push(rows('r', 'referral', ['r.patient_name', 'r.physician_name', 'r.urgency', 'r.status']));
  }
  if (answers.length === 0) return undefined;
  // The condition first, once: while it is false no part is read (each is read only as `shown` needs it).
  const condition = holds ? raw('(SELECT holds.ok FROM holds)') : undefined;
  if (holds) parts.unshift({ name: 'holds', query: sql`SELECT (${holds}) AS ok` });
  // The best over every kind: higher score first, then by kind, then each kind's own order.
  parts.push({
    name: 'shown',
    query: sql`SELECT a.*, row_number() OVER (ORDER BY a.score DESC, a.type COLLATE "C", a.rank) AS ord
      FROM (${join(answers, ') UNION ALL (', '(', ')')}) AS a ${condition ? sql`WHERE ${condition}` : empty}
      ORDER BY ord LIMIT ${plan.limit}`,
  });
  parts.push({ name: 'written', query: withShown(condition) });
  // With a condition, one row says whether it held even when nothing is shown.
  const answer = holds
    ? raw(`SELECT holds.ok AS held, shown.type, shown.id, shown.t1, shown.t2, shown.t3, shown.t4, shown.t5, shown.t6
      FROM holds LEFT JOIN shown ON true ORDER BY shown.ord`)
    : raw('SELECT type, id, t1, t2, t3, t4, t5, t6 FROM shown ORDER BY ord');
  const statement = sql`WITH ${join(
    parts.map(({ name, query }) => sql`${raw(name)} AS (${query})`),
    ',\n',
  )}\n${answer}`;
  // Prepared once per connection for each shape of the statement (words per query, how each is
  // joined, parts read), and run on connections that keep its generic plan (db/connect.ts,
  // store.ts): planning this statement costs more than running it; how each term is joined is
  // written into it (matchedRecords). Written as SQL text rather than built with Knex's query
  // builder: compiling the builder cost a busy server more than the statement's round trip.
  const text = statement.sql;
  const shape = createHash('sha256').update(text).digest('hex').slice(0, 24);
  const result = await db
    .raw(text, statement.values as Knex.RawBinding[])
    .options({ name: `wellrest-search-${shape}` });
  const read = result.rows as (Omit<SearchRow, 'type' | 'id'> & {
    held?: boolean;
    type: SearchRow['type'] | null;
    id: string | number | null;
  })[];
  const shown: SearchRow[] = [];
  for (const { held: _, type, id, ...texts } of read)
    if (type !== null) shown.push({ ...texts, type, id: Number(id) });
  return { rows: shown, held: read[0]?.held ?? !holds };
}
