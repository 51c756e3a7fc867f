import type { Knex } from 'knex';

/** Tables a refused request may legitimately write: the audit trail and the counters of abuse. */
// Logs written for refused requests too (the audit trail, refused webhook deliveries).
const BOOKKEEPING = /audit|login_failures|rate|throttle|attempt|webhook_deliveries/;

/**
 * A function returning the row count of every table of the product's schema, except the
 * bookkeeping a refused request writes: equal counts before and after prove nothing was written.
 */
export async function rowCounter(db: Knex): Promise<() => Promise<Record<string, number>>> {
  const tables = (await db('pg_tables').where({ schemaname: 'public' }).pluck('tablename')) as string[];
  const watched = tables.filter((table) => !BOOKKEEPING.test(table) && !table.startsWith('knex_'));
  const sql = `select ${watched.map((t) => `(select count(*) from "${t}")::int as "${t}"`).join(', ')}`;
  return async () => ((await db.raw(sql)).rows[0] ?? {}) as Record<string, number>;
}
