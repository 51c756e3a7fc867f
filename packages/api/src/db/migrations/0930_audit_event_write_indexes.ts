import type { Knex } from 'knex';

// Every audited request writes an event, so each index of audit_events is paid for on every
// read of patient data. Two served nothing the trail is read by:
// - (actor_user_id, occurred_at): the audit log filters by username
//   (audit_events_actor_name_time_index, migration 0851); nothing reads the trail by user id.
// - (ip, action, occurred_at): only the access-request rate limit reads the trail by address
//   (modules/registrations/store.ts recentRequestsFrom), and only its own action's events; a
//   partial index holds just those, and no other event writes to it.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS audit_events_actor_index');
  await knex.raw('DROP INDEX IF EXISTS audit_events_ip_action_index');
  await knex.raw(
    `CREATE INDEX audit_events_registration_ip_index ON audit_events (ip, occurred_at)
     WHERE action = 'registration.create'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS audit_events_registration_ip_index');
  await knex.raw('CREATE INDEX audit_events_ip_action_index ON audit_events (ip, action, occurred_at)');
  await knex.raw('CREATE INDEX audit_events_actor_index ON audit_events (actor_user_id, occurred_at)');
}
