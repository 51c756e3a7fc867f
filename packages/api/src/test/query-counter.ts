import type { Knex } from 'knex';

/**
 * Counts the SQL statements a Knex instance runs while `work` does: list endpoints must run a
 * constant number of queries whatever the number of rows (no N+1).
 */
export async function countQueries(db: Knex, work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const onQuery = () => {
    count++;
  };
  db.on('query', onQuery);
  try {
    await work();
  } finally {
    db.off('query', onQuery);
  }
  return count;
}
