import type { Knex } from 'knex';

// Lookups of the global search: emails match by prefix only, which a btree on the lower-cased
// address answers in a few index entries where the trigram index read hundreds; a kit label
// shows that kit's most recent bookings, read newest first from (kit_id, start_date).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS patients_email_prefix ON patients (lower(email) text_pattern_ops)',
  );
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS bookings_kit_id_start_date_index ON bookings (kit_id, start_date)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS bookings_kit_id_start_date_index');
  await knex.raw('DROP INDEX IF EXISTS patients_email_prefix');
}
