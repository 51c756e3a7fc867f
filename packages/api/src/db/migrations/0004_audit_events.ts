import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('id');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // No foreign key: the trail must outlive the accounts it mentions.
    t.integer('actor_user_id');
    t.text('actor_username');
    t.text('action').notNullable();
    t.text('entity_type');
    t.text('entity_id');
    t.text('outcome').notNullable().checkIn(['success', 'failure', 'denied'], 'audit_events_outcome_check');
    t.text('ip');
    t.text('user_agent');
    // Identifiers and reasons only, never patient data.
    t.jsonb('details').notNullable().defaultTo('{}');
    t.index(['occurred_at'], 'audit_events_occurred_at_index');
    t.index(['actor_user_id', 'occurred_at'], 'audit_events_actor_index');
    t.index(['entity_type', 'entity_id'], 'audit_events_entity_index');
  });
  // The audit trail is append-only: no row may be changed or removed, even by the application.
  await knex.raw(`
    CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_events is append-only' USING ERRCODE = 'insufficient_privilege';
    END
    $$
  `);
  await knex.raw(`
    CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()
  `);
  await knex.raw(`
    CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex.raw('DROP FUNCTION IF EXISTS audit_events_append_only()');
}
