import { KIT_TYPES } from '@wellrest/core';
import type { Knex } from 'knex';

// Kit upkeep and scanning: the cleaning gate (a returned kit waits for its cleaning), logged
// cleanings and maintenance, maintenance schedules per kit type, every scan at the desk, and each
// user's scanner set-up.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('kits', (t) => {
    // Set when a kit is checked in, cleared when its cleaning is logged.
    t.date('cleaning_since');
    t.date('cleaning_due_on');
    t.timestamp('retired_at', { useTz: true });
  });

  await knex.schema.createTable('kit_cleanings', (t) => {
    t.bigIncrements('id');
    t.integer('kit_id').notNullable().references('id').inTable('kits').onDelete('CASCADE');
    t.integer('booking_id').references('id').inTable('bookings').onDelete('SET NULL');
    t.date('started_on').notNullable();
    t.date('due_on').notNullable();
    t.date('cleaned_on').notNullable();
    t.text('notes');
    // No foreign key: the history must outlive the accounts it mentions.
    t.integer('performed_by');
    t.text('performed_by_username');
    t.timestamp('performed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['kit_id', 'performed_at'], 'kit_cleanings_kit_index');
    t.check('cleaned_on >= started_on', [], 'kit_cleanings_cleaned_after_start');
  });

  await knex.schema.createTable('kit_maintenance', (t) => {
    t.bigIncrements('id');
    t.integer('kit_id').notNullable().references('id').inTable('kits').onDelete('CASCADE');
    t.date('done_on').notNullable();
    t.text('notes');
    t.integer('performed_by');
    t.text('performed_by_username');
    t.timestamp('performed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['kit_id', 'done_on'], 'kit_maintenance_kit_index');
  });

  await knex.schema.createTable('maintenance_schedules', (t) => {
    t.increments('id');
    t.text('kit_type')
      .notNullable()
      .checkIn([...KIT_TYPES], 'maintenance_schedules_kit_type_check');
    t.integer('every_days').notNullable();
    t.text('notes');
    t.integer('updated_by');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['kit_type'], { indexName: 'maintenance_schedules_kit_type_unique' });
    t.check('every_days > 0', [], 'maintenance_schedules_every_days_positive');
  });

  await knex.schema.createTable('kit_scans', (t) => {
    t.bigIncrements('id');
    // Null when the code named no kit; the code itself is kept (a kit label, never patient data).
    t.integer('kit_id').references('id').inTable('kits').onDelete('SET NULL');
    t.text('code').notNullable();
    t.integer('booking_id').references('id').inTable('bookings').onDelete('SET NULL');
    t.text('mode').notNullable().checkIn(['checkout', 'checkin'], 'kit_scans_mode_check');
    t.text('outcome').notNullable().checkIn(['accepted', 'rejected'], 'kit_scans_outcome_check');
    t.text('message').notNullable();
    t.integer('user_id');
    t.text('username');
    t.text('station');
    t.text('user_agent');
    t.timestamp('scanned_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['scanned_at'], 'kit_scans_scanned_at_index');
    t.index(['kit_id', 'scanned_at'], 'kit_scans_kit_index');
  });

  await knex.schema.createTable('scanner_settings', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.jsonb('settings').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scanner_settings');
  await knex.schema.dropTable('kit_scans');
  await knex.schema.dropTable('maintenance_schedules');
  await knex.schema.dropTable('kit_maintenance');
  await knex.schema.dropTable('kit_cleanings');
  await knex.schema.alterTable('kits', (t) => {
    t.dropColumn('retired_at');
    t.dropColumn('cleaning_due_on');
    t.dropColumn('cleaning_since');
  });
}
