import { HOLDING_STATUSES, MAINTENANCE_DAYS } from '@wellrest/core';
import type { Knex } from 'knex';

// The holds that decide a new booking's kit: the bookings of a kit type that hold a kit over a
// window. The exclusion constraint's index leads with the kit, so a window alone scanned most of
// it (35 ms at five million bookings); the held-range index holds every booking ever made. This
// one holds only the bookings that hold a kit, by their held range (3 ms there).

const statuses = HOLDING_STATUSES.map((status) => `'${status}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX IF NOT EXISTS bookings_holding_range_index ON bookings
     USING gist (daterange(start_date, end_date + ${MAINTENANCE_DAYS + 1}, '[)')) WHERE status IN (${statuses})`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS bookings_holding_range_index');
}
