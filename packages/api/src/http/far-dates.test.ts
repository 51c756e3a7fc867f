import { randomUUID } from 'node:crypto';
import { DATE_MAX, DATE_MIN, messages, PUBLIC_FORM_MIN_FILL_MS } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKits, insertPatient } from '../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';

// Dates at the edges of the calendar (year 9999, year 0001) are refused field by field with 400,
// never a 500 from date arithmetic past the end of what a Date can hold.

describe('dates far from today', () => {
  let server: TestServer;
  let scheduler: Agent;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
    admin = await server.loginAs('admin');
    await insertKits(server.db, 'Somfit', 1);
  });
  afterAll(() => server.close());

  const far = ['9999-12-31', '9999-12-29', '0001-01-01', '2999-06-02'];

  it('public availability refuses them with 400', async () => {
    for (const from of far) {
      const res = await server.request(
        'GET',
        `/api/public/availability?kitType=Somfit&testType=2-day&from=${from}&days=60`,
      );
      expect(res.status, from).toBe(400);
      expect(res.body.fields).toEqual({ from: messages.dates.outOfRange });
    }
  });

  it('a public booking request refuses them with 400 and stores nothing', async () => {
    for (const startDate of far) {
      const res = await server.request('POST', '/api/public/booking-requests', {
        body: {
          name: 'Robin Example',
          email: 'robin@example.test',
          phone: '555-0142',
          kitType: 'Somfit',
          testType: '2-day',
          startDate,
          startedAt: Date.now() - PUBLIC_FORM_MIN_FILL_MS - 1000,
          idempotencyKey: randomUUID(),
          website: '',
        },
      });
      expect(res.status, startDate).toBe(400);
      expect(res.body.fields).toMatchObject({ startDate: messages.dates.outOfRange });
    }
    expect(await server.db('booking_requests')).toEqual([]);
  });

  it('a staff booking refuses them with 400', async () => {
    const patient = await insertPatient(server.db);
    for (const startDate of far) {
      const res = await scheduler.request('POST', '/api/bookings', {
        body: { patientId: patient.id, kitType: 'Somfit', testType: '2-day', startDate },
      });
      expect(res.status, startDate).toBe(400);
      expect(res.body.fields).toMatchObject({ startDate: messages.dates.outOfRange });
    }
    expect(await server.db('bookings')).toEqual([]);
  });

  it('date filters and reports refuse them too', async () => {
    for (const date of far) {
      for (const path of [
        `/api/bookings?from=${date}`,
        `/api/bookings?to=${date}`,
        `/api/kit-stats?from=${date}&to=${date}`,
      ]) {
        const res = await admin.request('GET', path);
        expect(res.status, path).toBe(400);
      }
    }
  });

  it('accepts the edges of the range', async () => {
    expect(DATE_MIN < DATE_MAX).toBe(true);
    const res = await server.request(
      'GET',
      `/api/public/availability?kitType=Somfit&testType=2-day&from=${DATE_MAX}&days=7`,
    );
    expect(res.status).toBe(200);
  });
});
