import type { Knex } from 'knex';

// When each housekeeping task last ran and how many rows it removed (shown to administrators).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('housekeeping_state', (t) => {
    t.text('task').primary();
    t.timestamp('last_run_at', { useTz: true }).notNullable();
    t.integer('last_removed').notNullable();
    t.bigInteger('total_removed').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('housekeeping_state');
}
