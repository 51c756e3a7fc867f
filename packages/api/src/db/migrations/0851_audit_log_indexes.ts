import type { Knex } from 'knex';

// The audit log screen pages newest first by (occurred_at, id) and filters by action, user,
// record, outcome, patient and time. Each filter gets an index that ends in (occurred_at, id), so
// the first page and every later page (keyset) are short index range scans at millions of events.
export async function up(knex: Knex): Promise<void> {
  // Cursor times at the database's precision (microseconds), exact both ways.
  await knex.raw(`
    CREATE FUNCTION audit_time_micros(t timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT AS $$
      SELECT (extract(epoch FROM t) * 1000000)::bigint
    $$
  `);
  await knex.raw(`
    CREATE FUNCTION audit_micros_time(m bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT AS $$
      SELECT timestamptz '1970-01-01 00:00:00+00' + (m * interval '1 microsecond')
    $$
  `);
  await knex.raw('CREATE INDEX audit_events_time_id_index ON audit_events (occurred_at, id)');
  await knex.raw('CREATE INDEX audit_events_action_time_index ON audit_events (action, occurred_at, id)');
  await knex.raw(
    'CREATE INDEX audit_events_actor_name_time_index ON audit_events (lower(actor_username), occurred_at, id)',
  );
  await knex.raw(
    'CREATE INDEX audit_events_entity_time_index ON audit_events (entity_type, entity_id, occurred_at, id)',
  );
  await knex.raw(
    `CREATE INDEX audit_events_unsuccessful_index ON audit_events (outcome, occurred_at, id) WHERE outcome <> 'success'`,
  );
  // Lists and searches name the patients they showed in details.ids ("1,2,3").
  await knex.raw(
    `CREATE INDEX audit_events_patient_ids_index ON audit_events USING gin ((string_to_array(details->>'ids', ',')))
     WHERE entity_type = 'patient'`,
  );
  // Covered by the wider indexes above.
  await knex.raw('DROP INDEX IF EXISTS audit_events_occurred_at_index');
  await knex.raw('DROP INDEX IF EXISTS audit_events_entity_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX audit_events_occurred_at_index ON audit_events (occurred_at)');
  await knex.raw('CREATE INDEX audit_events_entity_index ON audit_events (entity_type, entity_id)');
  for (const name of [
    'audit_events_time_id_index',
    'audit_events_action_time_index',
    'audit_events_actor_name_time_index',
    'audit_events_entity_time_index',
    'audit_events_unsuccessful_index',
    'audit_events_patient_ids_index',
  ])
    await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  await knex.raw('DROP FUNCTION IF EXISTS audit_micros_time(bigint)');
  await knex.raw('DROP FUNCTION IF EXISTS audit_time_micros(timestamptz)');
}
