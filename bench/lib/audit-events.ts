import type { Knex } from 'knex';

// The audit log at scale: a practice's two years of events (one a minute), written straight into
// `audit_events` through the same chain trigger the API's writes go through. Seeded by row
// number, so every run has the same rows. Mostly reads of patient records, some lists (naming 25
// patients each), searches, bookings and sign-ins; 1% refused, 2% failed.

export const AUDIT_BENCH_USERS = 40;
export const AUDIT_BENCH_PATIENTS = 100_000;

const BATCH = 100_000;

export async function writeAuditEvents(knex: Knex, count: number): Promise<number> {
  const started = performance.now();
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await knex.raw(
      `INSERT INTO audit_events
         (occurred_at, actor_user_id, actor_username, action, entity_type, entity_id, outcome, ip, user_agent, details)
       SELECT now() - ((:count::int - g) * interval '63 seconds'),
              1000 + g % :users, 'user' || (g % :users), a.action,
              a.entity_type,
              CASE WHEN a.kind = 'one' THEN ((g * 7919) % :patients + 1)::text END,
              CASE WHEN g % 100 = 7 THEN 'denied' WHEN g % 50 = 3 THEN 'failure' ELSE 'success' END,
              '10.0.' || (g % 200) || '.' || (g % 250), 'Mozilla/5.0 (bench)',
              CASE WHEN a.kind = 'list' THEN jsonb_build_object('count', 25, 'ids',
                     (SELECT string_agg(((g * 31 + k * 4099) % :patients + 1)::text, ',') FROM generate_series(1, 25) k))
                   WHEN a.kind = 'one' THEN jsonb_build_object('count', 1, 'ids', ((g * 7919) % :patients + 1)::text)
                   ELSE '{}'::jsonb END
         FROM generate_series(:from::bigint, :to::bigint) g
         CROSS JOIN LATERAL (
           SELECT * FROM (VALUES
             (0, 'patient.read', 'patient', 'one'), (1, 'patient.read', 'patient', 'one'),
             (2, 'patient.read', 'patient', 'one'), (3, 'patient.list', 'patient', 'list'),
             (4, 'patient.update', 'patient', 'one'), (5, 'booking.read', 'booking', 'none'),
             (6, 'booking.list', 'booking', 'none'), (7, 'search.query', 'search', 'none'),
             (8, 'auth.login', 'session', 'none'), (9, 'dashboard.availability', 'dashboard', 'none')
           ) AS v(slot, action, entity_type, kind) WHERE v.slot = g % 10
         ) a`,
      { count, users: AUDIT_BENCH_USERS, patients: AUDIT_BENCH_PATIENTS, from, to },
    );
  }
  // As autovacuum would soon after such a load: measured pages should not meet it half-way.
  await knex.raw('VACUUM ANALYZE audit_events');
  await knex.raw('VACUUM ANALYZE audit_chain');
  return Math.round(performance.now() - started);
}
