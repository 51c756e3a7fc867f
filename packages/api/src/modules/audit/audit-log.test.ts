import { authMessages, messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestResponse, type TestServer } from '../../test/server.js';
import { AUDIT_CSV_HEADER } from './routes.js';

interface AuditEvent {
  id: number;
  action: string;
  actorUsername: string | null;
  entityType: string | null;
  entityId: string | null;
  outcome: string;
  occurredAt: string;
}
interface AuditPage {
  items: AuditEvent[];
  nextCursor: string | null;
  pageSize: number;
}

/** Every event a filter matches, following the cursors. */
async function allPages(agent: Agent, query: string, pageSize = 2): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const page: TestResponse<AuditPage> = await agent.request<AuditPage>(
      'GET',
      `/api/admin/audit-logs?${query}&pageSize=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(pageSize);
    events.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return events;
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

  it('pages newest first by cursor', async () => {
    const first = await admin.request<AuditPage>('GET', '/api/admin/audit-logs?action=auth.login&pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const events = await allPages(admin, 'action=auth.login');
    expect(events).toHaveLength(5);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(5);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(events.slice(0, 2).map((e) => e.id)).toEqual(first.body.items.map((e) => e.id));
  });

  it('pages through events written in the same microsecond-precise instant without loss', async () => {
    // One transaction: every event shares its occurred_at, so only the id orders them.
    await server.db.transaction(async (trx) => {
      for (let i = 0; i < 7; i++)
        await trx('audit_events').insert({ action: 'kit.scan', outcome: 'success', details: '{}' });
    });
    const events = await allPages(admin, 'action=kit.scan', 3);
    expect(events).toHaveLength(7);
    expect(new Set(events.map((e) => e.occurredAt)).size).toBe(1);
  });

  it('filters by actor, entity type, outcome and time', async () => {
    const byActor = await allPages(admin, 'actorUsername=AUDITED.PERSON', 10);
    expect(byActor).toHaveLength(5);
    expect(new Set(byActor.map((e) => e.actorUsername))).toEqual(new Set(['audited.person']));
    const byEntity = await allPages(admin, 'entityType=session&actorUsername=audited.person');
    expect(byEntity.map((e) => e.action).sort()).toEqual(['auth.login', 'auth.logout']);
    const denied = await allPages(admin, 'outcome=failure&actorUsername=audited.person');
    expect(denied).toHaveLength(3);
    expect(new Set(denied.map((e) => e.outcome))).toEqual(new Set(['failure']));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = await admin.request<AuditPage>(
      'GET',
      `/api/admin/audit-logs?from=${encodeURIComponent(future)}`,
    );
    expect(none.body).toMatchObject({ items: [], nextCursor: null });
    const all = await allPages(admin, `to=${encodeURIComponent(future)}&from=2020-01-01`, 100);
    expect(all.length).toBeGreaterThanOrEqual(7);
  });

  it('validates the query', async () => {
    const tooBig = await admin.request<{ fields: Record<string, string> }>(
      'GET',
      '/api/admin/audit-logs?pageSize=101',
    );
    expect(tooBig.status).toBe(400);
    expect(Object.keys(tooBig.body.fields)).toEqual(['pageSize']);
    const badCursor = await admin.request<{ fields: Record<string, string> }>(
      'GET',
      '/api/admin/audit-logs?cursor=zz%20top',
    );
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.fields).toEqual({ cursor: authMessages.cursorInvalid });
    expect((await admin.request('GET', '/api/admin/audit-logs?outcome=maybe')).status).toBe(400);
    expect((await admin.request('GET', '/api/admin/audit-logs?from=last-week')).status).toBe(400);
  });

  it('records that it was read, and stays append-only', async () => {
    const reads = await admin.request<AuditPage>('GET', '/api/admin/audit-logs?action=audit_log.read');
    expect(reads.body.items.length).toBeGreaterThan(0);
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

describe('audit log export', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
    await server.db('audit_events').insert(
      Array.from({ length: 4500 }, (_, i) => ({
        action: 'patient.read',
        outcome: 'success',
        entity_type: 'patient',
        entity_id: String(1 + (i % 3)),
        actor_username: i % 2 ? 'reader.one' : '=cmd|calc',
        details: JSON.stringify({ count: 1, ids: String(1 + (i % 3)) }),
      })),
    );
  });
  afterAll(() => server.close());

  it('streams the filtered set as CSV, safe for spreadsheets, and records the export', async () => {
    const response = await admin.request(
      'GET',
      '/api/admin/audit-logs/export?patientId=2&action=patient.read',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(
      /attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = response.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_HEADER.join(','));
    expect(lines).toHaveLength(1 + 1500);
    expect(lines.slice(1).every((line) => line.includes(',patient.read,success,patient,2,'))).toBe(true);
    // A cell a spreadsheet would run as a formula starts with an apostrophe.
    expect(response.text).toContain(",'=cmd|calc,");
    const exported = await server.db('audit_events').where({ action: 'audit_log.export' }).first();
    expect(exported).toMatchObject({ outcome: 'success', actor_username: admin.user.username });
    expect(exported.details).toMatchObject({ patientId: 2, action: 'patient.read' });
  });

  it('finds who viewed one patient, with lists that showed it', async () => {
    await server.db('audit_events').insert({
      action: 'patient.list',
      outcome: 'success',
      entity_type: 'patient',
      actor_username: 'lister',
      details: JSON.stringify({ count: 3, ids: '7,22,9' }),
    });
    const page = await admin.request<AuditPage>('GET', '/api/admin/audit-logs?patientId=22');
    expect(page.body.items.map((e) => [e.actorUsername, e.action])).toEqual([['lister', 'patient.list']]);
    expect(
      (await admin.request<AuditPage>('GET', '/api/admin/audit-logs?patientId=2')).body.items,
    ).toHaveLength(25);
  });

  it('answers 400, records no export and keeps no connection when the database refuses the filter', async () => {
    const exports = () => server.db('audit_events').where({ action: 'audit_log.export' }).count({ n: '*' });
    const before = Number((await exports())[0]?.n);
    // A NUL character: no text column can hold or be compared with it.
    const refused = await admin.request('GET', '/api/admin/audit-logs/export?actorUsername=%00');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: messages.common.invalidRequest });
    expect(Number((await exports())[0]?.n)).toBe(before);
    // The next export goes through (nothing was left waiting).
    const next = await admin.request('GET', '/api/admin/audit-logs/export?action=patient.read');
    expect(next.status).toBe(200);
    expect(Number((await exports())[0]?.n)).toBe(before + 1);
  });

  it('is for administrators only', async () => {
    const scheduler = await server.loginAs('scheduler');
    expect((await scheduler.request('GET', '/api/admin/audit-logs/export')).status).toBe(403);
    expect((await admin.request('GET', '/api/admin/audit-logs/export?from=soon')).status).toBe(400);
  });
});

describe('accounting of access (PDF)', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('gives one patient’s accesses as a PDF, recorded as an export', async () => {
    const [patient] = await server
      .db('patients')
      .insert({ name: 'Report Sample', email: 'report@example.test', phone: '(555) 010-0001' })
      .returning('id');
    const id = (patient as { id: number }).id;
    const reader = await server.loginAs('scheduler');
    expect((await reader.request('GET', `/api/patients/${id}`)).status).toBe(200);
    const res = await fetch(`${server.url}/api/admin/hipaa/access-report/${id}`, {
      headers: { cookie: admin.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const exported = await server
      .db('audit_events')
      .where({ action: 'audit_log.export', entity_id: String(id) })
      .first();
    expect(exported.details).toMatchObject({ format: 'pdf', count: 1 });
    expect((await admin.request('GET', '/api/admin/hipaa/access-report/999999')).status).toBe(404);
    expect((await reader.request('GET', `/api/admin/hipaa/access-report/${id}`)).status).toBe(403);
  });
});
