import { randomUUID } from 'node:crypto';
import { HOUSEKEEPING_RETENTION_DEFAULTS, HOUSEKEEPING_TASKS } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMA } from '../../db/migrations/0750_job_queue.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// Each task purges exactly what expired, was used or finished more than its retention ago, and
// nothing else: rows inside the retention, live rows and audit events stay.

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const ahead = (days: number) => new Date(Date.now() + days * DAY);

describe('housekeeping', () => {
  let server: TestServer;
  let admin: Agent;
  let userId: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    server = await getTestServer({ logLines });
    admin = await server.loginAs('admin');
    userId = (await server.createUser({ role: 'staff' })).id;
  });
  afterAll(async () => server.close());

  it('purges each kind of expired row after its retention and keeps the rest', async () => {
    const db = server.db;
    const session = (created: Date, expires: Date, revoked: Date | null = null) => ({
      id: randomUUID(),
      user_id: userId,
      created_at: created,
      last_seen_at: created,
      expires_at: expires,
      revoked_at: revoked,
    });
    const sessions = {
      expiredLongAgo: session(ago(50), ago(40)),
      expiredRecently: session(ago(20), ago(10)),
      live: session(ago(1), ahead(1)),
      revokedLongAgo: session(ago(50), ahead(10), ago(40)),
    };
    await db('sessions').insert(Object.values(sessions));

    const device = (expires: Date, revoked: Date | null = null) => ({
      id: randomUUID(),
      user_id: userId,
      device_id: randomUUID(),
      token_hash: randomUUID(),
      created_at: ago(100),
      expires_at: expires,
      revoked_at: revoked,
    });
    const devices = {
      old: device(ago(31)),
      recent: device(ago(29)),
      live: device(ahead(5)),
      revoked: device(ahead(5), ago(45)),
    };
    await db('trusted_devices').insert(Object.values(devices));

    const token = (expires: Date, used: Date | null = null) => ({
      id: randomUUID(),
      user_id: userId,
      token_hash: randomUUID(),
      purpose: 'reset',
      created_at: ago(100),
      expires_at: expires,
      used_at: used,
    });
    const tokens = { expired: token(ago(31)), used: token(ahead(1), ago(31)), live: token(ahead(1)) };
    await db('password_tokens').insert(Object.values(tokens));

    await db('login_failures').insert([
      { name_hash: 'old', failed_count: 2, updated_at: ago(8) },
      { name_hash: 'recent', failed_count: 2, updated_at: ago(6) },
      { name_hash: 'old-but-locked', failed_count: 5, updated_at: ago(8), locked_until: ahead(1) },
    ]);

    const submission = (created: Date) => ({
      kind: 'booking_request',
      idempotency_key: randomUUID(),
      request_id: randomUUID(),
      created_at: created,
    });
    const [oldSubmission] = await db('public_submissions')
      .insert(submission(ago(91)))
      .returning('id');
    const [recentSubmission] = await db('public_submissions')
      .insert(submission(ago(89)))
      .returning('id');

    await db('outbox_events').insert([
      { topic: 'housekeeping.test', dispatched_at: ago(31) },
      { topic: 'housekeeping.test', dispatched_at: ago(29) },
      { topic: 'housekeeping.test', dispatched_at: null, created_at: ago(60) },
    ]);

    const job = (state: string, completed: Date | null) => ({
      id: randomUUID(),
      name: 'housekeeping-test',
      state,
      completed_on: completed,
      data: {},
    });
    // A queue of its own (pg-boss keeps each queue's jobs in its own partition).
    const boss = await server.jobs.start();
    await boss.createQueue('housekeeping-test');
    await db
      .withSchema(JOB_SCHEMA)
      .table('job')
      .insert([
        job('completed', ago(15)),
        job('failed', ago(15)),
        job('completed', ago(13)),
        job('created', null),
      ]);
    const auditBefore = Number((await db('audit_events').count({ n: '*' }))[0]?.n);

    const run = await admin.request<{ removed: Record<string, number> }>(
      'POST',
      '/api/admin/housekeeping/run',
    );
    expect(run.status, logLines.filter((l) => l.includes('"level":50')).join('\n')).toBe(200);
    expect(run.body.removed).toEqual({
      sessions: 2,
      trustedDevices: 2,
      passwordTokens: 2,
      loginFailures: 1,
      publicSubmissions: 1,
      dispatchedEvents: 1,
      finishedJobs: 2,
    });

    const sessionIds = await db('sessions')
      .whereIn(
        'id',
        Object.values(sessions).map((s) => s.id),
      )
      .pluck('id');
    expect(sessionIds.sort()).toEqual([sessions.expiredRecently.id, sessions.live.id].sort());
    const deviceIds = await db('trusted_devices')
      .whereIn(
        'id',
        Object.values(devices).map((d) => d.id),
      )
      .pluck('id');
    expect(deviceIds.sort()).toEqual([devices.recent.id, devices.live.id].sort());
    expect(
      await db('password_tokens')
        .whereIn(
          'id',
          Object.values(tokens).map((t) => t.id),
        )
        .pluck('id'),
    ).toEqual([tokens.live.id]);
    expect((await db('login_failures').pluck('name_hash')).sort()).toEqual(['old-but-locked', 'recent']);
    const submissionIds = await db('public_submissions').pluck('id');
    expect(submissionIds.map(Number)).toContain(Number(recentSubmission.id));
    expect(submissionIds.map(Number)).not.toContain(Number(oldSubmission.id));
    expect(
      Number((await db('outbox_events').where({ topic: 'housekeeping.test' }).count({ n: '*' }))[0]?.n),
    ).toBe(2);
    // pg-boss may have moved the finished job kept to its archive meanwhile: both tables count.
    const jobStates = [
      ...(await db.withSchema(JOB_SCHEMA).from('job').where({ name: 'housekeeping-test' }).pluck('state')),
      ...(await db
        .withSchema(JOB_SCHEMA)
        .from('archive')
        .where({ name: 'housekeeping-test' })
        .pluck('state')),
    ];
    expect(jobStates.sort()).toEqual(['completed', 'created']);
    // Audit events are never purged: the run adds its own.
    expect(Number((await db('audit_events').count({ n: '*' }))[0]?.n)).toBeGreaterThan(auditBefore);
    expect(await db('audit_events').where({ action: 'housekeeping.run' }).pluck('outcome')).toEqual([
      'success',
    ]);

    const status = await admin.request<{
      tasks: Array<{ task: string; lastRemoved: number; lastRunAt: string }>;
    }>('GET', '/api/admin/housekeeping');
    expect(status.body.tasks.find((t) => t.task === 'sessions')).toMatchObject({
      lastRemoved: 2,
      lastRunAt: expect.any(String),
    });

    // A second run finds nothing more.
    const again = await admin.request<{ removed: Record<string, number> }>(
      'POST',
      '/api/admin/housekeeping/run',
    );
    expect(Object.values(again.body.removed).every((n) => n === 0)).toBe(true);
  });

  it('changes a retention, refuses a bad one field by field, and is for administrators only', async () => {
    const changed = await admin.request<{ tasks: Array<{ task: string; retentionDays: number }> }>(
      'PATCH',
      '/api/admin/housekeeping',
      { body: { sessions: 60 } },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.tasks.find((t) => t.task === 'sessions')?.retentionDays).toBe(60);
    expect(changed.body.tasks.find((t) => t.task === 'loginFailures')?.retentionDays).toBe(
      HOUSEKEEPING_RETENTION_DEFAULTS.loginFailures,
    );
    expect(changed.body.tasks.map((t) => t.task)).toEqual([...HOUSEKEEPING_TASKS]);

    const bad = await admin.request<{ fields: Record<string, string> }>('PATCH', '/api/admin/housekeeping', {
      body: { sessions: 0, finishedJobs: 1.5 },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['finishedJobs', 'sessions']);
    const after = await admin.request<{ tasks: Array<{ task: string; retentionDays: number }> }>(
      'GET',
      '/api/admin/housekeeping',
    );
    expect(after.body.tasks.find((t) => t.task === 'sessions')?.retentionDays).toBe(60);

    const staff = await server.loginAs('staff');
    expect((await staff.request('GET', '/api/admin/housekeeping')).status).toBe(403);
    expect((await staff.request('POST', '/api/admin/housekeeping/run')).status).toBe(403);
  });
});
