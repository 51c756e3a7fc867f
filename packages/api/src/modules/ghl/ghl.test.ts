import { type GhlSyncReport, ghlMessages, messages, operationMessages } from '@wellrest/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_SCHEMA } from '../../db/migrations/0750_job_queue.js';
import {
  FAKE_GHL_LOCATION,
  FAKE_GHL_TOKEN,
  type FakeGhl,
  type FakeGhlOptions,
  startFakeGhl,
} from '../../test/ghl-fake.js';
import { insertPatient } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { GhlClient, GhlError, readErrorBody, retryAfterMs } from './client.js';
import { nextUtcMidnight, pauseAfter429Ms, safetyMarginMs } from './pacer.js';
import { GHL_RESUME_KEY, GHL_SYNC_QUEUE } from './routes.js';
import { finishGhlRun, ghlClient, pushGhlPatients, startGhlRun } from './sync.js';

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

  /** Replaces the default GoHighLevel stand-in with one configured otherwise. */
  async function restartGhl(options: FakeGhlOptions): Promise<void> {
    await ghl.close();
    ghl = await startFakeGhl(options);
  }

  const report = async (query = '') => {
    const response = await staff.request<GhlSyncReport>('GET', `/api/ghl/report${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const upserts = () => ghl.requests.filter((r) => r.path === '/contacts/upsert');

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
    expect(first.body.message).toBe(
      ghlMessages.syncSummary({ imported: 231, pushed: 2, rejected: 0, conflicts: 0 }),
    );
    // Each pushed patient was looked up with GoHighLevel's duplicate search before the upsert.
    const duplicates = ghl.requests.filter((r) => r.path === '/contacts/search/duplicate');
    expect(duplicates).toHaveLength(2);
    expect(duplicates[0]?.query).toMatchObject({
      locationId: FAKE_GHL_LOCATION,
      email: 'local1@example.test',
      number: '555-0301',
    });

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

  it('runs syncs asked for at once on the durable queue: one run, or one more queued behind it, never a patient pushed twice', async () => {
    for (let i = 0; i < 3; i++)
      await insertPatient(server.db, { name: `Twice Patient${i}`, email: `twice${i}@example.test` });
    await configure();
    const answers = await Promise.all([sync(), sync(admin), sync()]);
    for (const answer of answers) expect(answer.status).toBe(200);
    // A click while a run is waiting joins it; a click while one is running queues one more.
    expect(answers.map((a) => a.body.pushed).sort()).toContain(3);
    expect(upserts()).toHaveLength(3);
    const jobs = await server.db.withSchema(JOB_SCHEMA).from('job').where({ name: GHL_SYNC_QUEUE });
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    expect(jobs.length).toBeLessThanOrEqual(2);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    expect(await server.db.schema.hasTable('jobs')).toBe(false);
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

  it('records a contact GoHighLevel rejects (422) on its patient, pushes the others, and retries it only once it changes', async () => {
    const patients = [];
    for (let i = 1; i <= 5; i++) {
      patients.push(
        await insertPatient(server.db, {
          name: `Push Patient${i}`,
          email: `push${i}@example.test`,
          // The third phone is one GoHighLevel refuses.
          phone: i === 3 ? 'call after 5pm' : `555-010${i}`,
        }),
      );
    }
    const rejectedPatient = patients[2] as { id: number };
    await configure();

    const first = await sync();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ pushed: 4, rejected: 1, conflicts: 0 });
    expect(first.body.message).toBe(
      ghlMessages.syncSummary({ imported: 0, pushed: 4, rejected: 1, conflicts: 0 }),
    );
    const refused = upserts().filter((r) => r.status === 422);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.body.email).toBe('push3@example.test');
    // The two after the rejected one went out too.
    for (const p of patients) {
      const row = await server.db('patients').where({ id: p.id }).first();
      if (p.id === rejectedPatient.id) expect(row.ghl_id).toBeNull();
      else expect(ghl.contacts.map((c) => c.id)).toContain(row.ghl_id);
    }

    const expected = ghlMessages.rejected('phone', 'phone must be a valid phone number');
    const onPatient = await report(`?patientId=${rejectedPatient.id}`);
    expect(onPatient.issues).toHaveLength(1);
    expect(onPatient.issues[0]).toMatchObject({ kind: 'rejected', field: 'phone', message: expected });
    const whole = await report();
    expect(whole.counts).toEqual({ rejected: 1, conflicts: 0 });
    expect(whole.runs[0]).toMatchObject({ status: 'done', pushed: 4, rejected: 1, conflicts: 0 });
    const events = await server.db('audit_events').where({ action: 'ghl.report' });
    expect(events.length).toBe(2);
    expect(JSON.stringify(events)).not.toMatch(/Patient3|example\.test/);

    // Unchanged: not sent again.
    const second = await sync();
    expect(second.body).toMatchObject({ pushed: 0, rejected: 0 });
    expect(upserts()).toHaveLength(5);
    expect((await report()).counts.rejected).toBe(1);

    // Corrected: sent, and the rejection is gone.
    const fixed = await staff.request('PATCH', `/api/patients/${rejectedPatient.id}`, {
      body: { phone: '555-0199' },
    });
    expect(fixed.status).toBe(200);
    const third = await sync();
    expect(third.body).toMatchObject({ pushed: 1, rejected: 0 });
    expect((await report()).counts).toEqual({ rejected: 0, conflicts: 0 });
  });

  it('answers a 4xx on the contact search with its own message, not "could not be reached"', async () => {
    await configure();
    const other = await admin.request('PATCH', '/api/admin/settings', {
      body: { ghlLocationId: 'loc-other' },
    });
    expect(other.status).toBe(200);
    const response = await sync();
    // GoHighLevel answers 403 for a location the token may not use.
    expect(response.status).toBe(502);
    expect(response.body.error).toBe(operationMessages.ghlUnauthorized);
    expect(response.body.error).not.toBe(operationMessages.ghlUnavailable);
  });

  it('tells a request GoHighLevel refuses (4xx) from one that could not reach it', async () => {
    const client = ghlClient(server.db, {
      baseUrl: ghl.baseUrl,
      token: FAKE_GHL_TOKEN,
      locationId: FAKE_GHL_LOCATION,
    });
    const refused = await client
      .contactPages(500)
      .next()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GhlError);
    expect(refused).toMatchObject({
      kind: 'rejected',
      status: 422,
      detail: { remoteMessage: 'pageLimit must not be greater than 100' },
    });
    await ghl.close();
    const unreachable = await client
      .findDuplicate({ email: 'x@example.test' })
      .catch((error: unknown) => error);
    expect(unreachable).toMatchObject({ kind: 'unavailable' });
  }, 60_000);

  it('records a conflict instead of upserting over a contact linked to another patient (a shared phone), and renames nothing', async () => {
    const family = ghl.addContact({
      firstName: 'Ann',
      lastName: 'Shared',
      email: 'ann@example.test',
      phone: '555-0500',
    });
    await configure();
    expect((await sync()).body).toMatchObject({ imported: 1, pushed: 0 });
    const ann = await server.db('patients').where({ ghl_id: family.id }).first();
    expect(ann.name).toBe('Ann Shared');

    const bob = await insertPatient(server.db, {
      name: 'Bob Shared',
      email: 'bob@example.test',
      phone: '555-0500',
    });
    const response = await sync();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ pushed: 0, conflicts: 1 });
    expect(upserts()).toHaveLength(0);
    expect(ghl.contacts).toHaveLength(1);
    expect(ghl.contacts[0]).toMatchObject({
      firstName: 'Ann',
      lastName: 'Shared',
      email: 'ann@example.test',
    });
    expect((await server.db('patients').where({ id: ann.id }).first()).name).toBe('Ann Shared');
    expect((await server.db('patients').where({ id: bob.id }).first()).ghl_id).toBeNull();

    const { issues } = await report();
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      kind: 'duplicate',
      patientId: bob.id,
      otherPatientId: ann.id,
      contactId: family.id,
      message: ghlMessages.duplicateConflict,
    });
    const conflictId = issues[0]?.id as number;

    // Idempotent: the next run sends nothing and records nothing new.
    expect((await sync()).body).toMatchObject({ pushed: 0, conflicts: 0 });
    expect(upserts()).toHaveLength(0);
    expect((await report()).issues).toHaveLength(1);

    // A separate contact: the location allows no duplicates, and GoHighLevel's answer is shown.
    const separate = await staff.request('POST', `/api/ghl/issues/${conflictId}/resolve`, {
      body: { action: 'separate' },
    });
    expect(separate.status).toBe(422);
    expect(separate.body.error).toBe(
      ghlMessages.separateRefused('This location does not allow duplicated contacts.'),
    );
    expect(ghl.contacts).toHaveLength(1);

    const wrong = await staff.request('POST', `/api/ghl/issues/${conflictId}/resolve`, {
      body: { action: 'theirs' },
    });
    expect(wrong.status).toBe(400);
    const bad = await staff.request('POST', `/api/ghl/issues/${conflictId}/resolve`, {
      body: { action: 'merge' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('action');

    const skip = await staff.request('POST', `/api/ghl/issues/${conflictId}/resolve`, {
      body: { action: 'skip' },
    });
    expect(skip.status).toBe(200);
    expect(skip.body.message).toBe(ghlMessages.resolved.skip);
    expect(
      (await staff.request('POST', `/api/ghl/issues/${conflictId}/resolve`, { body: { action: 'skip' } }))
        .status,
    ).toBe(409);
    const audited = await server.db('audit_events').where({ action: 'ghl.resolve' }).orderBy('id');
    expect(audited.map((e) => e.outcome)).toEqual(['failure', 'success']);
    expect(audited[1]).toMatchObject({ entity_id: String(bob.id), actor_user_id: staff.user.id });
    expect(audited[1].details).toMatchObject({ action: 'skip', kind: 'duplicate' });

    // Skipped: left alone by later runs.
    expect((await sync()).body).toMatchObject({ pushed: 0, conflicts: 0 });
    expect(ghl.requests.filter((r) => r.path === '/contacts/search/duplicate')).toHaveLength(1);
    expect((await report()).issues).toHaveLength(0);
  });

  it('links a conflicting patient to the contact when staff decide so, or creates a separate contact where duplicates are allowed', async () => {
    await restartGhl({ allowDuplicates: true });
    const family = ghl.addContact({
      firstName: 'Cara',
      lastName: 'Home',
      email: 'cara@example.test',
      phone: '555-0600',
    });
    await configure();
    await sync();
    const cara = await server.db('patients').where({ ghl_id: family.id }).first();
    const dan = await insertPatient(server.db, {
      name: 'Dan Home',
      email: 'dan@example.test',
      phone: '555-0600',
    });
    const eve = await insertPatient(server.db, {
      name: 'Eve Home',
      email: 'eve@example.test',
      phone: '555-0600',
    });
    expect((await sync()).body).toMatchObject({ conflicts: 2 });
    const { issues } = await report();
    const danIssue = issues.find((i) => i.patientId === dan.id);
    const eveIssue = issues.find((i) => i.patientId === eve.id);

    const separate = await staff.request('POST', `/api/ghl/issues/${eveIssue?.id}/resolve`, {
      body: { action: 'separate' },
    });
    expect(separate.status).toBe(200);
    const eveRow = await server.db('patients').where({ id: eve.id }).first();
    expect(eveRow.ghl_id).not.toBe(family.id);
    expect(ghl.contacts.find((c) => c.id === eveRow.ghl_id)).toMatchObject({
      firstName: 'Eve',
      phone: '555-0600',
    });
    expect(ghl.contacts.find((c) => c.id === family.id)).toMatchObject({ firstName: 'Cara' });

    const link = await staff.request('POST', `/api/ghl/issues/${danIssue?.id}/resolve`, {
      body: { action: 'link' },
    });
    expect(link.status).toBe(200);
    expect((await server.db('patients').where({ id: dan.id }).first()).ghl_id).toBe(family.id);
    expect((await server.db('patients').where({ id: cara.id }).first()).ghl_id).toBeNull();
    const audited = await server.db('audit_events').where({ action: 'ghl.resolve' }).orderBy('id');
    expect(audited.at(-1).details).toMatchObject({ action: 'link', unlinked: cara.id });
  });

  it('treats a name changed on both sides since the last sync as a conflict', async () => {
    const contact = ghl.addContact({
      firstName: 'Fay',
      lastName: 'Original',
      email: 'fay@example.test',
      phone: '555-0700',
    });
    await configure();
    await sync();
    const fay = await server.db('patients').where({ ghl_id: contact.id }).first();

    // Changed there only: taken.
    ghl.rename(contact.id, 'Fay', 'Remote');
    expect((await sync()).body).toMatchObject({ imported: 1, conflicts: 0 });
    expect((await server.db('patients').where({ id: fay.id }).first()).name).toBe('Fay Remote');

    // Changed here only: kept.
    expect(
      (await staff.request('PATCH', `/api/patients/${fay.id}`, { body: { name: 'Fay Local' } })).status,
    ).toBe(200);
    expect((await sync()).body).toMatchObject({ imported: 0, conflicts: 0 });
    expect((await server.db('patients').where({ id: fay.id }).first()).name).toBe('Fay Local');

    // Changed on both sides: neither overwritten, a conflict to decide.
    ghl.rename(contact.id, 'Fay', 'Elsewhere');
    expect((await sync()).body).toMatchObject({ conflicts: 1 });
    expect((await server.db('patients').where({ id: fay.id }).first()).name).toBe('Fay Local');
    const { issues } = await report();
    expect(issues[0]).toMatchObject({
      kind: 'name',
      localName: 'Fay Local',
      remoteName: 'Fay Elsewhere',
      message: ghlMessages.nameConflict,
    });
    const resolved = await staff.request('POST', `/api/ghl/issues/${issues[0]?.id}/resolve`, {
      body: { action: 'theirs' },
    });
    expect(resolved.status).toBe(200);
    expect((await server.db('patients').where({ id: fay.id }).first()).name).toBe('Fay Elsewhere');
    expect((await sync()).body).toMatchObject({ imported: 0, conflicts: 0 });
  });

  it('syncs 300 patients with three workers at the 25-per-window trial budget without a single 429', async () => {
    const windowMs = 250;
    await restartGhl({ burst: { max: 25, intervalMs: windowMs } });
    const rows = Array.from({ length: 300 }, (_, i) => ({
      name: `Worker Patient${i}`,
      email: `worker${i}@example.test`,
      phone: `555-3${String(i).padStart(4, '0')}`,
    }));
    await server.db.batchInsert('patients', rows, 100);
    const settings = { baseUrl: ghl.baseUrl, token: FAKE_GHL_TOKEN, locationId: FAKE_GHL_LOCATION };
    const runId = await startGhlRun(server.db, null);
    // Three workers as three API processes would run them: nothing shared but the database.
    const results = await Promise.all(
      ['a', 'b', 'c'].map((worker) =>
        pushGhlPatients(server.db, ghlClient(server.db, settings), runId, { worker }),
      ),
    );
    await finishGhlRun(server.db, runId);

    expect(ghl.requests.filter((r) => r.status === 429)).toHaveLength(0);
    const pushed = results.flatMap((r) => r.pushedIds);
    expect(pushed).toHaveLength(300);
    expect(new Set(pushed).size).toBe(300);
    for (const r of results) expect(r.pushedIds.length).toBeGreaterThan(0);
    expect(upserts()).toHaveLength(300);
    expect(ghl.contacts).toHaveLength(300);
    expect(Number((await server.db('patients').whereNull('ghl_id').count({ n: '*' }))[0]?.n)).toBe(0);
    // At most 25 arrived in any window of that length.
    const arrivals = ghl.requests.map((r) => r.at).sort((a, b) => a - b);
    for (let i = 25; i < arrivals.length; i++)
      expect((arrivals[i] as number) - (arrivals[i - 25] as number)).toBeGreaterThanOrEqual(windowMs);
    const run = (await report()).runs[0];
    expect(run).toMatchObject({ id: runId, status: 'done', pushed: 300 });
  }, 90_000);

  it('after a 429 without Retry-After waits out the announced interval, then goes on', async () => {
    await restartGhl({ burst: { max: 10, intervalMs: 400 } });
    ghl.addContact({ firstName: 'Gil', lastName: 'Paused', email: 'gil@example.test', phone: '555-0800' });
    await insertPatient(server.db, { name: 'Hal Paused', email: 'hal@example.test', phone: '555-0801' });
    await configure();
    ghl.rateLimitNext(1);
    const response = await sync();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ imported: 1, pushed: 1 });
    const limited = ghl.requests.findIndex((r) => r.status === 429);
    expect(limited).toBe(0);
    expect(ghl.requests[0]?.headers['retry-after']).toBeUndefined();
    const next = ghl.requests[1];
    expect(next?.status).toBe(200);
    expect((next?.at ?? 0) - (ghl.requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(400);
    expect(ghl.requests.filter((r) => r.status === 429)).toHaveLength(1);
  });

  it('stops with a clear message when the daily budget is spent, and queues the rest for the next day', async () => {
    await restartGhl({ dailyLimit: 6 });
    for (let i = 0; i < 5; i++)
      await insertPatient(server.db, {
        name: `Day Patient${i}`,
        email: `day${i}@example.test`,
        phone: `555-090${i}`,
      });
    await configure();
    const before = Date.now();
    const response = await sync();
    expect(response.status).toBe(503);
    const resumes = nextUtcMidnight(before);
    const expected = ghlMessages.dailyLimit(`${resumes.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(response.body.error).toBe(expected);
    // Six requests: the search, then two per patient for two and a half patients; none refused.
    expect(ghl.requests).toHaveLength(6);
    expect(ghl.requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(Number((await server.db('patients').whereNotNull('ghl_id').count({ n: '*' }))[0]?.n)).toBe(2);
    const { runs } = await report();
    expect(runs[0]).toMatchObject({ status: 'stopped', pushed: 2, message: expected });
    const resume = await server.db
      .withSchema(JOB_SCHEMA)
      .from('job')
      .where({ name: GHL_SYNC_QUEUE, singleton_key: GHL_RESUME_KEY, state: 'created' })
      .first();
    expect(new Date(resume.start_after).getTime()).toBe(resumes.getTime());

    // Asking again the same day sends nothing and says the same.
    const again = await sync();
    expect(again.status).toBe(503);
    expect(again.body.error).toBe(expected);
    expect(ghl.requests).toHaveLength(6);
  });

  it('refuses an http:// base URL for any host but a loopback one', async () => {
    for (const url of ['http://services.leadconnectorhq.com', 'http://10.0.0.5:8080', 'ftp://x']) {
      const response = await admin.request<{ fields?: Record<string, string> }>(
        'PATCH',
        '/api/admin/settings',
        {
          body: { ghlBaseUrl: url },
        },
      );
      expect(response.status).toBe(400);
      expect(response.body.fields?.ghlBaseUrl).toBe(ghlMessages.insecureBaseUrl);
    }
    for (const url of ['https://services.leadconnectorhq.com', 'http://127.0.0.1:9', 'http://localhost:9']) {
      const response = await admin.request('PATCH', '/api/admin/settings', { body: { ghlBaseUrl: url } });
      expect(response.status).toBe(200);
    }
    // Even a value stored otherwise never reaches the network.
    expect(
      () => new GhlClient(server.db, { baseUrl: 'http://ghl.example.com', token: 't', locationId: 'l' }),
    ).toThrow(GhlError);
  });

  it('is refused to roles that may not sync', async () => {
    const technician = await server.loginAs('technician');
    expect((await sync(technician)).status).toBe(403);
    expect((await technician.request('GET', '/api/ghl/report')).status).toBe(403);
    expect(
      (await technician.request('POST', '/api/ghl/issues/1/resolve', { body: { action: 'skip' } })).status,
    ).toBe(403);
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

  it("reads GoHighLevel's 400 and 422 bodies", () => {
    expect(
      readErrorBody({
        statusCode: 422,
        message: ['phone must be a valid phone number'],
        error: 'Unprocessable Entity',
      }),
    ).toEqual({ field: 'phone', remoteMessage: 'phone must be a valid phone number' });
    expect(readErrorBody({ statusCode: 400, message: 'Invalid email address' })).toEqual({
      field: 'email',
      remoteMessage: 'Invalid email address',
    });
    expect(readErrorBody(null)).toEqual({ field: 'contact', remoteMessage: 'no reason given' });
  });

  it('waits a whole interval with jitter after a 429, and counts a margin into every window', () => {
    expect(pauseAfter429Ms(10_000, 0)).toBe(10_000);
    expect(pauseAfter429Ms(10_000, 0.999)).toBeLessThan(12_000);
    expect(safetyMarginMs(10_000)).toBe(500);
    expect(safetyMarginMs(250)).toBe(250);
    expect(nextUtcMidnight(Date.parse('2026-03-04T23:59:00Z')).toISOString()).toBe(
      '2026-03-05T00:00:00.000Z',
    );
  });
});
