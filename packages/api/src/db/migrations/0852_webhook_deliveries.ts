import type { Knex } from 'knex';

// Every webhook delivery, in or out: what came (or went), whether its signature held, what was
// done with it, how long it took. Inbound duplicates are recognised by the sender's webhook id.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    t.text('direction').notNullable().checkIn(['inbound', 'outbound'], 'webhook_deliveries_direction_check');
    t.text('source').notNullable();
    t.text('event').notNullable().defaultTo('');
    t.text('webhook_id');
    t.text('status')
      .notNullable()
      .checkIn(
        ['processed', 'ignored', 'duplicate', 'rejected', 'failed'],
        'webhook_deliveries_status_check',
      );
    t.text('signature')
      .notNullable()
      .checkIn(
        ['valid', 'invalid', 'missing', 'not_configured', 'not_applicable'],
        'webhook_deliveries_signature_check',
      );
    /** Why it was refused or failed: a code, never the payload. */
    t.text('reason');
    t.integer('attempts').notNullable().defaultTo(1);
    t.integer('latency_ms');
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.integer('patient_id').references('id').inTable('patients').onDelete('SET NULL');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('replayed_at', { useTz: true });
    t.index(['received_at', 'id'], 'webhook_deliveries_received_index');
  });
  // One processed delivery per sender's webhook id: a retry by the sender is a duplicate.
  await knex.raw(
    `CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (source, webhook_id)
     WHERE webhook_id IS NOT NULL AND status IN ('processed', 'ignored')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
}
