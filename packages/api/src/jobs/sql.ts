import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';

interface SqlConnection {
  query(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: unknown[]; rowCount?: number | null; affectedRows?: number }>;
  /** PGlite only: runs a script of several statements. */
  exec?(text: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
}

interface PoolClient {
  acquireConnection(): Promise<SqlConnection>;
  releaseConnection(connection: SqlConnection): Promise<void>;
}

/**
 * pg-boss's database interface over a Knex handle or transaction: the statement runs on the
 * connection Knex hands out (for a transaction, the transaction's own). On the embedded engine
 * this keeps the queue on the app's single connection, taking turns with the app's queries
 * instead of slipping into one of its transactions; inside a transaction it lets a job be queued
 * atomically with the change that asks for it.
 */
export function knexSql(knex: Knex): PgBoss.Db {
  const client = knex.client as unknown as PoolClient;
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const connection = await client.acquireConnection();
      try {
        if (values.length === 0 && connection.exec) {
          // A parameterless text may hold several statements (pg-boss's schema scripts).
          const results = await connection.exec(text);
          const last = results.at(-1) ?? { rows: [] };
          return { rows: last.rows, rowCount: last.affectedRows ?? last.rows.length };
        }
        const result = await connection.query(text, values);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rowCount ?? result.rows.length };
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}
