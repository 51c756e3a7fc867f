import type { AdminDashboard, HipaaReport } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

describe('admin dashboard and HIPAA report', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('gives the dashboard figures', async () => {
    const staff = await server.createUser({ role: 'staff', username: 'dash.staff' });
    await server.request('POST', '/api/auth/login', {
      body: { username: staff.username, password: 'nope-nope-nope' },
    });
    await server.loginAs(staff.username);
    await admin.request('GET', '/api/admin/audit-logs/verification');
    const res = await admin.request<AdminDashboard>('GET', '/api/admin/dashboard');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.usersByRole).toEqual(
      expect.arrayContaining([
        { role: 'admin', count: expect.any(Number) },
        { role: 'staff', count: 1 },
      ]),
    );
    expect(body.activeSessions).toBeGreaterThanOrEqual(2);
    expect(body.signIns).toHaveLength(14);
    const today = body.signIns.at(-1);
    expect(today?.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today?.succeeded).toBeGreaterThanOrEqual(2);
    expect(today?.failed).toBeGreaterThanOrEqual(1);
    expect(body.jobs).toMatchObject({ queued: expect.any(Number), failed: expect.any(Number) });
    expect(body.database.version).toMatch(/^\d+/);
    expect(body.app.version).toMatch(/^\d+\.\d+/);
    expect(body.lastMigration?.name).toMatch(/^\d{4}_/);
    expect(body.auditChain).toMatchObject({ ok: true, verifiedAt: expect.any(String) });
  });

  it('reports who acknowledged the current notice, and who must again after a version bump', async () => {
    const user = await server.createUser({ role: 'scheduler', username: 'ack.scheduler' });
    const agent = await server.loginAs(user.username);
    const check = await agent.request<{ currentVersion: string }>('GET', '/api/privacy-acknowledgment/check');
    const acknowledged = await agent.request('POST', '/api/privacy-acknowledgment', {
      body: {
        policyVersion: check.body.currentVersion,
        method: 'manual',
        policyUrl: '/privacy-policy',
        policyHash: 'a'.repeat(64),
      },
    });
    expect(acknowledged.status).toBeLessThan(300);
    let report = (await admin.request<HipaaReport>('GET', '/api/admin/hipaa')).body;
    const row = () => report.acknowledgments.users.find((u) => u.username === 'ack.scheduler');
    expect(row()).toMatchObject({ current: true, acknowledgedVersion: check.body.currentVersion });
    expect(report.acknowledgments.acknowledged).toBeGreaterThanOrEqual(1);

    expect(
      (await admin.request('PATCH', '/api/admin/settings', { body: { privacyPolicyVersion: '9.9' } })).status,
    ).toBe(200);
    report = (await admin.request<HipaaReport>('GET', '/api/admin/hipaa')).body;
    expect(report.acknowledgments.currentVersion).toBe('9.9');
    expect(row()).toMatchObject({ current: false, acknowledgedVersion: check.body.currentVersion });
    expect(report.acknowledgments.acknowledged).toBe(0);
    expect(report.posture.withoutTwoFactor).toContain('ack.scheduler');
    expect(report.posture.idleLogoffMinutes).toBeGreaterThan(0);
    expect(report.safeguards.map((s) => s.section)).toContain('164.312(b)');
  });

  it('is for administrators only', async () => {
    const scheduler = await server.loginAs('scheduler');
    for (const path of ['/api/admin/dashboard', '/api/admin/hipaa']) {
      expect((await scheduler.request('GET', path)).status).toBe(403);
      expect((await server.request('GET', path)).status).toBe(401);
    }
  });
});

describe('sessions active now', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('lists them and ends one at once, leaving the user’s others', async () => {
    const user = await server.createUser({ role: 'staff', username: 'two.browsers' });
    const first = await server.loginAs(user.username);
    const second = await server.loginAs(user.username);
    const list = await admin.request<{ id: string; username: string; current: boolean }[]>(
      'GET',
      '/api/admin/sessions',
    );
    expect(list.status).toBe(200);
    const theirs = list.body.filter((s) => s.username === 'two.browsers');
    expect(theirs).toHaveLength(2);
    expect(list.body.filter((s) => s.current)).toHaveLength(1);
    const me = async (agent: Agent) => (await agent.request('GET', '/api/auth/me')).status;
    const firstId = (
      await server.db('sessions').where({ user_id: user.id }).orderBy('created_at').first('id')
    ).id;
    expect((await admin.request('DELETE', `/api/admin/sessions/${firstId}`)).status).toBe(204);
    expect([await me(first), await me(second)]).toEqual([401, 200]);
    expect((await admin.request('DELETE', `/api/admin/sessions/${firstId}`)).status).toBe(404);
    const event = await server.db('audit_events').where({ action: 'auth.session_revoke' }).first();
    expect(event).toMatchObject({
      entity_type: 'user',
      entity_id: String(user.id),
      actor_username: admin.user.username,
    });
    expect((await second.request('GET', '/api/admin/sessions')).status).toBe(403);
  });
});
