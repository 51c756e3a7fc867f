import type { Knex } from 'knex';

/**
 * One page of a list query plus the total number of matching rows. The count runs as its own
 * query: `count(*) over ()` would make PostgreSQL materialise every matching row before the LIMIT.
 * `countQuery`, when given, counts the same rows more cheaply (without joins that only add columns).
 */
export async function fetchPage<Row>(
  query: Knex.QueryBuilder,
  columns: readonly (string | Knex.Raw)[],
  page: number,
  pageSize: number,
  countQuery: Knex.QueryBuilder = query,
): Promise<{ rows: Row[]; total: number }> {
  const rows = (await query
    .clone()
    .select([...columns])
    .limit(pageSize)
    .offset((page - 1) * pageSize)) as Row[];
  const [counted] = (await countQuery.clone().clearOrder().clearSelect().count({ n: '*' })) as {
    n: string | number;
  }[];
  return { rows, total: Number(counted?.n ?? 0) };
}
