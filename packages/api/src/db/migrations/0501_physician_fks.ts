import type { Knex } from 'knex';

// A patient's physician and a physician login's physician record must name a physician that
// exists (issue 6). Links to physicians that are gone are cleared first, then the foreign keys
// keep it so: deleting a physician clears the links rather than failing or deleting people.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'UPDATE patients SET physician_id = NULL WHERE physician_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM physicians WHERE physicians.id = patients.physician_id)',
  );
  await knex.raw(
    'UPDATE users SET physician_id = NULL WHERE physician_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM physicians WHERE physicians.id = users.physician_id)',
  );
  await knex.schema.alterTable('patients', (t) => {
    t.foreign('physician_id', 'patients_physician_id_foreign')
      .references('id')
      .inTable('physicians')
      .onDelete('SET NULL');
  });
  await knex.schema.alterTable('users', (t) => {
    t.foreign('physician_id', 'users_physician_id_foreign')
      .references('id')
      .inTable('physicians')
      .onDelete('SET NULL');
    // Deleting a physician looks up the logins that name it.
    t.index(['physician_id'], 'users_physician_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropIndex(['physician_id'], 'users_physician_id_index');
    t.dropForeign(['physician_id'], 'users_physician_id_foreign');
  });
  await knex.schema.alterTable('patients', (t) => {
    t.dropForeign(['physician_id'], 'patients_physician_id_foreign');
  });
}
