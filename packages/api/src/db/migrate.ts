import type { Knex } from 'knex';
import { migrationSource } from './migrations/index.js';

/** Brings the schema to the latest migration. Safe to run from several processes at once. */
export async function migrate(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
