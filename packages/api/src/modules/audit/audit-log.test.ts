import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

interface AuditPage {
  items: Array<{
    id: number;
    action: string;
    actorUsername: string | null;
    entityType: string | null;
    occurredAt: string;
  }>;
  total: number;
  page: number;
  pageSize: number;
}

describe('audit log', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
    const user = await server.createUser({ role: 'staff', username: 'audited.person' });
    for (let i = 0; i < 3; i++) {
      await server.request('POST', '/api/auth/login', {
        body: { username: user.username, password: 'wrong-password-typed' },
      });
    }
    const agent = await server.loginAs(user.username);
    await agent.request('POST', '/api/auth/logout');
  });
  afterAll(() => server.close());

  it('pages newest first with the total', async () => {
    const first = await admin.request<AuditPage>('GET', '/api/admin/audit-logs?action=auth.login&pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(first.body.items).toHaveLength(2);
    const second = await admin.request<AuditPage>(
      'GET',
      '/api/admin/audit-logs?action=auth.login&pageSize=2&page=2',
    );
    const third = await admin.request<AuditPage>(
      'GET',
      '/api/admin/audit-logs?action=auth.login&pageSize=2&page=3',
    );
    const ids = [...first.body.items, ...second.body.items, ...third.body.items].map((e) => e.id);
    expect(ids).toHaveLength(5);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by actor, entity type and time', async () => {
    const byActor = await admin.request<AuditPage>(
      'GET',
      '/api/admin/audit-logs?actorUsername=AUDITED.PERSON',
    );
    expect(byActor.body.total).toBe(5);
    expect(new Set(byActor.body.items.map((e) => e.actorUsername))).toEqual(new Set(['audited.person']));
    const byEntity = await admin.request<AuditPage>(
      'GET',
      '/api/admin/audit-logs?entityType=session&actorUsername=audited.person',
    );
    expect(byEntity.body.items.map((e) => e.action).sort()).toEqual(['auth.login', 'auth.logout']);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = await admin.request<AuditPage>(
      'GET',
      `/api/admin/audit-logs?from=${encodeURIComponent(future)}`,
    );
    expect(none.body).toMatchObject({ total: 0, items: [] });
    const all = await admin.request<AuditPage>(
      'GET',
      `/api/admin/audit-logs?to=${encodeURIComponent(future)}&from=2020-01-01`,
    );
    expect(all.body.total).toBeGreaterThanOrEqual(7);
  });

  it('validates the query', async () => {
    const tooBig = await admin.request<{ fields: Record<string, string> }>(
      'GET',
      '/api/admin/audit-logs?pageSize=101',
    );
    expect(tooBig.status).toBe(400);
    expect(Object.keys(tooBig.body.fields)).toEqual(['pageSize']);
    expect((await admin.request('GET', '/api/admin/audit-logs?page=0')).status).toBe(400);
    expect((await admin.request('GET', '/api/admin/audit-logs?from=last-week')).status).toBe(400);
  });

  it('records that it was read, and stays append-only', async () => {
    const reads = await admin.request<AuditPage>('GET', '/api/admin/audit-logs?action=audit_log.read');
    expect(reads.body.total).toBeGreaterThan(0);
    await expect(server.db('audit_events').update({ action: 'auth.logout' })).rejects.toThrow(/append-only/);
    await expect(server.db('audit_events').where({ action: 'auth.login' }).delete()).rejects.toThrow(
      /append-only/,
    );
  });

  it('is for administrators only', async () => {
    const scheduler = await server.loginAs('scheduler');
    expect((await scheduler.request('GET', '/api/admin/audit-logs')).status).toBe(403);
    expect((await server.request('GET', '/api/admin/audit-logs')).status).toBe(401);
  });
});
