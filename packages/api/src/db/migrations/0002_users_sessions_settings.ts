import { ROLES } from '@wellrest/core';
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.text('username').notNullable();
    t.text('email');
    t.text('display_name').notNullable();
    t.text('role')
      .notNullable()
      .checkIn([...ROLES], 'users_role_check');
    t.text('password_hash').notNullable();
    t.timestamp('password_changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.boolean('must_change_password').notNullable().defaultTo(false);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('failed_login_count').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.text('totp_secret');
    t.boolean('totp_enabled').notNullable().defaultTo(false);
    // Hashes of unused one-time recovery codes.
    t.jsonb('recovery_codes').notNullable().defaultTo('[]');
    // Links a physician login to its physician record (foreign key added with the physicians table).
    t.integer('physician_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_login_at', { useTz: true });
    t.check('length(trim(username)) > 0', [], 'users_username_not_blank');
    t.check('failed_login_count >= 0', [], 'users_failed_login_count_check');
  });
  // Sign-in accepts either name in any letter case, so uniqueness is case-insensitive too.
  await knex.raw('CREATE UNIQUE INDEX users_username_lower_unique ON users (lower(username))');
  await knex.raw(
    'CREATE UNIQUE INDEX users_email_lower_unique ON users (lower(email)) WHERE email IS NOT NULL',
  );

  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.text('ip');
    t.text('user_agent');
    t.index(['user_id'], 'sessions_user_id_index');
    t.check('expires_at > created_at', [], 'sessions_expiry_after_creation');
  });

  await knex.schema.createTable('trusted_devices', (t) => {
    t.uuid('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('device_id').notNullable();
    t.text('token_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.text('user_agent');
    t.index(['user_id', 'device_id'], 'trusted_devices_user_device_index');
    t.unique(['token_hash'], { indexName: 'trusted_devices_token_hash_unique' });
  });

  await knex.schema.createTable('settings', (t) => {
    t.text('key').primary();
    t.jsonb('value').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('updated_by').references('id').inTable('users').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('settings');
  await knex.schema.dropTable('trusted_devices');
  await knex.schema.dropTable('sessions');
  await knex.schema.dropTable('users');
}
