import type { Knex } from 'knex';

// Btree indexes for the patients table's sortable columns, so the first pages of a sorted list
// read a few index entries instead of sorting every patient. Ties are broken by id, which an
// incremental sort over these indexes handles cheaply.
const INDEXES = [
  ['patients_name_index', 'name'],
  ['patients_email_index', 'email'],
  ['patients_created_at_index', 'created_at'],
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const [name, column] of INDEXES) {
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON patients (${column})`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
}
