import type { Knex } from 'knex';

// Indexes that keep search and kit lookups off full-table scans at clinic-network scale
// (hundreds of thousands of bookings): bookings by kit, and phone numbers by their digits.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS bookings_kit_id_index ON bookings (kit_id)');
  await knex.raw(
    "CREATE INDEX IF NOT EXISTS patients_phone_digits_trgm ON patients USING gin ((regexp_replace(phone, '\\D', '', 'g')) gin_trgm_ops)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS patients_phone_digits_trgm');
  await knex.raw('DROP INDEX IF EXISTS bookings_kit_id_index');
}
