import type { Knex } from 'knex';

// Versions of the data the API keeps answers or indexes of in memory (the daily availability and
// the bookings list's totals, migration 0507; what the search's words match, migration 0920). Each
// is a sequence every change advances; a signed-in request to a route answered from memory reads
// the versions it needs in the same statement as its session (auth/sessions.ts), so it makes no
// round trip of its own to learn whether memory is current. Other requests do not read them (three
// sequences opened per statement cost about 15% of the cheapest request's throughput); a route not
// listed here reads its version itself. A search on a session resumed from memory confirms the
// version its kept matches hold under in its own statement instead (search/store.ts).

/** The versions a request read at its start, each as `last_value:is_called` of its sequence. */
export interface DataVersions {
  /** Of `availability_version`. */
  availability?: string;
  /** Of `search_vocabulary_version`. */
  search?: string;
}

export type DataVersion = keyof DataVersions;

/** SQL of each version, as `DataVersions` spells it; selectable in any statement. */
export const AVAILABILITY_VERSION_SQL = `(SELECT last_value || ':' || is_called FROM availability_version)`;
export const SEARCH_VERSION_SQL = `(SELECT last_value || ':' || is_called FROM search_vocabulary_version)`;

export const DATA_VERSION_SQL: Record<DataVersion, string> = {
  availability: AVAILABILITY_VERSION_SQL,
  search: SEARCH_VERSION_SQL,
};

/** The requests answered from memory, in part or whole, and the version each reads with its session. */
const DATA_VERSION_REQUESTS: ReadonlyMap<string, DataVersion> = new Map([
  ['GET /api/dashboard/daily-availability', 'availability'],
  // The paged list's total (bookings/totals.ts).
  ['GET /api/bookings', 'availability'],
  // What the query's words match (search/matches-cache.ts).
  ['POST /api/search', 'search'],
]);

/** The version a request of this method and path reads with its session, if any. */
export function dataVersionRead(method: string, path: string): DataVersion | undefined {
  return DATA_VERSION_REQUESTS.get(`${method} ${path}`);
}

/** A version (one of the SQL above) as of now. */
export async function readVersion(db: Knex, versionSql: string): Promise<string | null> {
  const result = await db.raw(`SELECT ${versionSql} AS version`);
  return (result.rows as { version: string }[])[0]?.version ?? null;
}

/**
 * A version to keep an answer or index under, or null when a change is in flight. Takes the
 * advisory lock that writers hold shared until they commit exclusively for an instant, in a
 * transaction of its own: if no writer holds it, every change the version counts is committed,
 * so reads made after this see all of them (a change committed in between only makes what is
 * kept newer than its version, and the next request catches up). Writers wait at most for this
 * one statement.
 */
export async function readQuietVersion(knex: Knex, lock: string, versionSql: string): Promise<string | null> {
  return knex.transaction(async (trx) => {
    const result = await trx.raw(
      `SELECT pg_try_advisory_xact_lock(hashtext(?)) AS quiet, ${versionSql} AS version`,
      [lock],
    );
    const row = (result.rows as { quiet: boolean; version: string }[])[0];
    return row?.quiet === true ? row.version : null;
  });
}
