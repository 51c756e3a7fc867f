import { KIT_TYPES, REFERRAL_URGENCIES, TEST_TYPES } from '@wellrest/core';
import type { Knex } from 'knex';

// The public side: embed keys for partner sites, the submissions of the public forms (booking
// requests, referrals, physician sign-ups, drop-off reports), physicians and referrals, and the
// signed agreement (signature, signer details and the PDF kept with the booking).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('embed_keys', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('key').notNullable();
    t.jsonb('allowed_origins').notNullable().defaultTo('[]');
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.unique(['key'], { indexName: 'embed_keys_key_unique' });
  });

  // One row per accepted public submission: the idempotency record and the rate limits' counter.
  await knex.schema.createTable('public_submissions', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.uuid('idempotency_key').notNullable();
    t.text('request_id').notNullable();
    t.integer('embed_key_id').references('id').inTable('embed_keys').onDelete('SET NULL');
    t.text('ip');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['kind', 'idempotency_key'], { indexName: 'public_submissions_idempotency_unique' });
    t.index(['ip', 'created_at'], 'public_submissions_ip_index');
    t.index(['embed_key_id', 'created_at'], 'public_submissions_embed_key_index');
  });

  await knex.schema.createTable('physicians', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('npi').notNullable();
    t.text('practice');
    t.text('email');
    t.text('phone');
    t.text('specialty');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['npi'], { indexName: 'physicians_npi_unique' });
  });

  await knex.schema.createTable('booking_requests', (t) => {
    t.increments('id');
    t.text('request_id').notNullable();
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('phone').notNullable();
    t.date('date_of_birth');
    t.text('kit_type')
      .notNullable()
      .checkIn([...KIT_TYPES], 'booking_requests_kit_type_check');
    t.text('test_type')
      .notNullable()
      .checkIn([...TEST_TYPES], 'booking_requests_test_type_check');
    t.date('start_date').notNullable();
    t.text('notes');
    t.jsonb('utm').notNullable().defaultTo('{}');
    // 'pending_booking' when a pending booking holds a kit for it; 'needs_review' when none was free.
    t.text('status')
      .notNullable()
      .checkIn(['pending_booking', 'needs_review'], 'booking_requests_status_check');
    t.integer('patient_id').references('id').inTable('patients').onDelete('SET NULL');
    t.integer('booking_id').references('id').inTable('bookings').onDelete('SET NULL');
    t.integer('embed_key_id').references('id').inTable('embed_keys').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['request_id'], { indexName: 'booking_requests_request_id_unique' });
  });

  await knex.schema.createTable('referrals', (t) => {
    t.increments('id');
    t.text('request_id').notNullable();
    t.integer('physician_id').notNullable().references('id').inTable('physicians').onDelete('RESTRICT');
    t.integer('patient_id').notNullable().references('id').inTable('patients').onDelete('RESTRICT');
    t.text('status').notNullable().defaultTo('new');
    t.text('urgency')
      .notNullable()
      .checkIn([...REFERRAL_URGENCIES], 'referrals_urgency_check');
    t.text('reason').notNullable();
    t.text('attachment_filename');
    t.text('attachment_content_type');
    t.binary('attachment_data');
    t.jsonb('utm').notNullable().defaultTo('{}');
    t.integer('embed_key_id').references('id').inTable('embed_keys').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['request_id'], { indexName: 'referrals_request_id_unique' });
    t.index(['physician_id'], 'referrals_physician_id_index');
    t.index(['patient_id'], 'referrals_patient_id_index');
  });

  await knex.schema.createTable('physician_signups', (t) => {
    t.increments('id');
    t.text('request_id').notNullable();
    t.text('name').notNullable();
    t.text('npi').notNullable();
    t.text('practice').notNullable();
    t.text('email').notNullable();
    t.text('phone').notNullable();
    t.text('specialty').notNullable();
    t.jsonb('utm').notNullable().defaultTo('{}');
    t.text('status')
      .notNullable()
      .defaultTo('pending')
      .checkIn(['pending', 'approved', 'rejected'], 'physician_signups_status_check');
    t.integer('physician_id').references('id').inTable('physicians').onDelete('SET NULL');
    t.integer('decided_by');
    t.timestamp('decided_at', { useTz: true });
    t.integer('embed_key_id').references('id').inTable('embed_keys').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['request_id'], { indexName: 'physician_signups_request_id_unique' });
  });

  // signed_at, signed_name, signed_ip and signed_user_agent exist since 0201.
  await knex.schema.alterTable('agreements', (t) => {
    t.binary('signature_png');
    t.binary('pdf');
  });

  await knex.schema.createTable('dropoffs', (t) => {
    t.increments('id');
    t.text('request_id').notNullable();
    t.integer('booking_id').notNullable().references('id').inTable('bookings').onDelete('CASCADE');
    t.date('dropoff_date').notNullable();
    t.text('location').notNullable();
    t.text('notes');
    t.text('problems');
    t.timestamp('confirmed_at', { useTz: true });
    t.integer('confirmed_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['request_id'], { indexName: 'dropoffs_request_id_unique' });
    t.index(['booking_id'], 'dropoffs_booking_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dropoffs');
  await knex.schema.alterTable('agreements', (t) => {
    t.dropColumns('signature_png', 'pdf');
  });
  await knex.schema.dropTable('physician_signups');
  await knex.schema.dropTable('referrals');
  await knex.schema.dropTable('booking_requests');
  await knex.schema.dropTable('physicians');
  await knex.schema.dropTable('public_submissions');
  await knex.schema.dropTable('embed_keys');
}
