import type { Knex } from 'knex';

/**
 * One page of a list query plus the total number of matching rows. The count runs as its own
 * query: `count(*) over ()` would make PostgreSQL materialise every matching row before the LIMIT.
 */
export async function fetchPage<Row>(
  query: Knex.QueryBuilder,
  columns: readonly (string | Knex.Raw)[],
  page: number,
  pageSize: number,
): Promise<{ rows: Row[]; total: number }> {
  const rows = (await query
    .clone()
    .select([...columns])
    .limit(pageSize)
    .offset((page - 1) * pageSize)) as Row[];
  const [counted] = (await query.clone().clearOrder().clearSelect().count({ n: '*' })) as {
    n: string | number;
  }[];
  return { rows, total: Number(counted?.n ?? 0) };
}
