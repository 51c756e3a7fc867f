import type { Knex } from 'knex';

// A tamper-evident audit trail: every event gets a link in `audit_chain` holding the SHA-256 of
// its content and of the previous link. The link is written by a deferred constraint trigger,
// so it is computed inside the transaction that writes the event, at its commit, under a
// transaction-scoped advisory lock: writers from any number of API processes take turns, the
// chain order is the commit order, and an event rolled back leaves no link. Taking the lock only
// at commit keeps it short and means a writer holding it waits for nothing else (no deadlock
// with the row locks of the change the event describes).
//
// The lock must be held through the commit's WAL flush (a link may only name a committed
// predecessor), so one chain lets audited commits through one fsync at a time. There are
// therefore several independent chains ("lanes"), a transaction's lane chosen by its id: each
// lane is a complete hash chain of its own, verified on its own, and writers in different lanes
// commit in parallel.

/** The genesis link's "previous hash", in every lane. */
export const AUDIT_CHAIN_GENESIS = '0'.repeat(64);

/** Independent chains; concurrent audited commits scale up to about this many. */
export const AUDIT_CHAIN_LANES = 8;

/** Lane n is serialised by the advisory lock of key AUDIT_CHAIN_LOCK_KEY + n. */
export const AUDIT_CHAIN_LOCK_KEY = 7_305_118_200;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_chain', (t) => {
    t.smallint('lane').notNullable();
    // 1, 2, 3, ... in each lane without gaps: a missing number is a removed link.
    t.bigInteger('seq').notNullable();
    t.bigInteger('event_id').notNullable().unique('audit_chain_event_unique');
    t.text('prev_hash').notNullable();
    t.text('hash').notNullable();
    t.primary(['lane', 'seq'], { constraintName: 'audit_chain_pkey' });
    t.check(`lane >= 0 AND lane < ${AUDIT_CHAIN_LANES}`, [], 'audit_chain_lane_check');
  });

  // The content of an event as hashed: a JSON array in a fixed order, times in UTC with
  // microseconds, details as PostgreSQL's canonical jsonb text. Written once, in SQL, so the
  // trigger and the verification can never disagree about it.
  await knex.raw(`
    CREATE FUNCTION audit_event_digest(prev text, lane smallint, seq bigint, e audit_events) RETURNS text
    LANGUAGE sql STABLE AS $$
      SELECT encode(sha256(convert_to(jsonb_build_array(
        prev, lane, seq, e.id,
        to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        e.actor_user_id, e.actor_username, e.action, e.entity_type, e.entity_id, e.outcome,
        e.ip, e.user_agent, e.details
      )::text, 'UTF8')), 'hex')
    $$
  `);

  await knex.raw(`
    CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      chain_lane smallint := (txid_current() % ${AUDIT_CHAIN_LANES})::smallint;
      head_seq bigint;
      head_hash text;
    BEGIN
      PERFORM pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY} + chain_lane);
      SELECT seq, hash INTO head_seq, head_hash FROM audit_chain
        WHERE lane = chain_lane ORDER BY seq DESC LIMIT 1;
      head_seq := coalesce(head_seq, 0) + 1;
      head_hash := coalesce(head_hash, '${AUDIT_CHAIN_GENESIS}');
      INSERT INTO audit_chain (lane, seq, event_id, prev_hash, hash)
        VALUES (chain_lane, head_seq, NEW.id, head_hash, audit_event_digest(head_hash, chain_lane, head_seq, NEW));
      RETURN NULL;
    END
    $$
  `);

  // Events already recorded are chained in id order, once, in lane 0.
  await knex.raw(`
    DO $$
    DECLARE
      e audit_events;
      n bigint := 0;
      prev text := '${AUDIT_CHAIN_GENESIS}';
      h text;
    BEGIN
      FOR e IN SELECT * FROM audit_events ORDER BY id LOOP
        n := n + 1;
        h := audit_event_digest(prev, 0::smallint, n, e);
        INSERT INTO audit_chain (lane, seq, event_id, prev_hash, hash) VALUES (0, n, e.id, prev, h);
        prev := h;
      END LOOP;
    END
    $$
  `);

  await knex.raw(`
    CREATE CONSTRAINT TRIGGER audit_events_chain AFTER INSERT ON audit_events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_events_chain()
  `);
  // The links are as append-only as the events.
  await knex.raw(`
    CREATE TRIGGER audit_chain_no_change BEFORE UPDATE OR DELETE ON audit_chain
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()
  `);
  await knex.raw(`
    CREATE TRIGGER audit_chain_no_truncate BEFORE TRUNCATE ON audit_chain
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS audit_events_chain ON audit_events');
  await knex.schema.dropTableIfExists('audit_chain');
  await knex.raw('DROP FUNCTION IF EXISTS audit_events_chain()');
  await knex.raw('DROP FUNCTION IF EXISTS audit_event_digest(text, smallint, bigint, audit_events)');
}
