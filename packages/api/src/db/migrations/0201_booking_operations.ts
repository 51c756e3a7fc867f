import type { Knex } from 'knex';

// Booking history, agreement forms, the background job queue, and indexes for the operations
// calls (search by kit label, GoHighLevel matching by email).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('booking_events', (t) => {
    t.bigIncrements('id');
    t.integer('booking_id').notNullable().references('id').inTable('bookings').onDelete('CASCADE');
    t.text('action').notNullable();
    t.text('from_status');
    t.text('to_status');
    t.text('reason');
    // No foreign key: the history must outlive the accounts it mentions.
    t.integer('actor_user_id');
    t.text('actor_username');
    // Identifiers only (kit ids, test types), never patient data.
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['booking_id', 'occurred_at'], 'booking_events_booking_index');
  });

  await knex.schema.createTable('agreements', (t) => {
    t.bigIncrements('id');
    t.integer('booking_id').notNullable().references('id').inTable('bookings').onDelete('CASCADE');
    // SHA-256 of the token in the form link; the token itself is never stored.
    t.text('token_hash').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.text('status').notNullable().defaultTo('sent').checkIn(['sent', 'signed'], 'agreements_status_check');
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('signed_at', { useTz: true });
    t.text('signed_name');
    t.text('signed_ip');
    t.text('signed_user_agent');
    t.unique(['token_hash'], { indexName: 'agreements_token_hash_unique' });
    t.index(['booking_id'], 'agreements_booking_id_index');
    t.check('expires_at > created_at', [], 'agreements_expiry_after_creation');
  });

  // Background work shared by every API process: a worker claims a queued job with
  // FOR UPDATE SKIP LOCKED, so each job runs once however many processes poll.
  await knex.schema.createTable('jobs', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.text('status')
      .notNullable()
      .defaultTo('queued')
      .checkIn(['queued', 'running', 'done', 'failed'], 'jobs_status_check');
    // Jobs with the same key do not run side by side: a second request joins the active one.
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

  await knex.raw('CREATE INDEX kits_kit_id_trgm ON kits USING gin (kit_id gin_trgm_ops)');
  await knex.raw('CREATE INDEX patients_email_lower_index ON patients (lower(email))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS patients_email_lower_index');
  await knex.raw('DROP INDEX IF EXISTS kits_kit_id_trgm');
  await knex.schema.dropTable('jobs');
  await knex.schema.dropTable('agreements');
  await knex.schema.dropTable('booking_events');
}
