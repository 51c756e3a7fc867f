import { randomUUID } from 'node:crypto';
import { messages, PUBLIC_FORM_MIN_FILL_MS, publicFormsMessages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from '../../test/from-address.js';
import { insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { getTestServer, type TestServer } from '../../test/server.js';
import { PUBLIC_RATE_LIMITS } from './guard.js';

// Public booking requests hold no kit: anyone can send them, so none may make a kit unavailable
// to staff. A scheduler's confirmation is what takes a kit. And the submission limits apply per
// embed key and per client address whatever headers a request carries.

const PARTNER = 'https://partner.example';

function bookingRequest(startDate: string) {
  return {
    name: 'Robin Example',
    email: `robin-${randomUUID().slice(0, 8)}@example.test`,
    phone: '555-0142',
    kitType: 'Z-Machine',
    testType: '2-day',
    startDate,
    startedAt: Date.now() - PUBLIC_FORM_MIN_FILL_MS - 1000,
    idempotencyKey: randomUUID(),
    website: '',
  };
}

describe('public booking requests and kits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('ten requests from ten addresses leave the kits free; confirming takes one, or is refused', async () => {
    const [first, second] = await insertKits(server.db, 'Z-Machine', 2);
    const date = wednesdayAhead(2);
    const requestIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await requestFrom<{ requestId: string }>(
        server.url,
        `127.0.0.${20 + i}`,
        'POST',
        '/api/public/booking-requests',
        { body: bookingRequest(date) },
      );
      expect(res.status).toBe(201);
      requestIds.push(res.body.requestId);
    }
    const requests = await server.db('booking_requests').whereIn('request_id', requestIds);
    expect(requests.map((r) => r.status)).toEqual(Array(10).fill('pending_booking'));
    const pending = await server.db('bookings').whereIn(
      'id',
      requests.map((r) => r.booking_id),
    );
    expect(pending.map((b) => [b.status, b.kit_id])).toEqual(Array(10).fill(['pending', null]));

    const availability = await server.request<{ days: { date: string; level: string }[] }>(
      'GET',
      `/api/public/availability?kitType=Z-Machine&testType=2-day&from=${date}&days=1`,
    );
    expect(availability.status).toBe(200);
    expect(availability.body.days[0]?.level).not.toBe('none');

    // Staff can still book the date.
    const scheduler = await server.loginAs('scheduler');
    const patient = await insertPatient(server.db);
    const staffBooking = await scheduler.request<{ id: number }>('POST', '/api/bookings', {
      body: { patientId: patient.id, kitType: 'Z-Machine', testType: '2-day', startDate: date },
    });
    expect(staffBooking.status).toBe(201);

    // Confirming a request takes the other free kit; the next confirmation finds none.
    const [one, two] = requests.sort((a, b) => a.id - b.id);
    const confirmed = await scheduler.request<{ status: string }>(
      'POST',
      `/api/bookings/${one?.booking_id}/status`,
      { body: { status: 'confirmed' } },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('confirmed');
    const taken = [
      (await server.db('bookings').where({ id: staffBooking.body.id }).first()).kit_id,
      (await server.db('bookings').where({ id: one?.booking_id }).first()).kit_id,
    ].sort();
    expect(taken).toEqual([first?.id, second?.id].sort());
    const refused = await scheduler.request('POST', `/api/bookings/${two?.booking_id}/status`, {
      body: { status: 'confirmed' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: messages.booking.kitNotAvailable('Z-Machine'),
      requestId: expect.any(String),
    });
    const unchanged = await server.db('bookings').where({ id: two?.booking_id }).first();
    expect([unchanged.status, unchanged.kit_id]).toEqual(['pending', null]);
  });

  it('applies the per-key limit to requests sent without an Origin header', async () => {
    // The window's submissions so far, each from another address and without an embed key.
    await server.db('public_submissions').insert(
      Array.from({ length: PUBLIC_RATE_LIMITS.perKey }, (_, i) => ({
        kind: 'booking_request',
        idempotency_key: randomUUID(),
        request_id: randomUUID(),
        embed_key_id: null,
        ip: `198.51.100.${i % 250}`,
      })),
    );
    const res = await requestFrom(server.url, '127.0.0.90', 'POST', '/api/public/booking-requests', {
      body: bookingRequest(wednesdayAhead(3)),
    });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: publicFormsMessages.rateLimited, requestId: expect.any(String) });
    expect(res.headers.get('retry-after')).toBe(String(PUBLIC_RATE_LIMITS.windowMinutes * 60));
    await server.db('public_submissions').whereNull('embed_key_id').del();
  });

  it('applies the per-key limit to an embed key across addresses', async () => {
    const admin = await server.loginAs('admin');
    const created = await admin.request<{ id: number; key: string }>('POST', '/api/admin/embed-keys', {
      body: { name: 'Partner site', allowedOrigins: [PARTNER] },
    });
    expect(created.status).toBe(201);
    const keyId = (await server.db('embed_keys').orderBy('id', 'desc').first()).id;
    await server.db('public_submissions').insert(
      Array.from({ length: PUBLIC_RATE_LIMITS.perKey }, (_, i) => ({
        kind: 'booking_request',
        idempotency_key: randomUUID(),
        request_id: randomUUID(),
        embed_key_id: keyId,
        ip: `203.0.113.${i % 250}`,
      })),
    );
    const res = await requestFrom(server.url, '127.0.0.91', 'POST', '/api/public/booking-requests', {
      headers: { origin: PARTNER, 'x-wellrest-embed-key': created.body.key },
      body: bookingRequest(wednesdayAhead(3)),
    });
    expect(res.status).toBe(429);
  });

  it('applies the per-address limit whatever Origin and key a request names', async () => {
    const address = '127.0.0.92';
    await server.db('public_submissions').insert(
      Array.from({ length: PUBLIC_RATE_LIMITS.perIp }, () => ({
        kind: 'booking_request',
        idempotency_key: randomUUID(),
        request_id: randomUUID(),
        embed_key_id: null,
        ip: address,
      })),
    );
    const plain = await requestFrom(server.url, address, 'POST', '/api/public/booking-requests', {
      body: bookingRequest(wednesdayAhead(3)),
    });
    expect(plain.status).toBe(429);
    const forged = await requestFrom(server.url, address, 'POST', '/api/public/booking-requests', {
      headers: { 'x-forwarded-for': '192.0.2.1', 'x-real-ip': '192.0.2.2' },
      body: bookingRequest(wednesdayAhead(3)),
    });
    expect(forged.status).toBe(429);
  });
});
