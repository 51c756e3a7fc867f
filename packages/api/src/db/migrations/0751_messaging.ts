import {
  DELIVERY_STATUSES,
  ROLES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_CHANNELS,
  TEMPLATE_TRIGGERS,
} from '@wellrest/core';
import type { Knex } from 'knex';

// Messaging: the outbox of domain events (written in the transaction of the change they report,
// then handed to the job queue), message templates with their versions, one row per delivery of
// an email or text, SMS opt-outs, and in-app notifications to a user or a role.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox_events', (t) => {
    t.bigIncrements('id');
    t.text('topic').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
  });
  await knex.raw(
    'CREATE INDEX outbox_events_pending_index ON outbox_events (id) WHERE dispatched_at IS NULL',
  );

  await knex.schema.createTable('message_templates', (t) => {
    t.increments('id');
    /** Names a starter template, so seeding it again finds it. */
    t.text('key');
    t.text('name').notNullable();
    t.text('channel')
      .notNullable()
      .checkIn([...TEMPLATE_CHANNELS], 'message_templates_channel_check');
    t.text('category')
      .notNullable()
      .checkIn([...TEMPLATE_CATEGORIES], 'message_templates_category_check');
    t.text('trigger')
      .notNullable()
      .checkIn([...TEMPLATE_TRIGGERS], 'message_templates_trigger_check');
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('current_version').notNullable().defaultTo(1);
    t.boolean('contains_phi').notNullable().defaultTo(false);
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['key'], { indexName: 'message_templates_key_unique' });
  });

  await knex.schema.createTable('message_template_versions', (t) => {
    t.increments('id');
    t.integer('template_id').notNullable().references('id').inTable('message_templates').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('subject');
    t.text('html');
    t.text('text');
    t.text('body');
    t.jsonb('variables').notNullable().defaultTo('[]');
    t.boolean('contains_phi').notNullable().defaultTo(false);
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['template_id', 'version'], { indexName: 'message_template_versions_unique' });
  });

  await knex.schema.createTable('deliveries', (t) => {
    t.bigIncrements('id');
    t.text('channel')
      .notNullable()
      .checkIn([...TEMPLATE_CHANNELS], 'deliveries_channel_check');
    t.text('recipient').notNullable();
    t.integer('template_id').references('id').inTable('message_templates').onDelete('SET NULL');
    t.integer('template_version');
    t.integer('patient_id').references('id').inTable('patients').onDelete('SET NULL');
    t.boolean('contains_phi').notNullable().defaultTo(false);
    /** The rendered message: subject, html, text (email) or body (SMS). */
    t.jsonb('content').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('queued')
      .checkIn([...DELIVERY_STATUSES], 'deliveries_status_check');
    t.integer('attempts').notNullable().defaultTo(0);
    /** Which way it went: smtp, sms, or the built-in outbox when the channel is not configured. */
    t.text('transport');
    t.text('provider_id');
    t.text('error_code');
    /** Names the send: a retry after a crash finds the row and never sends twice. */
    t.text('idempotency_key').notNullable();
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.unique(['idempotency_key'], { indexName: 'deliveries_idempotency_unique' });
    t.index(['created_at', 'id'], 'deliveries_created_index');
    t.index(['provider_id'], 'deliveries_provider_index');
  });

  await knex.schema.createTable('sms_opt_outs', (t) => {
    /** Digits only, so every spelling of a number matches. */
    t.text('phone').primary();
    t.text('source').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('notifications', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').references('id').inTable('users').onDelete('CASCADE');
    t.text('role').checkIn([...ROLES], 'notifications_role_check');
    t.text('kind').notNullable();
    t.text('title').notNullable();
    t.text('body');
    /** A console path, e.g. /bookings. */
    t.text('link');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'id'], 'notifications_user_index');
    t.index(['role', 'id'], 'notifications_role_index');
  });
  await knex.raw(
    'ALTER TABLE notifications ADD CONSTRAINT notifications_audience_check CHECK (user_id IS NOT NULL OR role IS NOT NULL)',
  );
  await knex.schema.createTable('notification_reads', (t) => {
    t.bigInteger('notification_id')
      .notNullable()
      .references('id')
      .inTable('notifications')
      .onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.timestamp('read_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['notification_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'notification_reads',
    'notifications',
    'sms_opt_outs',
    'deliveries',
    'message_template_versions',
    'message_templates',
    'outbox_events',
  ])
    await knex.schema.dropTableIfExists(table);
}
