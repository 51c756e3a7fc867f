import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, databaseUrlFor, getTestServer, type TestServer } from '../../test/server.js';

interface Verification {
  ok: boolean;
  checked: number;
  heads: { lane: number; seq: number; hash: string }[];
  firstBroken: { lane: number | null; seq: number | null; eventId: number; reason: string } | null;
}

/** Events, links, and the sum over lanes of each lane's last number (= links when no number is missing). */
async function linkCount(
  db: Knex,
): Promise<{ events: number; links: number; maxSeq: number; lanes: number }> {
  const row = await db
    .select(
      db.raw('(SELECT count(*) FROM audit_events)::int AS events'),
      db.raw('(SELECT count(*) FROM audit_chain)::int AS links'),
      db.raw(
        '(SELECT coalesce(sum(m), 0)::int FROM (SELECT max(seq) AS m FROM audit_chain GROUP BY lane) x) AS "maxSeq"',
      ),
      db.raw('(SELECT count(DISTINCT lane)::int FROM audit_chain) AS lanes'),
    )
    .first();
  return row as { events: number; links: number; maxSeq: number; lanes: number };
}

/** Edits an event as someone with database access would: past the append-only trigger. */
async function tamper(db: Knex, id: number, change: Record<string, unknown>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change');
    await trx('audit_events').where({ id }).update(change);
    await trx.raw('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change');
  });
}

describe('audit hash chain', () => {
  let server: TestServer;
  let admin: Agent;
  /** A second connection pool on the same database: another API process. */
  let otherProcess: Knex;

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
    if (server.engine === 'postgres' && process.env.DATABASE_URL) {
      const { rows } = await server.db.raw('SELECT current_database() AS name');
      otherProcess = knexFactory({
        client: 'pg',
        connection: databaseUrlFor(process.env.DATABASE_URL, rows[0].name),
        pool: { min: 0, max: 6 },
      });
    } else {
      // The embedded engine has one connection: "another process" is the same one.
      otherProcess = server.db;
    }
  });
  afterAll(async () => {
    if (otherProcess !== server.db) await otherProcess.destroy();
    await server.close();
  });

  it('links every event, including concurrent writers from two processes', async () => {
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) writes.push(admin.request('GET', '/api/admin/audit-logs?pageSize=1'));
    for (let i = 0; i < 20; i++)
      writes.push(
        otherProcess.transaction(async (trx) => {
          await trx('audit_events').insert({ action: 'kit.scan', outcome: 'success', details: '{}' });
          await trx('audit_events').insert({ action: 'kit.scan', outcome: 'success', details: { n: i } });
        }),
      );
    await Promise.all(writes);
    const counts = await linkCount(server.db);
    expect(counts.links).toBe(counts.events);
    expect(counts.maxSeq).toBe(counts.links);
    // Concurrent transactions spread over several independent chains.
    expect(counts.lanes).toBeGreaterThan(1);
    const verification = await admin.request<Verification>('GET', '/api/admin/audit-logs/verification');
    expect(verification.status).toBe(200);
    expect(verification.body).toMatchObject({ ok: true, firstBroken: null });
    expect(verification.body.checked).toBeGreaterThanOrEqual(counts.links);
    expect(verification.body.heads.length).toBe(counts.lanes);
    for (const head of verification.body.heads) expect(head.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('leaves no link for an event that was rolled back', async () => {
    const before = await linkCount(server.db);
    await expect(
      server.db.transaction(async (trx) => {
        await trx('audit_events').insert({ action: 'kit.scan', outcome: 'success', details: '{}' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await linkCount(server.db)).toEqual(before);
  });

  it('shows the link of an event in its detail', async () => {
    const page = await admin.request<{ items: { id: number }[] }>('GET', '/api/admin/audit-logs?pageSize=1');
    const id = page.body.items[0]?.id;
    const detail = await admin.request<{
      id: number;
      chain: { seq: number; hash: string; prevHash: string };
    }>('GET', `/api/admin/audit-logs/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.chain).toMatchObject({
      lane: expect.any(Number),
      seq: expect.any(Number),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await admin.request('GET', '/api/admin/audit-logs/99999999')).status).toBe(404);
  });

  it('finds the first edited event', async () => {
    const events = await server.db('audit_events').orderBy('id').select('id');
    const victim = events[Math.floor(events.length / 2)]?.id as number;
    const later = events[events.length - 2]?.id as number;
    await tamper(server.db, later, { ip: '203.0.113.9' });
    await tamper(server.db, victim, { actor_username: 'someone.else' });
    const link = await server.db('audit_chain').where({ event_id: victim }).first('lane', 'seq');
    const verification = await admin.request<Verification>('GET', '/api/admin/audit-logs/verification');
    expect(verification.body).toMatchObject({
      ok: false,
      firstBroken: {
        lane: link.lane,
        seq: Number(link.seq),
        eventId: Number(victim),
        reason: 'content_changed',
      },
    });
    const total = (await linkCount(server.db)).links;
    expect(verification.body.checked).toBeLessThan(total);
    // The failed check is itself recorded, naming the break.
    const recorded = await server
      .db('audit_events')
      .where({ action: 'audit_chain.verify', outcome: 'failure' })
      .first('details');
    expect(recorded.details).toMatchObject({
      ok: false,
      brokenEventId: Number(victim),
      reason: 'content_changed',
    });
  });

  it('keeps the links append-only and finds an event slipped in past the trigger', async () => {
    await expect(server.db('audit_chain').update({ hash: 'x' })).rejects.toThrow(/append-only/);
    await expect(server.db('audit_chain').delete()).rejects.toThrow(/append-only/);
    const fresh = await getTestServer();
    try {
      const freshAdmin = await fresh.loginAs('admin');
      const [row] = await fresh.db.transaction(async (trx) => {
        await trx.raw('ALTER TABLE audit_events DISABLE TRIGGER audit_events_chain');
        const inserted = await trx('audit_events')
          .insert({ action: 'auth.login', outcome: 'success', details: '{}' })
          .returning('id');
        await trx.raw('ALTER TABLE audit_events ENABLE TRIGGER audit_events_chain');
        return inserted;
      });
      const verification = await freshAdmin.request<Verification>(
        'GET',
        '/api/admin/audit-logs/verification',
      );
      expect(verification.body).toMatchObject({
        ok: false,
        firstBroken: { lane: null, seq: null, eventId: Number(row.id), reason: 'event_unchained' },
      });
    } finally {
      await fresh.close();
    }
  });

  it('is for administrators only', async () => {
    const scheduler = await server.loginAs('scheduler');
    expect((await scheduler.request('GET', '/api/admin/audit-logs/verification')).status).toBe(403);
    expect((await server.request('GET', '/api/admin/audit-logs/verification')).status).toBe(401);
  });
});
