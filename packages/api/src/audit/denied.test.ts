import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient, linkPhysician } from '../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';
import { DENIED_AUDIT_LIMITS, DeniedAuditLimiter } from './denied.js';

describe('refused access to patient data is audited', () => {
  let server: TestServer;
  let admin: Agent;
  const denied = () => server.db('audit_events').where({ action: 'access.denied' }).orderBy('id');

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('records a 401, a 403 and a physician asking for another physician’s patient', async () => {
    expect((await server.request('GET', '/api/patients')).status).toBe(401);
    const technician = await server.loginAs('technician');
    expect((await technician.request('PATCH', '/api/patients/5', { body: { city: 'X' } })).status).toBe(403);
    const other = await insertPatient(server.db, { name: 'Other Placeholder', physicianId: 42 });
    const user = await server.createUser({ role: 'physician' });
    await linkPhysician(server.db, user.id, 41);
    const physician = await server.loginAs(user.username);
    expect((await physician.request('GET', `/api/patients/${other.id}`)).status).toBe(404);

    const events = await denied();
    expect(
      events.map((e) => ({
        actor: e.actor_username,
        outcome: e.outcome,
        entity: [e.entity_type, e.entity_id],
        status: e.details.status,
        route: e.details.route,
      })),
    ).toEqual([
      { actor: null, outcome: 'denied', entity: ['patient', null], status: 401, route: '/api/patients' },
      {
        actor: technician.user.username,
        outcome: 'denied',
        entity: ['patient', '5'],
        status: 403,
        route: '/api/patients/:id',
      },
      {
        actor: user.username,
        outcome: 'failure',
        entity: ['patient', String(other.id)],
        status: 404,
        route: '/api/patients/:id',
      },
    ]);
    expect(events.every((e) => e.ip === '127.0.0.1')).toBe(true);
    // Found in the audit log by the privacy officer.
    const page = await admin.request<{ items: { action: string }[] }>(
      'GET',
      `/api/admin/audit-logs?action=access.denied&entityType=patient&entityId=${other.id}`,
    );
    expect(page.body.items.map((e) => e.action)).toEqual(['access.denied']);
  });

  it('leaves refusals of routes without patient data out', async () => {
    const before = (await denied()).length;
    const scheduler = await server.loginAs('scheduler');
    expect((await scheduler.request('GET', '/api/admin/settings')).status).toBe(403);
    expect((await server.request('GET', '/api/kits')).status).toBe(401);
    expect((await denied()).length).toBe(before);
  });

  it('records a flood only up to the limit', async () => {
    const flooder = await server.loginAs('technician');
    const before = (await denied()).length;
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => flooder.request('POST', '/api/patients', { body: {} })),
    );
    expect(answers.every((a) => a.status === 403)).toBe(true);
    const recorded = (await denied()).filter((e) => e.actor_username === flooder.user.username);
    expect((await denied()).length - before).toBe(DENIED_AUDIT_LIMITS.perCaller);
    expect(recorded).toHaveLength(DENIED_AUDIT_LIMITS.perCaller);
  });
});

describe('denied-attempt limiter', () => {
  it('records up to the limit per caller, then counts, and reports the count with the next event', () => {
    const limiter = new DeniedAuditLimiter({ perCaller: 2, total: 3, windowMs: 1000 });
    expect(limiter.take('a', 0)).toEqual({ record: true, suppressed: 0 });
    expect(limiter.take('a', 1)).toEqual({ record: true, suppressed: 0 });
    expect(limiter.take('a', 2)).toEqual({ record: false });
    expect(limiter.take('a', 3)).toEqual({ record: false });
    // The process-wide cap holds whoever asks.
    expect(limiter.take('b', 4)).toEqual({ record: true, suppressed: 0 });
    expect(limiter.take('c', 5)).toEqual({ record: false });
    // Next window: the first event of each caller carries what went unrecorded.
    expect(limiter.take('a', 1000)).toEqual({ record: true, suppressed: 2 });
    expect(limiter.take('c', 1001)).toEqual({ record: true, suppressed: 1 });
    expect(limiter.take('a', 1002)).toEqual({ record: true, suppressed: 0 });
  });
});
