import { messages, operationMessages, type Page, type Patient } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient, linkPhysician } from '../../test/operations-fixtures.js';
import { countQueries } from '../../test/query-counter.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

const ADA = { name: 'Ada Placeholder', email: 'ada@example.test', phone: '555-0100' };

describe('patients API', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  const patientCount = async () => Number((await server.db('patients').count({ n: '*' }))[0]?.n);

  it('creates a patient (201 with its id), reads it back, and audits both without PHI', async () => {
    const created = await scheduler.request<Patient>('POST', '/api/patients', {
      body: { ...ADA, city: 'Springfield', gender: 'female' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ...ADA,
      city: 'Springfield',
      gender: 'female',
      leadSource: 'Direct',
    });
    expect(typeof created.body.id).toBe('number');

    const read = await scheduler.request<Patient>('GET', `/api/patients/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const events = await server
      .db('audit_events')
      .whereIn('action', ['patient.create', 'patient.read'])
      .where({ entity_id: String(created.body.id) });
    expect(events.map((e) => e.action).sort()).toEqual(['patient.create', 'patient.read']);
    expect(events.every((e) => e.actor_user_id === scheduler.user.id)).toBe(true);
    expect(JSON.stringify(events)).not.toMatch(/Ada|example\.test|555-0100/);
  });

  it('refuses bad input field by field and writes nothing', async () => {
    const before = await patientCount();
    const response = await scheduler.request('POST', '/api/patients', {
      body: { name: ' ', email: 'not-an-email', gender: 'unknown', dateOfBirth: '1990-02-30' },
    });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      name: messages.patient.nameRequired,
      email: messages.patient.emailInvalid,
      phone: messages.patient.phoneRequired,
      gender: expect.any(String),
      dateOfBirth: messages.dates.invalidDate,
    });
    expect(await patientCount()).toBe(before);
  });

  it('updates only the fields sent, and answers 404 for an unknown patient', async () => {
    const { id } = await insertPatient(server.db, { name: 'Blake Placeholder' });
    const patched = await scheduler.request<Patient>('PATCH', `/api/patients/${id}`, {
      body: { city: 'Shelbyville', medications: 'none' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      name: 'Blake Placeholder',
      city: 'Shelbyville',
      medications: 'none',
    });
    const event = await server
      .db('audit_events')
      .where({ action: 'patient.update', entity_id: String(id) })
      .first();
    expect(event.details).toMatchObject({ fields: 'city,medications' });

    const invalid = await scheduler.request('PATCH', `/api/patients/${id}`, { body: { email: 'nope' } });
    expect(invalid.status).toBe(400);
    expect((await server.db('patients').where({ id }).first()).email).not.toBe('nope');

    const missing = await scheduler.request('PATCH', '/api/patients/999999', { body: { city: 'X' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(operationMessages.patientNotFound);
    expect((await scheduler.request('GET', '/api/patients/abc')).status).toBe(404);
  });

  it('lists a plain array by default, and a page with total when asked', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('staff');
      for (const name of ['Casey Alpha', 'Devon Beta', 'Emerson Gamma', 'Finley Delta'])
        await insertPatient(local.db, { name });
      const all = await agent.request<Patient[]>('GET', '/api/patients');
      expect(all.status).toBe(200);
      expect(all.body.map((p) => p.name)).toEqual([
        'Casey Alpha',
        'Devon Beta',
        'Emerson Gamma',
        'Finley Delta',
      ]);

      const page = await agent.request<Page<Patient>>('GET', '/api/patients?page=2&pageSize=3&sort=-name');
      expect(page.body).toMatchObject({ total: 4, page: 2, pageSize: 3 });
      expect(page.body.items.map((p) => p.name)).toEqual(['Casey Alpha']);

      const beyond = await agent.request<Page<Patient>>('GET', '/api/patients?page=5&pageSize=3');
      expect(beyond.body).toMatchObject({ items: [], total: 4 });

      const found = await agent.request<Page<Patient>>('GET', '/api/patients?page=1&q=gamma');
      expect(found.body.items.map((p) => p.name)).toEqual(['Emerson Gamma']);
      expect(found.body.total).toBe(1);

      const bad = await agent.request('GET', '/api/patients?page=0&sort=email');
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['page', 'sort']);
    } finally {
      await local.close();
    }
  });

  it('runs the same number of queries for 2 patients as for 40', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('staff');
      for (let i = 0; i < 2; i++) await insertPatient(local.db);
      const few = await countQueries(local.db, () => agent.request('GET', '/api/patients'));
      for (let i = 0; i < 38; i++) await insertPatient(local.db);
      const many = await countQueries(local.db, () => agent.request('GET', '/api/patients'));
      const paged = await countQueries(local.db, () =>
        agent.request('GET', '/api/patients?page=1&pageSize=30'),
      );
      expect(many).toBe(few);
      // A page adds exactly one query, the total count.
      expect(paged).toBe(few + 1);
    } finally {
      await local.close();
    }
  });

  it('lets a technician read but not create; a physician sees only their own patients', async () => {
    const technician = await server.loginAs('technician');
    expect((await technician.request('GET', '/api/patients')).status).toBe(200);
    const refused = await technician.request('POST', '/api/patients', { body: ADA });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(messages.common.forbidden);
    expect((await technician.request('PATCH', '/api/patients/1', { body: { city: 'X' } })).status).toBe(403);

    const own = await insertPatient(server.db, { name: 'Own Placeholder', physicianId: 41 });
    const other = await insertPatient(server.db, { name: 'Other Placeholder', physicianId: 42 });
    const user = await server.createUser({ role: 'physician' });
    await linkPhysician(server.db, user.id, 41);
    const physician = await server.loginAs(user.username);
    const list = await physician.request<Patient[]>('GET', '/api/patients');
    expect(list.body.map((p) => p.id)).toEqual([own.id]);
    expect((await physician.request('GET', `/api/patients/${own.id}`)).status).toBe(200);
    expect((await physician.request('GET', `/api/patients/${other.id}`)).status).toBe(404);
    expect((await physician.request('POST', '/api/patients', { body: ADA })).status).toBe(403);

    // A physician login not linked to a physician record sees no patient at all.
    const unlinked = await server.loginAs('physician');
    expect((await unlinked.request('GET', '/api/patients')).status).toBe(403);
    expect((await server.request('GET', '/api/patients')).status).toBe(401);
  });
});
