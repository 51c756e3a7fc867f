import type { Knex } from 'knex';

// The bookings list sorts by start date, return date or id, ties broken by id in the same
// direction. With (date, id) indexes a page reads its own rows from the index, forwards or
// backwards; a date-only index made every page sort a whole date's bookings first (a thousand at
// a clinic network's busiest dates, 7 ms a page). The composite indexes serve every query the
// date-only ones did, which they replace.
const REPLACED = [
  ['bookings_start_date_index', 'bookings_start_date_id_index', 'start_date'],
  ['bookings_return_date_index', 'bookings_return_date_id_index', 'return_date'],
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const [old, name, column] of REPLACED) {
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON bookings (${column}, id)`);
    await knex.raw(`DROP INDEX IF EXISTS ${old}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [old, name, column] of REPLACED) {
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${old} ON bookings (${column})`);
    await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  }
}
