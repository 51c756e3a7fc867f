import type { Knex } from 'knex';

// Failed sign-ins, one row each, keyed by account (or by a keyed hash of a name that is no
// account) and by client address: the per-account-and-address delays and limits and the account
// lock count them. Rows older than a day are pruned as new failures arrive.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_attempt_failures', (t) => {
    t.bigIncrements('id');
    t.text('account_key').notNullable();
    t.text('ip').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_key', 'ip', 'occurred_at'], 'login_attempt_failures_key_ip_index');
    t.index(['account_key', 'occurred_at'], 'login_attempt_failures_key_index');
    t.index(['ip', 'occurred_at'], 'login_attempt_failures_ip_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_attempt_failures');
}
