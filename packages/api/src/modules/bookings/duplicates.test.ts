import { type BookingListItem, frontDeskMessages, type PatientDuplicate } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

describe('duplicate records at the front desk', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  it('a second active booking for the same patient, kit type and start date is a 409 naming the first', async () => {
    await insertKits(server.db, 'Z-Machine', 3);
    const patient = await insertPatient(server.db);
    const body = { patientId: patient.id, kitType: 'Z-Machine', startDate: wednesdayAhead(4) };
    const first = await scheduler.request<BookingListItem>('POST', '/api/bookings', { body });
    expect(first.status).toBe(201);
    const second = await scheduler.request('POST', '/api/bookings', { body });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: frontDeskMessages.duplicateBooking('Z-Machine', body.startDate, first.body.id),
      reason: 'duplicate',
      existingBookingId: first.body.id,
      requestId: expect.any(String),
    });
    // Said to be intended, it is created.
    const intended = await scheduler.request<BookingListItem>('POST', '/api/bookings', {
      body: { ...body, allowDuplicate: true },
    });
    expect(intended.status).toBe(201);
    expect(intended.body.id).not.toBe(first.body.id);
  });

  it('a cancelled booking, another kit type or another date is not a duplicate', async () => {
    await insertKits(server.db, 'Somfit', 2);
    await insertKits(server.db, 'SleepView', 1);
    const patient = await insertPatient(server.db);
    const startDate = wednesdayAhead(5);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: null,
      kitType: 'Somfit',
      startDate,
      status: 'cancelled',
    });
    const somfit = await scheduler.request('POST', '/api/bookings', {
      body: { patientId: patient.id, kitType: 'Somfit', startDate },
    });
    expect(somfit.status).toBe(201);
    const sleepView = await scheduler.request('POST', '/api/bookings', {
      body: { patientId: patient.id, kitType: 'SleepView', startDate },
    });
    expect(sleepView.status).toBe(201);
  });

  it('finds patients sharing an email (any case) or a phone number (any spelling)', async () => {
    const existing = await insertPatient(server.db, {
      name: 'Dup Placeholder',
      email: 'dup.placeholder@example.test',
      phone: '(555) 010-4477',
    });
    const byEmail = await scheduler.request<PatientDuplicate[]>('POST', '/api/patients/duplicates', {
      body: { email: 'DUP.Placeholder@example.test' },
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual([{ id: existing.id, name: 'Dup Placeholder', matches: ['email'] }]);
    const byPhone = await scheduler.request<PatientDuplicate[]>('POST', '/api/patients/duplicates', {
      body: { email: 'someone-else@example.test', phone: '555.010.4477' },
    });
    expect(byPhone.body).toEqual([{ id: existing.id, name: 'Dup Placeholder', matches: ['phone'] }]);
    const editingItself = await scheduler.request<PatientDuplicate[]>('POST', '/api/patients/duplicates', {
      body: { email: 'dup.placeholder@example.test', excludeId: existing.id },
    });
    expect(editingItself.body).toEqual([]);
    // A partial number matches nothing.
    const partial = await scheduler.request<PatientDuplicate[]>('POST', '/api/patients/duplicates', {
      body: { phone: '4477' },
    });
    expect(partial.body).toEqual([]);
    const audited = await server
      .db('audit_events')
      .where({ action: 'patient.duplicate_check' })
      .count({ n: '*' });
    expect(Number(audited[0]?.n)).toBeGreaterThan(0);
  });

  it('a physician without patients of their own is refused the check', async () => {
    const physician = await server.loginAs('physician');
    const res = await physician.request('POST', '/api/patients/duplicates', {
      body: { email: 'anyone@example.test' },
    });
    expect(res.status).toBe(403);
  });
});
