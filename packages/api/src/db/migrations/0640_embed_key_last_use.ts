import type { Knex } from 'knex';

// When a partner page last used each embed key, shown before an administrator revokes it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('embed_keys', (t) => {
    t.timestamp('last_used_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('embed_keys', (t) => {
    t.dropColumn('last_used_at');
  });
}
