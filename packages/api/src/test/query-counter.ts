import type { Knex } from 'knex';

/** The settings cache's refresh, due every few seconds whatever the request: not a per-row query. */
const SETTINGS_REFRESH = /^select "key", "value" from "settings" where "key" in /;

/**
 * Counts the SQL statements Knex instances run while `work` does: list endpoints must run a
 * constant number of queries whatever the number of rows (no N+1). Give every pool a request
 * may use (a server's `db` and `genericPlans`); one given twice is counted once. The periodic
 * refresh of the settings cache is left out: a slow machine lets it fall due in one measured
 * request and not in another.
 */
export async function countQueries(
  db: Knex | readonly Knex[],
  work: () => Promise<unknown>,
): Promise<number> {
  const pools = [...new Set(Array.isArray(db) ? db : [db as Knex])];
  let count = 0;
  const onQuery = (query: { sql: string }) => {
    if (!SETTINGS_REFRESH.test(query.sql)) count++;
  };
  for (const pool of pools) pool.on('query', onQuery);
  try {
    await work();
  } finally {
    for (const pool of pools) pool.off('query', onQuery);
  }
  return count;
}
