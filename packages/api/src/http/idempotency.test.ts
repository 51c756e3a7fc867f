import { randomUUID } from 'node:crypto';
import {
  type BookingListItem,
  frontDeskMessages,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  type Patient,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKits, insertPatient, wednesdayAhead } from '../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';

// Creates carrying an Idempotency-Key: the first answer is kept in PostgreSQL and replayed, so a
// double click, a retried request or twenty simultaneous copies write once.
describe('Idempotency-Key on creates', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  const count = async (table: string, where: Record<string, unknown>) =>
    Number((await server.db(table).where(where).count({ n: '*' }))[0]?.n);

  async function bookingBody() {
    await insertKits(server.db, 'Z-Machine', 2);
    const patient = await insertPatient(server.db);
    return { patientId: patient.id, kitType: 'Z-Machine', testType: '2-day', startDate: wednesdayAhead(3) };
  }

  it('the same booking sent twice with one key writes once and answers the same body', async () => {
    const body = await bookingBody();
    const headers = { [IDEMPOTENCY_HEADER]: randomUUID() };
    const first = await scheduler.request<BookingListItem>('POST', '/api/bookings', { body, headers });
    const second = await scheduler.request<BookingListItem>('POST', '/api/bookings', { body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBeNull();
    expect(second.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBe('true');
    expect(await count('bookings', { patient_id: body.patientId })).toBe(1);
  });

  it('20 simultaneous copies with one key write one booking and all answer its body', async () => {
    const body = await bookingBody();
    const headers = { [IDEMPOTENCY_HEADER]: randomUUID() };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        scheduler.request<BookingListItem>('POST', '/api/bookings', { body, headers }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    for (const r of responses) expect(r.body).toEqual(responses[0]?.body);
    expect(await count('bookings', { patient_id: body.patientId })).toBe(1);
  });

  it('20 simultaneous new patients with one key create one patient', async () => {
    const email = `idem-${randomUUID().slice(0, 8)}@example.test`;
    const headers = { [IDEMPOTENCY_HEADER]: randomUUID() };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        scheduler.request<Patient>('POST', '/api/patients', {
          body: { name: 'Idem Placeholder', email, phone: '555-0100' },
          headers,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await count('patients', { email })).toBe(1);
  });

  it('without a key every request writes (the duplicate-booking rule then answers)', async () => {
    const email = `nokey-${randomUUID().slice(0, 8)}@example.test`;
    const body = { name: 'No Key Placeholder', email, phone: '555-0101' };
    await scheduler.request('POST', '/api/patients', { body });
    await scheduler.request('POST', '/api/patients', { body });
    expect(await count('patients', { email })).toBe(2);
  });

  it('a key is per user: another user with the same key gets a write of their own', async () => {
    const other = await server.loginAs('admin');
    const key = randomUUID();
    const email = `per-user-${randomUUID().slice(0, 8)}@example.test`;
    const body = { name: 'Per User Placeholder', email, phone: '555-0102' };
    const mine = await scheduler.request<Patient>('POST', '/api/patients', {
      body,
      headers: { [IDEMPOTENCY_HEADER]: key },
    });
    const theirs = await other.request<Patient>('POST', '/api/patients', {
      body,
      headers: { [IDEMPOTENCY_HEADER]: key },
    });
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('the same key with a different body is refused with 422 and writes nothing', async () => {
    const body = await bookingBody();
    const headers = { [IDEMPOTENCY_HEADER]: randomUUID() };
    await scheduler.request('POST', '/api/bookings', { body, headers });
    const other = await scheduler.request('POST', '/api/bookings', {
      body: { ...body, notes: 'something else' },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: frontDeskMessages.idempotencyKeyReused,
      requestId: expect.any(String),
    });
    expect(await count('bookings', { patient_id: body.patientId })).toBe(1);
  });

  it('a key that is not a UUID is a 400 naming the header', async () => {
    const body = await bookingBody();
    const res = await scheduler.request('POST', '/api/bookings', {
      body,
      headers: { [IDEMPOTENCY_HEADER]: 'click-1' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: frontDeskMessages.idempotencyKeyInvalid,
      fields: { [IDEMPOTENCY_HEADER]: frontDeskMessages.idempotencyKeyInvalid },
    });
    expect(await count('bookings', { patient_id: body.patientId })).toBe(0);
  });

  it('a failed request keeps nothing: the corrected request with the same key writes', async () => {
    const body = await bookingBody();
    const headers = { [IDEMPOTENCY_HEADER]: randomUUID() };
    const refused = await scheduler.request('POST', '/api/bookings', {
      body: { ...body, patientId: 999_999_999 },
      headers,
    });
    expect(refused.status).toBe(400);
    const created = await scheduler.request('POST', '/api/bookings', { body, headers });
    expect(created.status).toBe(201);
  });

  it('after 24 hours the key is free again', async () => {
    const email = `expired-${randomUUID().slice(0, 8)}@example.test`;
    const key = randomUUID();
    const body = { name: 'Expired Placeholder', email, phone: '555-0103' };
    const headers = { [IDEMPOTENCY_HEADER]: key };
    await scheduler.request('POST', '/api/patients', { body, headers });
    await server
      .db('idempotency_keys')
      .where({ key })
      .update({ created_at: server.db.raw("now() - interval '25 hours'") });
    const again = await scheduler.request('POST', '/api/patients', { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBeNull();
    expect(await count('patients', { email })).toBe(2);
  });
});
