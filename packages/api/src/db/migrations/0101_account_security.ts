import { REGISTRATION_STATUSES, ROLES } from '@wellrest/core';
import type { Knex } from 'knex';

const sqlList = (values: readonly string[]) =>
  values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  // Requests for an account from the public request-access page, decided by an administrator.
  await knex.schema.createTable('registrations', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('username').notNullable();
    t.text('email').notNullable();
    t.text('requested_role').notNullable();
    t.text('reason').notNullable().defaultTo('');
    t.text('status').notNullable().defaultTo('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true });
    t.integer('decided_by').references('id').inTable('users').onDelete('SET NULL');
    t.text('decision_reason');
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.text('ip');
    t.text('user_agent');
    t.index(['status', 'created_at'], 'registrations_status_index');
  });
  await knex.raw(
    `ALTER TABLE registrations ADD CONSTRAINT registrations_status_check CHECK (status IN (${sqlList(REGISTRATION_STATUSES)}))`,
  );
  await knex.raw(
    `ALTER TABLE registrations ADD CONSTRAINT registrations_role_check CHECK (requested_role IN (${sqlList(ROLES)}))`,
  );
  // One pending request per username and per email address.
  await knex.raw(
    "CREATE UNIQUE INDEX registrations_pending_username_unique ON registrations (lower(username)) WHERE status = 'pending'",
  );
  await knex.raw(
    "CREATE UNIQUE INDEX registrations_pending_email_unique ON registrations (lower(email)) WHERE status = 'pending'",
  );

  // One-time set-password links (after an approval or an administrator's reset). Only hashes are kept.
  await knex.schema.createTable('password_tokens', (t) => {
    t.uuid('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('token_hash').notNullable();
    t.text('purpose').notNullable().checkIn(['registration', 'reset'], 'password_tokens_purpose_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.unique(['token_hash'], { indexName: 'password_tokens_token_hash_unique' });
    t.index(['user_id'], 'password_tokens_user_index');
  });

  // Failed sign-ins under names that belong to no account, keyed by a keyed hash of the name, so
  // an unknown name locks exactly like a real one and the answer never tells them apart.
  await knex.schema.createTable('login_failures', (t) => {
    t.text('name_hash').primary();
    t.integer('failed_count').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // The last TOTP time step accepted, so a code cannot be replayed within its validity window.
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('totp_last_step');
  });

  // Per-address sign-in rate limits count recent failures from the audit trail.
  await knex.raw('CREATE INDEX audit_events_ip_action_index ON audit_events (ip, action, occurred_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS audit_events_ip_action_index');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('totp_last_step');
  });
  await knex.schema.dropTable('login_failures');
  await knex.schema.dropTable('password_tokens');
  await knex.schema.dropTable('registrations');
}
