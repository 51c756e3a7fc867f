import {
  messages,
  operationMessages,
  PATIENT_EXPORT_HEADER,
  PATIENT_PAGE_SIZE_MAX,
  type Page,
  type Patient,
} from '@wellrest/core';
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

      const bad = await agent.request('GET', '/api/patients?page=0&sort=zipCode');
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
  it('searches, filters by lead source, sorts by any table column and pages, empty values last', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('staff');
      const people = [
        {
          name: 'Harper North',
          email: 'zed@example.test',
          phone: '555-0301',
          city: 'Austin',
          leadSource: 'Referral',
        },
        {
          name: 'Indigo West',
          email: 'amy@example.test',
          phone: '555-0302',
          city: null,
          leadSource: 'Online',
        },
        {
          name: 'Jules South',
          email: 'max@example.test',
          phone: '555-0303',
          city: 'Boston',
          leadSource: 'Referral',
        },
      ];
      for (const person of people) {
        const created = await agent.request('POST', '/api/patients', { body: person });
        expect(created.status).toBe(201);
      }
      const names = async (query: string) =>
        (await agent.request<Page<Patient>>('GET', `/api/patients?page=1&${query}`)).body.items.map(
          (p) => p.name,
        );

      expect(await names('sort=email')).toEqual(['Indigo West', 'Jules South', 'Harper North']);
      expect(await names('sort=-email')).toEqual(['Harper North', 'Jules South', 'Indigo West']);
      expect(await names('sort=city')).toEqual(['Harper North', 'Jules South', 'Indigo West']);
      expect(await names('sort=-city')).toEqual(['Jules South', 'Harper North', 'Indigo West']);
      expect(await names('sort=leadSource')).toEqual(['Indigo West', 'Harper North', 'Jules South']);
      expect(await names('leadSource=Referral&sort=-name')).toEqual(['Jules South', 'Harper North']);
      expect(await names('q=0302')).toEqual(['Indigo West']);
      expect(await names('q=MAX%40example')).toEqual(['Jules South']);
      // A LIKE wildcard in the search is matched literally.
      expect(await names('q=%25')).toEqual([]);

      const second = await agent.request<Page<Patient>>('GET', '/api/patients?page=2&pageSize=2&sort=name');
      expect(second.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(second.body.items.map((p) => p.name)).toEqual(['Jules South']);

      const largest = await agent.request('GET', `/api/patients?page=1&pageSize=${PATIENT_PAGE_SIZE_MAX}`);
      expect(largest.status).toBe(200);
      const tooLarge = await agent.request(
        'GET',
        `/api/patients?page=1&pageSize=${PATIENT_PAGE_SIZE_MAX + 1}&leadSource=Radio`,
      );
      expect(tooLarge.status).toBe(400);
      expect(Object.keys(tooLarge.body.fields as object).sort()).toEqual(['leadSource', 'pageSize']);
    } finally {
      await local.close();
    }
  });

  it('refuses a bad edit field by field and changes nothing', async () => {
    const { id } = await insertPatient(server.db, { name: 'Kai Placeholder' });
    const response = await scheduler.request('PATCH', `/api/patients/${id}`, {
      body: {
        name: '',
        email: 'nope',
        gender: 'x',
        leadSource: 'Radio',
        dateOfBirth: '2001-13-01',
        zipCode: 'x'.repeat(21),
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      name: messages.patient.nameRequired,
      email: messages.patient.emailInvalid,
      gender: expect.any(String),
      leadSource: expect.any(String),
      dateOfBirth: messages.dates.invalidDate,
      zipCode: messages.patient.tooLong(20),
    });
    expect((await server.db('patients').where({ id }).first()).name).toBe('Kai Placeholder');
  });

  describe('CSV export', () => {
    let local: TestServer;
    let admin: Agent;
    beforeAll(async () => {
      local = await getTestServer();
      admin = await local.loginAs('admin');
      const rows = [
        {
          name: 'Lee, "Trick" Example',
          email: 'lee@example.test',
          phone: '+1 555 0401',
          medicalHistory: 'Line one\nline two',
          medications: '=HYPERLINK("http://evil.test")',
          leadSource: 'Online',
          gender: 'other',
          dateOfBirth: '1980-05-06',
        },
        { name: 'Morgan Example', email: 'morgan@example.test', phone: '555-0402', leadSource: 'Direct' },
        {
          name: 'Noor Example',
          email: 'noor@example.test',
          phone: '555-0403',
          ghlId: '@ghl-1',
          leadSource: 'Online',
        },
      ];
      for (const body of rows)
        expect((await admin.request('POST', '/api/patients', { body })).status).toBe(201);
    });
    afterAll(() => local.close());

    it('downloads the filtered patients as an attachment, escaped and safe for spreadsheets', async () => {
      const response = await admin.request('POST', '/api/patients/export', {
        body: { q: 'example', leadSource: 'Online', sort: '-name' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="patients-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(response.headers.get('cache-control')).toBe('no-store');
      const lines = response.text.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe(PATIENT_EXPORT_HEADER);
      expect(lines.at(-1)).toBe('');
      expect(lines[1]).toMatch(/^\d+,Noor Example,noor@example\.test,555-0403,/);
      expect(lines[1]).toMatch(/,Online,'@ghl-1$/);
      // Quotes doubled, the comma and the line break kept inside one quoted cell.
      const lee = lines.slice(2, -1).join('\r\n');
      expect(lee).toContain('"Lee, ""Trick"" Example"');
      expect(lee).toContain(`'+1 555 0401`);
      expect(lee).toContain('"Line one\nline two"');
      expect(lee).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
      expect(lee).toContain('1980-05-06,other,');
      // Header, two patients, and the empty string after the last CRLF.
      expect(lines).toHaveLength(4);

      const event = await local
        .db('audit_events')
        .where({ action: 'patient.export' })
        .orderBy('id', 'desc')
        .first();
      expect(event.actor_user_id).toBe(admin.user.id);
      expect(event.details).toMatchObject({ count: 2, sort: '-name', leadSource: 'Online', searched: true });
      expect(JSON.stringify(event)).not.toMatch(/example|Noor|Lee|555/i);
    });

    it('exports everything with no filter, and refuses a bad filter with 400', async () => {
      const all = await admin.request('POST', '/api/patients/export', { body: {} });
      expect(all.text.split('\r\n').filter((line) => /^\d+,/.test(line))).toHaveLength(3);
      const event = await local
        .db('audit_events')
        .where({ action: 'patient.export' })
        .orderBy('id', 'desc')
        .first();
      expect(event.details).toMatchObject({ count: 3, sort: 'name', leadSource: null, searched: false });

      const bad = await admin.request('POST', '/api/patients/export', { body: { sort: 'ssn', q: 7 } });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['q', 'sort']);
    });

    it('is for admins only: the roles that work with patients may not take them all away', async () => {
      for (const role of ['scheduler', 'staff', 'medical_director', 'technician'] as const) {
        const agent = await local.loginAs(role);
        const refused = await agent.request('POST', '/api/patients/export', { body: {} });
        expect(refused.status).toBe(403);
      }
      expect((await local.request('POST', '/api/patients/export', { body: {} })).status).toBe(401);
    });
  });
});
