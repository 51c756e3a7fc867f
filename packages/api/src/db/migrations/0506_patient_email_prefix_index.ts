import type { Knex } from 'knex';

// The search matches emails by prefix only: a btree on the lower-cased address answers
// `lower(email) LIKE 'prefix%'` in a few index entries, where the trigram index read hundreds.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS patients_email_prefix ON patients (lower(email) text_pattern_ops)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS patients_email_prefix');
}
