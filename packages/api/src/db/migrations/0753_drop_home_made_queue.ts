import type { Knex } from 'knex';

// Background work runs on the durable job queue (pg-boss, schema of 0750); the table of the
// queue written in the project before it goes. Jobs left in it were GoHighLevel syncs, which
// staff start again from the console.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('jobs');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.text('status')
      .notNullable()
      .defaultTo('queued')
      .checkIn(['queued', 'running', 'done', 'failed'], 'jobs_status_check');
    t.text('dedupe_key');
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('result');
    t.text('error');
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('run_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('locked_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
  });
  await knex.raw("CREATE INDEX jobs_queued_index ON jobs (run_at, id) WHERE status = 'queued'");
  await knex.raw(
    "CREATE UNIQUE INDEX jobs_active_dedupe_unique ON jobs (dedupe_key) WHERE status IN ('queued', 'running')",
  );
}
