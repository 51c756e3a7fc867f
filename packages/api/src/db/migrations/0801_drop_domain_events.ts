import type { Knex } from 'knex';

// Domain events have one outbox, `outbox_events` (0751), which the dispatcher hands to the job
// queue; the `domain_events` table of 0800 was a second one nothing read. Its rows (form
// submissions) move over, undispatched ones still waiting.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `INSERT INTO outbox_events (topic, payload, created_at, dispatched_at)
     SELECT type, payload, created_at, dispatched_at FROM domain_events ORDER BY id`,
  );
  await knex.schema.dropTable('domain_events');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('domain_events', (t) => {
    t.bigIncrements('id');
    t.text('type').notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
  });
  await knex.raw('create index domain_events_undispatched on domain_events (id) where dispatched_at is null');
}
