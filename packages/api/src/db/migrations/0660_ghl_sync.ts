import type { Knex } from 'knex';

// What the GoHighLevel sync keeps between runs and shares between API processes:
// - ghl_sync_runs: one row per sync with its counts (the sync report);
// - ghl_sync_issues: a contact GoHighLevel rejected, or a conflict staff decide, per patient;
//   `fingerprint` is md5(name, email, phone) as they were, so a patient is tried again only
//   once one of them changes;
// - ghl_contact_state: the name a linked patient and its contact had at the last sync, to tell
//   a change on one side from a change on both;
// - ghl_push_leases: which worker pushes which patient right now;
// - ghl_rate_budget: GoHighLevel's announced request budget per location and the recent sends
//   against it, taken under a row lock by every process.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ghl_sync_runs', (t) => {
    t.increments('id').primary();
    t.text('status').notNullable().defaultTo('running');
    t.integer('imported').notNullable().defaultTo(0);
    t.integer('pushed').notNullable().defaultTo(0);
    t.integer('rejected').notNullable().defaultTo(0);
    t.integer('conflicts').notNullable().defaultTo(0);
    t.text('stop_code');
    t.timestamp('resumes_at', { useTz: true });
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });
  await knex.raw(
    "ALTER TABLE ghl_sync_runs ADD CONSTRAINT ghl_sync_runs_status_check CHECK (status IN ('running', 'done', 'stopped', 'failed'))",
  );

  await knex.schema.createTable('ghl_sync_issues', (t) => {
    t.increments('id').primary();
    t.integer('patient_id').notNullable().references('id').inTable('patients').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('field');
    t.text('remote_message');
    t.text('contact_id');
    t.integer('other_patient_id').references('id').inTable('patients').onDelete('SET NULL');
    t.text('local_name');
    t.text('remote_name');
    t.text('fingerprint').notNullable();
    t.integer('run_id').references('id').inTable('ghl_sync_runs').onDelete('SET NULL');
    t.text('resolution');
    t.integer('resolved_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['patient_id', 'status']);
    t.index(['status', 'id']);
  });
  await knex.raw(
    "ALTER TABLE ghl_sync_issues ADD CONSTRAINT ghl_sync_issues_kind_check CHECK (kind IN ('rejected', 'duplicate', 'name'))",
  );
  await knex.raw(
    "ALTER TABLE ghl_sync_issues ADD CONSTRAINT ghl_sync_issues_status_check CHECK (status IN ('open', 'resolved'))",
  );
  // One open issue of a kind per patient.
  await knex.raw(
    "CREATE UNIQUE INDEX ghl_sync_issues_open_unique ON ghl_sync_issues (patient_id, kind) WHERE status = 'open'",
  );

  await knex.schema.createTable('ghl_contact_state', (t) => {
    t.integer('patient_id').primary().references('id').inTable('patients').onDelete('CASCADE');
    t.text('contact_id').notNullable();
    t.text('synced_name').notNullable();
    t.timestamp('synced_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('ghl_push_leases', (t) => {
    t.integer('patient_id').primary().references('id').inTable('patients').onDelete('CASCADE');
    t.text('worker').notNullable();
    t.timestamp('lease_until', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('ghl_rate_budget', (t) => {
    t.text('key').primary();
    t.integer('burst_max').notNullable();
    t.integer('interval_ms').notNullable();
    /** Send times (ms since the epoch) within the last interval, oldest first. */
    t.jsonb('sent_at').notNullable().defaultTo('[]');
    t.bigInteger('paused_until').notNullable().defaultTo(0);
    t.integer('daily_limit');
    t.integer('daily_remaining');
    /** The UTC day the daily figures are about (YYYY-MM-DD). */
    t.text('daily_day');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ghl_rate_budget');
  await knex.schema.dropTableIfExists('ghl_push_leases');
  await knex.schema.dropTableIfExists('ghl_contact_state');
  await knex.schema.dropTableIfExists('ghl_sync_issues');
  await knex.schema.dropTableIfExists('ghl_sync_runs');
}
