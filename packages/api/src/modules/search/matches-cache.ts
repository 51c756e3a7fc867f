import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { SEARCH_VOCABULARY_LOCK } from '../../db/migrations/0920_search_vocabulary_version.js';
import { perDatabase } from '../../db/per-database.js';
import type { AppContext, AppServices } from '../../http/context.js';
import { readQuietVersion, readVersion, SEARCH_VERSION_SQL } from '../../http/data-versions.js';
import { type JoinedMatches, matchTermsInJoinOrder, type QueryTerm } from './words.js';

// What a query's words match depends on the search's vocabulary alone (words.ts), which changes
// far less often than it is searched: a practice's staff type the same names and beginnings all
// day. Each API process keeps the matches of recent queries under the vocabulary version they were
// read at (migration 0920) and uses them while that version holds, which spares the search a round
// trip to the database; the records themselves are always read afresh (statement.ts), so a
// patient renamed or deleted on another process is never shown as it was. With the matches it
// keeps the terms in the order the statement joins them and how many entries each had when counted
// (words.ts inJoinOrder): those only ever change how fast a search runs, never what it finds.

/** Queries whose matches are kept per API process, the most recently used. */
const MAX_QUERIES = 1_000;

export interface Kept {
  version: string;
  matches: JoinedMatches;
}

const keptOf = perDatabase((_db: AppServices['db']) => new LRUCache<string, Kept>({ max: MAX_QUERIES }));

/**
 * The vocabulary words each term matches: kept ones while the vocabulary is unchanged, else read
 * (matchTermsInJoinOrder) and kept under a version read while no new word was in flight, so they never stand
 * for a word they could not see. Inside a request transaction they are just read. The maps
 * returned may be shared: they are not to be changed.
 */
export async function matchesOf(ctx: AppContext, db: Knex, terms: QueryTerm[]): Promise<JoinedMatches> {
  if (ctx.state.trx) return matchTermsInJoinOrder(db, terms);
  const { knex } = ctx.services.db;
  const kept = keptOf(ctx.services.db);
  const key = keyOf(terms);
  const current = ctx.state.versions?.search ?? (await readVersion(knex, SEARCH_VERSION_SQL));
  const found = kept.get(key);
  if (found && found.version === current) return found.matches;
  const version = await readQuietVersion(knex, SEARCH_VOCABULARY_LOCK, SEARCH_VERSION_SQL);
  const matches = await matchTermsInJoinOrder(db, terms);
  if (version !== null) kept.set(key, { version, matches });
  return matches;
}

function keyOf(terms: QueryTerm[]): string {
  return JSON.stringify(terms.map((term) => [term.text, term.cls, term.prefix]));
}

/**
 * The matches kept for these terms and the vocabulary version they hold under, without reading
 * anything: a statement that uses them confirms that version itself.
 */
export function keptMatchesOf(ctx: AppContext, terms: QueryTerm[]): Kept | undefined {
  return keptOf(ctx.services.db).get(keyOf(terms));
}
