import type { Knex } from 'knex';
import PgBoss from 'pg-boss';

// The durable job queue (pg-boss) keeps its tables in their own schema. Installing them here,
// with the rest of the schema, means every process (and every test database copied from a
// migrated template) finds the queue ready; pg-boss then only checks the version when it starts
// and migrates its own tables on a later upgrade.
export const JOB_SCHEMA = 'pgboss';

/** The plan holds several statements and its own BEGIN/COMMIT, so it runs outside Knex's transaction. */
export const config = { transaction: false };

interface PgliteConnection {
  exec(sql: string): Promise<unknown>;
}

/** Runs a multi-statement script: PGlite only takes those through `exec`, PostgreSQL through a plain query. */
async function runScript(knex: Knex, script: string): Promise<void> {
  const client = knex.client as Knex.Client & {
    acquireConnection(): Promise<unknown>;
    releaseConnection(connection: unknown): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    if (typeof (connection as Partial<PgliteConnection>).exec === 'function')
      await (connection as PgliteConnection).exec(script);
    else await (connection as { query(sql: string): Promise<unknown> }).query(script);
  } finally {
    await client.releaseConnection(connection);
  }
}

export async function up(knex: Knex): Promise<void> {
  const installed = await knex.raw(
    `SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = 'version'`,
    [JOB_SCHEMA],
  );
  if (installed.rows.length > 0) return;
  await runScript(knex, PgBoss.getConstructionPlans(JOB_SCHEMA));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP SCHEMA IF EXISTS ${JOB_SCHEMA} CASCADE`);
}
