import type { Knex } from 'knex';

// Versions of the data the API keeps answers or indexes of in memory (the daily availability and
// the bookings list's totals, migration 0507). Each is a
// sequence every change advances; a signed-in request to a route answered from memory reads them
// in the same statement as its session (auth/sessions.ts), so it makes no round trip of its own
// to learn whether memory is current. Other requests do not read them (three sequences opened
// per statement cost about 15% of the cheapest request's throughput); a route not listed here
// reads its version itself.

/** The versions as read at the start of a request. */
export interface DataVersions {
  /** `last_value:is_called` of `availability_version`. */
  availability: string;
}

/** SQL of each version, as `DataVersions` spells it; selectable in any statement. */
export const AVAILABILITY_VERSION_SQL = `(SELECT last_value || ':' || is_called FROM availability_version)`;

/** The requests answered from memory, in part or whole, which read the versions with their session. */
const DATA_VERSION_REQUESTS: ReadonlySet<string> = new Set([
  'GET /api/dashboard/daily-availability',
  // The paged list's total (bookings/totals.ts).
  'GET /api/bookings',
]);

/** True when a request of this method and path reads the data versions with its session. */
export function readsDataVersions(method: string, path: string): boolean {
  return DATA_VERSION_REQUESTS.has(`${method} ${path}`);
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
