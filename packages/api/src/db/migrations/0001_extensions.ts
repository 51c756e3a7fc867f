import type { Knex } from 'knex';

// btree_gist lets an exclusion constraint combine equality on a kit with overlap of date
// ranges; pg_trgm backs the fuzzy search over patients.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP EXTENSION IF EXISTS pg_trgm');
  await knex.raw('DROP EXTENSION IF EXISTS btree_gist');
}
