import type { Knex } from 'knex';

// Matching a query against the search index of migration 0520 (search_entries, search_words,
// search_word_variants), all of it in PostgreSQL; an API process keeps only the matches of recent
// queries, under the vocabulary's version (matches-cache.ts).
//
// The rules (issue "Search that forgives typos"), per word of the query:
// - every word must match a word of the record (an entry);
// - a word matches exactly, or as the beginning of a longer word (while typing: not a word
//   followed by a full stop or comma, such as "Dr.", nor a single letter);
// - from 5 letters one typo is forgiven, from 9 letters two: insertion, deletion, substitution or
//   transposition of neighbours (optimal string alignment distance), of the whole word or of its
//   beginning; shorter words never match loosely;
// - digits (phone numbers, NPIs) match exactly or by their beginning, and a phone number also by
//   its last seven or four digits; a word with "@" or "." inside (an address, a domain such as
//   "example.test", a kit label) matches the same whole.
//
// Ranking: each word costs what its best match costs (COSTS), a record costs the sum over the
// query's words, cheaper first; then patients newest first, physicians and kits by name or label
// and id (statement.ts), so the order is stable.

export type WordClass = 'w' | 'd' | 'c';

export interface QueryTerm {
  /** As typed (the database lower-cases it, as it lower-cases what it indexes). */
  text: string;
  /** 'w' letters, 'd' digits, 'c' a compound word with punctuation (address, domain, label). */
  cls: WordClass;
  /** Whether it may match the beginning of a longer word. */
  prefix: boolean;
}

/** What a word's match costs, by kind of match. */
export const COSTS = {
  exact: 0,
  prefix: 1,
  /** One typo, of the whole word; of its beginning costs one more (prefix). */
  typo: 2,
  /** Two typos, of the whole word; of its beginning one more. */
  twoTypos: 4,
} as const;

/** Words of a query matched at most: more only narrow an already narrow search. */
const MAX_TERMS = 6;
/** Longer words a beginning stands for, at most, per word of the query (first in C order). */
const PREFIX_EXPANSIONS = 50;
/**
 * The longest word typos are looked for in: variants are kept of beginnings up to 14 letters
 * (migration 0520), so a longer word is more than two edits from all of them.
 */
const MAX_TYPO_WORD = 16;
/** Words a typo's corrected beginning stands for, at most. */
const TYPO_EXPANSIONS = 20;

const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const PUNCTUATION = /[\p{P}\p{S}]+/u;
const APOSTROPHES = /['’]/g;

/** The words of a query, as the index splits text (migration 0520's search_text_words). */
export function queryTerms(q: string): QueryTerm[] {
  const trimmed = q.trim();
  const digits = trimmed.replace(/\D/g, '');
  // A phone number however it is written, or a number: its digits as one word.
  if (/^[\d\s()+.#-]+$/.test(trimmed) && digits.length >= 3)
    return [{ text: digits, cls: 'd', prefix: true }];
  const terms: QueryTerm[] = [];
  for (const piece of trimmed.split(/\s+/)) {
    const complete = /[.,;:!?]$/.test(piece);
    const core = piece.replace(EDGE_PUNCTUATION, '');
    if (core === '') continue;
    if (/[@.]/.test(core)) {
      terms.push({ text: core, cls: 'c', prefix: !complete });
      continue;
    }
    const parts = core
      .replace(APOSTROPHES, '')
      .split(PUNCTUATION)
      .filter((part) => part !== '');
    parts.forEach((part, i) => {
      terms.push({
        text: part,
        cls: /^\d+$/.test(part) ? 'd' : 'w',
        prefix: i < parts.length - 1 || !complete,
      });
    });
  }
  return terms.slice(0, MAX_TERMS);
}

/** Typos forgiven in a word of `length` letters. */
export function typosAllowed(length: number): number {
  return length >= 9 ? 2 : length >= 5 ? 1 : 0;
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions and transpositions of
 * neighbours, each 1), by code point, or `max + 1` once it is sure to exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let value = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        value = Math.min(value, (prevPrev[j - 2] as number) + 1);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return Math.min(prev[t.length] as number, max + 1);
}

/** For each query term, the indexed words it matches and what each costs. */
export type TermMatches = Map<string, number>[];

interface CandidateRow {
  i: string | number;
  word: string;
  match: string;
  how: 'exact' | 'prefix' | 'typo';
}

function keep(matches: Map<string, number>, word: string, cost: number): void {
  const before = matches.get(word);
  if (before === undefined || cost < before) matches.set(word, cost);
}

/**
 * The indexed words each term matches: exact and beginnings in one statement, with the
 * beginnings of words within the typos allowed (found through search_word_variants, checked
 * here); one more statement lists the words those corrected beginnings stand for.
 */
async function matchTerms(db: Knex, terms: QueryTerm[]): Promise<TermMatches> {
  const result = await db
    .raw(
      `WITH q AS (
       SELECT i, lower(t) AS word, c::"char" AS cls, p
       FROM unnest(?::text[], ?::text[], ?::boolean[]) WITH ORDINALITY AS u(t, c, p, i)
     )
     SELECT q.i, q.word, m.match, m.how
     FROM q CROSS JOIN LATERAL (
       SELECT q.word AS match, 'exact' AS how
       UNION ALL
       (SELECT w.word, 'prefix' FROM search_words w
        WHERE q.p AND length(q.word) >= 2
          AND w.class = q.cls AND w.word > q.word COLLATE "C" AND w.word < (q.word || chr(1114111)) COLLATE "C"
        ORDER BY w.word LIMIT ${PREFIX_EXPANSIONS})
       UNION ALL
       (SELECT DISTINCT v.prefix, 'typo' FROM search_word_variants v
        WHERE q.cls = 'w' AND length(q.word) BETWEEN 5 AND ${MAX_TYPO_WORD}
          AND v.variant IN (SELECT search_deletions(q.word, CASE WHEN length(q.word) >= 9 THEN 2 ELSE 1 END)))
     ) m`,
      [terms.map((t) => t.text), terms.map((t) => t.cls), terms.map((t) => t.prefix)],
    )
    .options({ name: 'wellrest-search-words' });
  const matches: TermMatches = terms.map(() => new Map());
  /** Corrected beginnings to expand: beginning → [term, cost of the whole word]. */
  const corrected = new Map<string, [number, number][]>();
  for (const row of result.rows as CandidateRow[]) {
    const index = Number(row.i) - 1;
    const term = matches[index];
    if (!term) continue;
    if (row.how !== 'typo') {
      keep(term, row.match, row.how === 'exact' ? COSTS.exact : COSTS.prefix);
      continue;
    }
    const allowed = typosAllowed([...row.word].length);
    const distance = editDistance(row.word, row.match, allowed);
    if (distance === 0 || distance > allowed) continue;
    const cost = distance === 1 ? COSTS.typo : COSTS.twoTypos;
    keep(term, row.match, cost);
    if (terms[index]?.prefix) {
      const list = corrected.get(row.match);
      if (list) list.push([index, cost]);
      else corrected.set(row.match, [[index, cost]]);
    }
  }
  if (corrected.size > 0) {
    const expanded = await db
      .raw(
        `SELECT x.p, w.word FROM unnest(?::text[]) AS x(p) CROSS JOIN LATERAL (
         SELECT word FROM search_words
         WHERE class = 'w' AND word > x.p COLLATE "C" AND word < (x.p || chr(1114111)) COLLATE "C"
         ORDER BY word LIMIT ${TYPO_EXPANSIONS}
       ) w`,
        [[...corrected.keys()]],
      )
      .options({ name: 'wellrest-search-word-beginnings' });
    for (const row of expanded.rows as { p: string; word: string }[])
      for (const [index, cost] of corrected.get(row.p) ?? [])
        keep(matches[index] as Map<string, number>, row.word, cost + COSTS.prefix);
  }
  return matches;
}

/**
 * How many times more entries than the first term a later term needs before the answer's
 * statement looks it up for each record found rather than reading it whole (statement.ts
 * matchedRecords): a lookup of a record's ten or so entries costs PostgreSQL about as much as
 * reading twenty to thirty entries and hashing them.
 */
export const LOOKUP_RATIO = 25;

/** Entries counted per term at first (termSizes): a term with fewer is counted exactly. */
const TERM_SIZE_FIRST_CAP = 4_000;
/** Entries counted per term at most (termSizes): beyond it a term is common, however common. */
const TERM_SIZE_CAP = 16_000;

/**
 * How many index entries each term's words have, one index range per word, counted in one
 * statement: up to TERM_SIZE_FIRST_CAP, and a term with more up to LOOKUP_RATIO times the fewest
 * (at most TERM_SIZE_CAP), which is all the statement's choices need (inJoinOrder,
 * statement.ts): a rare surname's hundreds tell from a common first name's tens of thousands
 * without counting those of two common names past what decides.
 */
async function termSizes(db: Knex, matches: TermMatches): Promise<number[]> {
  const words = matches.flatMap((term) => [...term.keys()]);
  const terms = matches.flatMap((term, i) => [...term.keys()].map(() => i + 1));
  const counted = (cap: string) =>
    `(SELECT count(*) FROM (SELECT 1 FROM search_entries e WHERE e.word = ANY(t.words) LIMIT ${cap}) AS x)`;
  const result = await db
    .raw(
      `WITH t AS (SELECT i, array_agg(word) AS words FROM unnest(?::text[], ?::int[]) AS w (word, i) GROUP BY i),
     c AS (SELECT t.i, t.words, ${counted(String(TERM_SIZE_FIRST_CAP))} AS n FROM t)
     SELECT t.i, CASE WHEN t.n < ${TERM_SIZE_FIRST_CAP} THEN t.n
       ELSE ${counted(`least(${LOOKUP_RATIO} * (SELECT min(n) FROM c), ${TERM_SIZE_CAP})`)} END AS n
     FROM c AS t`,
      [words, terms],
    )
    .options({ name: 'wellrest-search-term-sizes' });
  const sizes = matches.map(() => 0);
  for (const row of result.rows as { i: string | number; n: string | number }[])
    sizes[Number(row.i) - 1] = Number(row.n);
  return sizes;
}

/**
 * A query's terms in the order its statement joins them, with how many index entries each has
 * as far as counted (termSizes), in the same order; no sizes for a single term, never counted.
 */
export interface JoinedMatches {
  terms: TermMatches;
  sizes: number[];
}

/**
 * The terms in the order the statement joins them (statement.ts), the fewest entries first: it
 * scans the first term's entries and joins each later term to the records found so far. The
 * records found and what they cost are the same in any order (every term must match and the
 * costs add up); ties keep the order typed.
 */
export function inJoinOrder(matches: TermMatches, sizes: number[]): JoinedMatches {
  const ordered = matches
    .map((term, i) => ({ term, size: sizes[i] ?? 0, i }))
    .sort((a, b) => a.size - b.size || a.i - b.i);
  return { terms: ordered.map(({ term }) => term), sizes: ordered.map(({ size }) => size) };
}

/**
 * The indexed words each term matches (matchTerms), with several terms in the order the answer's
 * statement joins them and counted (inJoinOrder).
 */
export async function matchTermsInJoinOrder(db: Knex, terms: QueryTerm[]): Promise<JoinedMatches> {
  const matches = await matchTerms(db, terms);
  return matches.length > 1
    ? inJoinOrder(matches, await termSizes(db, matches))
    : { terms: matches, sizes: [] };
}

export type RecordKind = 'patient' | 'physician' | 'kit';
