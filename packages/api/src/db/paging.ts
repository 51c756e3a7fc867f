import type { Knex } from 'knex';

/**
 * One page of a list query plus the total number of matching rows. The count runs as its own
 * query: `count(*) over ()` would make PostgreSQL materialise every matching row before the LIMIT.
 * `count`, when given, counts the same rows more cheaply: a query without the joins that only add
 * columns, or a function that knows the total (a kept one).
 */
export async function fetchPage<Row>(
  query: Knex.QueryBuilder,
  columns: readonly (string | Knex.Raw)[],
  page: number,
  pageSize: number,
  count: Knex.QueryBuilder | (() => Promise<number>) = query,
): Promise<{ rows: Row[]; total: number }> {
  const rows = (await query
    .clone()
    .select([...columns])
    .limit(pageSize)
    .offset((page - 1) * pageSize)) as Row[];
  const total = typeof count === 'function' ? await count() : await countRows(count);
  return { rows, total };
}

/** How many rows a query matches. */
export async function countRows(query: Knex.QueryBuilder): Promise<number> {
  const [counted] = (await query.clone().clearOrder().clearSelect().count({ n: '*' })) as {
    n: string | number;
  }[];
  return Number(counted?.n ?? 0);
}
