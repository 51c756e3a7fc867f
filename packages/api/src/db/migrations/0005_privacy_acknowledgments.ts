import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('privacy_acknowledgments', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('policy_version').notNullable();
    t.text('policy_hash').notNullable();
    t.text('method').notNullable();
    t.text('policy_url').notNullable();
    t.timestamp('acknowledged_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('ip');
    t.text('user_agent');
    t.index(['user_id', 'acknowledged_at'], 'privacy_acknowledgments_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('privacy_acknowledgments');
}
