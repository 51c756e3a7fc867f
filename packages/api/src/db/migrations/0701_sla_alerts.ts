import type { Knex } from 'knex';

// Which SLA clocks have been announced as at risk or breached, so each is announced once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sla_alerts', (t) => {
    t.bigIncrements('id');
    t.integer('referral_id').notNullable().references('id').inTable('referrals').onDelete('CASCADE');
    t.integer('definition_id').notNullable().references('id').inTable('sla_definitions').onDelete('CASCADE');
    t.text('state').notNullable().checkIn(['at_risk', 'breached'], 'sla_alerts_state_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['referral_id', 'definition_id', 'state'], { indexName: 'sla_alerts_once' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sla_alerts');
}
