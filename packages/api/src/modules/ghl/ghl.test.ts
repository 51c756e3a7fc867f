import { messages, operationMessages } from '@wellrest/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_GHL_LOCATION, FAKE_GHL_TOKEN, type FakeGhl, startFakeGhl } from '../../test/ghl-fake.js';
import { insertPatient } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { retryAfterMs, TokenBucket } from './client.js';

describe('GoHighLevel sync', () => {
  let server: TestServer;
  let ghl: FakeGhl;
  let admin: Agent;
  let staff: Agent;

  beforeEach(async () => {
    server = await getTestServer();
    ghl = await startFakeGhl();
    admin = await server.loginAs('admin');
    staff = await server.loginAs('staff');
  });
  afterEach(async () => {
    await ghl.close();
    await server.close();
  });

  async function configure(token = FAKE_GHL_TOKEN): Promise<void> {
    const response = await admin.request('PATCH', '/api/admin/settings', {
      body: { ghlToken: token, ghlLocationId: FAKE_GHL_LOCATION, ghlBaseUrl: ghl.baseUrl },
    });
    expect(response.status).toBe(200);
  }

  const sync = (agent: Agent = staff) =>
    agent.request<{ message: string; imported?: number; pushed?: number; error?: string }>(
      'POST',
      '/api/ghl/sync',
    );

  it('answers 400 when GoHighLevel is not configured', async () => {
    const response = await sync();
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(messages.ghl.notConfigured);
    expect(ghl.requests).toHaveLength(0);
  });

  it('imports contacts across several pages and pushes local patients, then changes nothing on a second run', async () => {
    for (let i = 0; i < 230; i++) {
      ghl.addContact({
        firstName: `Lead${i}`,
        lastName: 'Placeholder',
        email: `lead${i}@example.test`,
        phone: `555-02${String(i).padStart(3, '0')}`,
      });
    }
    // Known there and here by email: linked, not duplicated.
    const shared = ghl.addContact({
      firstName: 'Shared',
      lastName: 'Person',
      email: 'shared@example.test',
      phone: '555-0300',
    });
    const sharedLocal = await insertPatient(server.db, {
      name: 'Shared Person',
      email: 'Shared@example.test',
      phone: '555-0300',
    });
    const local1 = await insertPatient(server.db, {
      name: 'Local One Placeholder',
      email: 'local1@example.test',
      phone: '555-0301',
    });
    const local2 = await insertPatient(server.db, {
      name: 'Local Two',
      email: 'local2@example.test',
      phone: '555-0302',
    });
    await configure();

    const first = await sync();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ imported: 231, pushed: 2, message: messages.ghl.syncSummary(231, 2) });

    const searches = ghl.requests.filter((r) => r.path === '/contacts/search');
    expect(searches.length).toBeGreaterThanOrEqual(3);
    expect(searches[0]?.body).toMatchObject({ locationId: FAKE_GHL_LOCATION, pageLimit: 100 });
    expect(searches[1]?.body.searchAfter).toEqual(expect.any(Array));
    for (const r of ghl.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${FAKE_GHL_TOKEN}`);
      expect(r.headers.version).toBe('2021-07-28');
      expect(r.headers.accept).toBe('application/json');
    }
    // Only name, email and phone go out, and never tags (they would replace a contact's tags).
    const upserts = ghl.requests.filter((r) => r.path === '/contacts/upsert');
    expect(upserts).toHaveLength(2);
    expect(Object.keys(upserts[0]?.body ?? {}).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
      'locationId',
      'phone',
      'source',
    ]);
    expect(upserts[0]?.body).toMatchObject({ firstName: 'Local', lastName: 'One Placeholder' });

    const imported = await server.db('patients').where({ lead_source: 'GHL' });
    expect(imported).toHaveLength(230);
    expect(imported[0]).toMatchObject({
      name: 'Lead0 Placeholder',
      email: 'lead0@example.test',
      phone: '555-02000',
    });
    expect((await server.db('patients').where({ id: sharedLocal.id }).first()).ghl_id).toBe(shared.id);
    for (const p of [local1, local2]) {
      const row = await server.db('patients').where({ id: p.id }).first();
      expect(ghl.contacts.map((c) => c.id)).toContain(row.ghl_id);
      expect(row.lead_source).toBe('Direct');
    }
    const patientCount = Number((await server.db('patients').count({ n: '*' }))[0]?.n);

    const second = await sync();
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ imported: 0, pushed: 0, message: messages.ghl.syncSummary(0, 0) });
    expect(Number((await server.db('patients').count({ n: '*' }))[0]?.n)).toBe(patientCount);
    expect(ghl.requests.filter((r) => r.path === '/contacts/upsert')).toHaveLength(2);

    const audit = await server.db('audit_events').where({ action: 'ghl.sync' }).orderBy('id');
    expect(audit.map((e) => e.outcome)).toEqual(['success', 'success']);
    expect(JSON.stringify(audit)).not.toMatch(/Placeholder|example\.test|555-/);
    // The token is never returned, not even to an administrator.
    const settings = await admin.request('GET', '/api/admin/settings');
    expect(settings.text).not.toContain(FAKE_GHL_TOKEN);
  });

  it('turns a 401 from GoHighLevel into a clear error', async () => {
    ghl.addContact({ firstName: 'A', lastName: 'B', email: 'a@example.test' });
    await configure('pit-wrong-token');
    const response = await sync();
    expect(response.status).toBe(502);
    expect(response.body.error).toBe(operationMessages.ghlUnauthorized);
    expect(await server.db('patients').count({ n: '*' })).toEqual([{ n: 0 }]);
    const event = await server.db('audit_events').where({ action: 'ghl.sync' }).first();
    expect(event).toMatchObject({ outcome: 'failure' });
    expect(event.details).toMatchObject({ reason: 'unauthorized' });
  });

  it('waits as Retry-After asks when rate limited, then succeeds', async () => {
    ghl.addContact({ firstName: 'Rate', lastName: 'Limited', email: 'rate@example.test', phone: '555-0400' });
    await configure();
    ghl.rateLimitNext(2, 1);
    const started = Date.now();
    const response = await sync();
    expect(response.status).toBe(200);
    expect(response.body.imported).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(ghl.requests.filter((r) => r.status === 429)).toHaveLength(2);
  });

  it('is refused to roles that may not sync', async () => {
    const technician = await server.loginAs('technician');
    expect((await sync(technician)).status).toBe(403);
    expect((await server.request('POST', '/api/ghl/sync')).status).toBe(401);
  });
});

describe('GoHighLevel client helpers', () => {
  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('lets a burst of `capacity` through, then paces requests to the refill rate', async () => {
    const bucket = new TokenBucket(5, 500);
    const started = Date.now();
    for (let i = 0; i < 5; i++) await bucket.take();
    expect(Date.now() - started).toBeLessThan(50);
    for (let i = 0; i < 3; i++) await bucket.take();
    // Three more at 5 per 500 ms: about 300 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
