import type { Knex } from 'knex';

// Trigram indexes for the global search over physicians (name and practice), matching the
// patients' ones of 0202 and 0003.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS physicians_name_trgm ON physicians USING gin (name gin_trgm_ops)',
  );
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS physicians_practice_trgm ON physicians USING gin (practice gin_trgm_ops)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS physicians_practice_trgm');
  await knex.raw('DROP INDEX IF EXISTS physicians_name_trgm');
}
