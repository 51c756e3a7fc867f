import {
  BOOKING_STATUSES,
  GENDERS,
  HOLDING_STATUSES,
  KIT_STATUSES,
  KIT_TYPES,
  LEAD_SOURCES,
  TEST_TYPES,
} from '@wellrest/core';
import type { Knex } from 'knex';

const sqlList = (values: readonly string[]) =>
  values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('patients', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('phone').notNullable();
    t.date('date_of_birth');
    t.text('gender').checkIn([...GENDERS], 'patients_gender_check');
    t.text('address');
    t.text('city');
    t.text('state');
    t.text('zip_code');
    t.text('emergency_contact');
    t.text('emergency_phone');
    t.text('insurance_provider');
    t.text('insurance_policy_number');
    t.text('referring_physician');
    t.text('medical_history');
    t.text('medications');
    t.text('lead_source')
      .notNullable()
      .defaultTo('Direct')
      .checkIn([...LEAD_SOURCES], 'patients_lead_source_check');
    t.text('ghl_id');
    // The physician the patient belongs to (foreign key added with the physicians table).
    t.integer('physician_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.unique(['ghl_id'], { indexName: 'patients_ghl_id_unique' });
    t.index(['physician_id'], 'patients_physician_id_index');
    t.check('length(trim(name)) > 0', [], 'patients_name_not_blank');
  });
  // Trigram indexes serve the search dialog's partial matches on name, email and phone.
  await knex.raw('CREATE INDEX patients_name_trgm ON patients USING gin (name gin_trgm_ops)');
  await knex.raw('CREATE INDEX patients_email_trgm ON patients USING gin (email gin_trgm_ops)');
  await knex.raw('CREATE INDEX patients_phone_trgm ON patients USING gin (phone gin_trgm_ops)');

  await knex.schema.createTable('kits', (t) => {
    t.increments('id');
    t.text('kit_id').notNullable();
    t.text('type')
      .notNullable()
      .checkIn([...KIT_TYPES], 'kits_type_check');
    t.text('status')
      .notNullable()
      .defaultTo('available')
      .checkIn([...KIT_STATUSES], 'kits_status_check');
    t.text('serial_number');
    t.text('notes');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['kit_id'], { indexName: 'kits_kit_id_unique' });
    t.index(['type'], 'kits_type_index');
  });

  await knex.schema.createTable('bookings', (t) => {
    t.increments('id');
    t.integer('patient_id').notNullable().references('id').inTable('patients').onDelete('RESTRICT');
    t.integer('kit_id').references('id').inTable('kits').onDelete('RESTRICT');
    t.text('test_type')
      .notNullable()
      .checkIn([...TEST_TYPES], 'bookings_test_type_check');
    t.text('kit_type')
      .notNullable()
      .checkIn([...KIT_TYPES], 'bookings_kit_type_check');
    t.text('status')
      .notNullable()
      .checkIn([...BOOKING_STATUSES], 'bookings_status_check');
    t.date('start_date').notNullable();
    t.date('end_date').notNullable();
    t.date('return_date').notNullable();
    t.text('notes');
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('end_date >= start_date', [], 'bookings_end_not_before_start');
    t.check('return_date > end_date', [], 'bookings_return_after_end');
    t.index(['patient_id'], 'bookings_patient_id_index');
    t.index(['start_date'], 'bookings_start_date_index');
    t.index(['return_date'], 'bookings_return_date_index');
    t.index(['status', 'start_date'], 'bookings_status_start_date_index');
  });
  // A kit-holding booking holds its kit from the start date through the maintenance day after
  // the end date: [start_date, end_date + 2). No two such bookings may hold the same kit on the
  // same date, whatever the application does and however many processes write at once.
  await knex.raw(`
    ALTER TABLE bookings ADD CONSTRAINT bookings_kit_hold_no_overlap
    EXCLUDE USING gist (kit_id WITH =, daterange(start_date, end_date + 2, '[)') WITH &&)
    WHERE (status IN (${sqlList(HOLDING_STATUSES)}) AND kit_id IS NOT NULL)
  `);
  await knex.raw(
    "CREATE INDEX bookings_held_range_index ON bookings USING gist (daterange(start_date, end_date + 2, '[)'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('bookings');
  await knex.schema.dropTable('kits');
  await knex.schema.dropTable('patients');
}
