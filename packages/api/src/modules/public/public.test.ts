import { randomUUID } from 'node:crypto';
import { isValidNpi, PUBLIC_FORM_MIN_FILL_MS, publicFormsMessages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from '../../test/from-address.js';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { getTestServer, type TestServer } from '../../test/server.js';
import { PUBLIC_RATE_LIMITS } from './guard.js';

// The public API through HTTP, on a real database: what the widgets and public pages call.

const PARTNER = 'https://partner.example';
const ELSEWHERE = 'https://elsewhere.example';
const VALID_NPI = '1234567893';
// A 1x1 PNG, as a signature pad would send it.
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function antiBot() {
  return {
    startedAt: Date.now() - PUBLIC_FORM_MIN_FILL_MS - 1000,
    idempotencyKey: randomUUID(),
    website: '',
  };
}

function bookingRequest(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Robin Example',
    email: `robin-${randomUUID().slice(0, 8)}@example.test`,
    phone: '555-0142',
    kitType: 'Somfit',
    testType: '2-day',
    startDate: wednesdayAhead(1),
    utm: { source: 'partner', campaign: 'spring' },
    ...antiBot(),
    ...overrides,
  };
}

function signup(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Dr Casey Example',
    npi: VALID_NPI,
    practice: 'Example Sleep Clinic',
    email: 'casey@example.test',
    phone: '555-0199',
    specialty: 'Sleep medicine',
    ...antiBot(),
    ...overrides,
  };
}

async function count(server: TestServer, table: string): Promise<number> {
  const [row] = await server.db(table).count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

describe('public API', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await getTestServer();
    const admin = await server.loginAs('admin');
    const created = await admin.request<{ key: string; allowedOrigins: string[] }>(
      'POST',
      '/api/admin/embed-keys',
      {
        body: { name: 'Partner site', allowedOrigins: [PARTNER] },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.allowedOrigins).toEqual([PARTNER]);
    key = created.body.key;
  });
  afterAll(() => server.close());

  describe('embed keys and origins', () => {
    it('answers an allowed origin with CORS for that origin only', async () => {
      const res = await server.request('POST', '/api/public/physician-signups', {
        headers: { origin: PARTNER, 'x-wellrest-embed-key': key },
        body: signup({ npi: '1245319599' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('access-control-allow-origin')).toBe(PARTNER);
      expect(res.headers.get('vary')).toMatch(/origin/i);
      const [row] = await server.db('public_submissions').where({ request_id: res.body.requestId });
      expect(row.embed_key_id).toEqual(expect.any(Number));
    });

    it('answers a preflight from an allowed origin', async () => {
      const res = await server.request('OPTIONS', '/api/public/booking-requests', {
        headers: {
          origin: PARTNER,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-wellrest-embed-key',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(PARTNER);
      expect(res.headers.get('access-control-allow-headers')).toContain('x-wellrest-embed-key');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    });

    it('refuses requests from an origin the key does not allow, readably for that origin', async () => {
      // The preflight only lets the browser send the request: it is answered for any origin, so
      // the refusal that follows reaches the page instead of looking like a network failure.
      const preflight = await server.request('OPTIONS', '/api/public/booking-requests', {
        headers: { origin: ELSEWHERE, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ELSEWHERE);
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const before = await count(server, 'physician_signups');
      const res = await server.request('POST', '/api/public/physician-signups', {
        headers: { origin: ELSEWHERE, 'x-wellrest-embed-key': key },
        body: signup(),
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: publicFormsMessages.embedKeyRefused, requestId: expect.any(String) });
      expect(res.headers.get('access-control-allow-origin')).toBe(ELSEWHERE);
      expect(await count(server, 'physician_signups')).toBe(before);
    });

    it('refuses an unknown, a missing or a revoked key', async () => {
      const attempts: Record<string, string>[] = [
        { origin: PARTNER, 'x-wellrest-embed-key': 'wr_pk_unknown' },
        { origin: PARTNER },
      ];
      for (const headers of attempts) {
        const res = await server.request(
          'GET',
          `/api/public/availability?kitType=Somfit&from=${wednesdayAhead()}`,
          {
            headers,
          },
        );
        expect(res.status).toBe(403);
      }
      const admin = await server.loginAs('admin');
      const other = await admin.request<{ id: number; key: string }>('POST', '/api/admin/embed-keys', {
        body: { name: 'Old partner', allowedOrigins: [ELSEWHERE] },
      });
      expect((await admin.request('DELETE', `/api/admin/embed-keys/${other.body.id}`)).status).toBe(200);
      const res = await server.request(
        'GET',
        `/api/public/availability?kitType=Somfit&from=${wednesdayAhead()}`,
        {
          headers: { origin: ELSEWHERE, 'x-wellrest-embed-key': other.body.key },
        },
      );
      expect(res.status).toBe(403);
    });

    it('lets only administrators manage keys, and validates origins', async () => {
      const scheduler = await server.loginAs('scheduler');
      const refused = await scheduler.request('POST', '/api/admin/embed-keys', {
        body: { name: 'x', allowedOrigins: [PARTNER] },
      });
      expect(refused.status).toBe(403);
      const admin = await server.loginAs('admin');
      const bad = await admin.request('POST', '/api/admin/embed-keys', {
        body: { name: 'x', allowedOrigins: ['partner.example/path'] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual({ 'allowedOrigins.0': publicFormsMessages.originInvalid });
    });
  });

  describe('availability', () => {
    it('gives levels per date and nothing about bookings or patients', async () => {
      const start = wednesdayAhead(2);
      const kits = await insertKits(server.db, 'SleepView', 2);
      const patient = await insertPatient(server.db, { name: 'Sensitive Name' });
      await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kits[0]?.id ?? null,
        kitType: 'SleepView',
        startDate: start,
      });
      const res = await server.request<{ days: Array<Record<string, unknown>> }>(
        'GET',
        `/api/public/availability?kitType=SleepView&testType=2-day&from=${start}&days=7`,
      );
      expect(res.status).toBe(200);
      expect(res.body.days).toHaveLength(7);
      expect(res.text).not.toContain('Sensitive');
      for (const day of res.body.days)
        expect(Object.keys(day).sort()).toEqual(['date', 'level', 'validStart']);
      expect(res.body.days[0]).toEqual({ date: start, level: 'limited', validStart: true });
      // Friday: never a valid start.
      expect(res.body.days[2]?.validStart).toBe(false);
    });

    it('rejects a bad query field by field', async () => {
      const res = await server.request(
        'GET',
        '/api/public/availability?kitType=Nope&from=2026-02-30&days=99',
      );
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields as object).sort()).toEqual(['days', 'from', 'kitType']);
    });
  });

  describe('booking requests', () => {
    it('rejects bad input field by field and writes nothing', async () => {
      const before = await count(server, 'booking_requests');
      const res = await server.request('POST', '/api/public/booking-requests', {
        body: { ...antiBot(), name: '', email: 'not-an-email', kitType: 'Nope', startDate: '2026-13-01' },
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toMatchObject({
        name: publicFormsMessages.nameRequired,
        email: publicFormsMessages.emailInvalid,
        phone: publicFormsMessages.phoneRequired,
        kitType: publicFormsMessages.kitTypeRequired,
      });
      expect(await count(server, 'booking_requests')).toBe(before);
      expect(await count(server, 'public_submissions')).toBeGreaterThanOrEqual(0);
    });

    it('stores a request with a pending booking and the UTM parameters, once per idempotency key', async () => {
      await insertKits(server.db, 'Somfit', 1);
      const body = bookingRequest();
      const first = await server.request<{ requestId: string }>('POST', '/api/public/booking-requests', {
        body,
      });
      expect(first.status).toBe(201);
      const again = await server.request<{ requestId: string }>('POST', '/api/public/booking-requests', {
        body,
      });
      expect(again.status).toBe(200);
      expect(again.body.requestId).toBe(first.body.requestId);
      const rows = await server.db('booking_requests').where({ request_id: first.body.requestId });
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe('pending_booking');
      expect(rows[0].utm).toEqual({ source: 'partner', campaign: 'spring' });
      const booking = await server.db('bookings').where({ id: rows[0].booking_id }).first();
      expect(booking.status).toBe('pending');
      // It holds no kit until a scheduler confirms it.
      expect(booking.kit_id).toBeNull();
      const patient = await server.db('patients').where({ id: rows[0].patient_id }).first();
      expect(patient.lead_source).toBe('Online');

      const scheduler = await server.loginAs('scheduler');
      const list = await scheduler.request<Array<{ requestId: string }>>('GET', '/api/booking-requests');
      expect(list.body.map((r) => r.requestId)).toContain(first.body.requestId);
    });

    it('refuses a filled honeypot and a form sent too fast', async () => {
      const before = await count(server, 'booking_requests');
      const honeypot = await server.request('POST', '/api/public/booking-requests', {
        body: bookingRequest({ website: 'https://spam.example' }),
      });
      expect(honeypot.status).toBe(400);
      expect(honeypot.body.fields).toEqual({ website: publicFormsMessages.honeypot });
      const fast = await server.request('POST', '/api/public/booking-requests', {
        body: bookingRequest({ startedAt: Date.now() }),
      });
      expect(fast.status).toBe(400);
      expect(fast.body.error).toBe(publicFormsMessages.tooFast);
      expect(await count(server, 'booking_requests')).toBe(before);
    });

    it('refuses a start date in the past', async () => {
      const res = await server.request('POST', '/api/public/booking-requests', {
        body: bookingRequest({ startDate: '2020-01-01' }),
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ startDate: publicFormsMessages.startDatePast });
    });
  });

  describe('referrals and physician sign-ups', () => {
    it('creates a pending physician and a referral with its attachment, for staff to review its patient', async () => {
      expect(isValidNpi(VALID_NPI)).toBe(true);
      const patientsBefore = await count(server, 'patients');
      const res = await server.request<{ requestId: string }>('POST', '/api/public/referrals', {
        body: {
          physician: { name: 'Dr Ref Example', npi: VALID_NPI, email: 'ref@example.test' },
          patient: { name: 'Sam Referred', phone: '555-0111', email: 'sam@example.test' },
          reason: 'Loud snoring and witnessed apneas',
          urgency: 'urgent',
          attachment: { filename: 'note.pdf', contentType: 'application/pdf', dataBase64: 'JVBERi0xLjQK' },
          ...antiBot(),
        },
      });
      expect(res.status).toBe(201);
      const referral = await server.db('referrals').where({ request_id: res.body.requestId }).first();
      expect(referral).toMatchObject({
        status: 'received',
        urgency: 'urgent',
        patient_id: null,
        submitted_patient: { name: 'Sam Referred', phone: '555-0111', email: 'sam@example.test' },
      });
      const attachment = await server.db('referral_attachments').where({ referral_id: referral.id }).first();
      expect(attachment.content_type).toBe('application/pdf');
      expect(Buffer.from(attachment.data).toString('latin1')).toBe('%PDF-1.4\n');
      const physician = await server.db('physicians').where({ id: referral.physician_id }).first();
      expect(physician).toMatchObject({ npi: VALID_NPI, status: 'pending' });
      expect(await count(server, 'patients')).toBe(patientsBefore);
    });

    it('rejects a bad NPI, a short reason and a bad urgency field by field', async () => {
      const before = await count(server, 'referrals');
      const res = await server.request('POST', '/api/public/referrals', {
        body: {
          physician: { name: 'Dr X', npi: '1234567890', email: 'x@example.test' },
          patient: { name: 'Y', phone: '1' },
          reason: 'short',
          urgency: 'whenever',
          ...antiBot(),
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({
        'physician.npi': publicFormsMessages.npiInvalid,
        reason: publicFormsMessages.reasonTooShort,
        urgency: publicFormsMessages.urgencyRequired,
      });
      expect(await count(server, 'referrals')).toBe(before);
    });

    it('keeps a sign-up pending until an administrator approves it', async () => {
      const res = await server.request<{ requestId: string }>('POST', '/api/public/physician-signups', {
        body: signup({ npi: '1987654328' }),
      });
      expect(res.status).toBe(201);
      const row = await server.db('physician_signups').where({ request_id: res.body.requestId }).first();
      expect(row.status).toBe('pending');
      const staff = await server.loginAs('staff');
      expect((await staff.request('POST', `/api/admin/physician-signups/${row.id}/approve`)).status).toBe(
        403,
      );
      const admin = await server.loginAs('admin');
      const approved = await admin.request<{ status: string; physicianId: number }>(
        'POST',
        `/api/admin/physician-signups/${row.id}/approve`,
      );
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('approved');
      expect(await server.db('physicians').where({ id: approved.body.physicianId }).first()).toMatchObject({
        npi: '1987654328',
      });
      expect((await admin.request('POST', `/api/admin/physician-signups/${row.id}/reject`)).status).toBe(409);
    });
  });

  describe('agreements', () => {
    async function initiatedAgreement(): Promise<{ token: string; bookingId: number }> {
      const [kit] = await insertKits(server.db, 'Z-Machine', 1);
      const patient = await insertPatient(server.db, { name: 'Alex Signer' });
      const bookingId = await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'Z-Machine',
        startDate: wednesdayAhead(3),
      });
      const scheduler = await server.loginAs('scheduler');
      const res = await scheduler.request<{ formUrl: string }>(
        'POST',
        `/api/bookings/${bookingId}/initiate-agreement`,
      );
      expect(res.status).toBe(200);
      const token = new URL(res.body.formUrl, 'http://x').searchParams.get('token') ?? '';
      return { token, bookingId };
    }

    it('shows the agreement, signs it, and keeps a PDF staff can download', async () => {
      const { token, bookingId } = await initiatedAgreement();
      const view = await server.request('GET', `/api/public/agreements/${token}`);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({ patientName: 'Alex Signer', kitType: 'Z-Machine', status: 'sent' });
      expect((view.body.terms as string[]).length).toBeGreaterThan(0);

      const bad = await server.request('POST', `/api/public/agreements/${token}/sign`, {
        body: { fullName: '', signature: 'x', consent: false },
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['consent', 'fullName', 'signature']);

      const signed = await server.request('POST', `/api/public/agreements/${token}/sign`, {
        headers: { 'user-agent': 'TestBrowser/1.0' },
        body: { fullName: 'Alex Signer', signature: SIGNATURE, consent: true },
      });
      expect(signed.status).toBe(200);
      expect(signed.body.signedAt).toEqual(expect.any(String));
      const row = await server.db('agreements').where({ booking_id: bookingId }).first();
      expect(row).toMatchObject({
        status: 'signed',
        signed_name: 'Alex Signer',
        signed_user_agent: 'TestBrowser/1.0',
      });
      expect(row.signed_ip).toEqual(expect.any(String));

      const again = await server.request('POST', `/api/public/agreements/${token}/sign`, {
        body: { fullName: 'Alex Signer', signature: SIGNATURE, consent: true },
      });
      expect(again.status).toBe(410);
      expect(again.body).toEqual({
        error: publicFormsMessages.agreementUsed,
        reason: 'used',
        requestId: expect.any(String),
      });

      const scheduler = await server.loginAs('scheduler');
      const list = await scheduler.request<Array<{ id: number; bookingId: number; signerName: string }>>(
        'GET',
        '/api/agreements',
      );
      const item = list.body.find((a) => a.bookingId === bookingId);
      expect(item?.signerName).toBe('Alex Signer');
      const pdf = await fetch(`${server.url}/api/agreements/${item?.id}/pdf`, {
        headers: { cookie: scheduler.cookie },
      });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="agreement-${item?.id}.pdf"`);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const audited = await server
        .db('audit_events')
        .where({ action: 'agreement.pdf', entity_id: String(item?.id) });
      expect(audited).toHaveLength(1);
    });

    it('answers forged and expired links with a reason, not an error', async () => {
      const forged = await server.request('GET', '/api/public/agreements/forged-token');
      expect(forged.status).toBe(404);
      expect(forged.body).toEqual({
        error: publicFormsMessages.agreementInvalid,
        reason: 'invalid',
        requestId: expect.any(String),
      });
      const { token, bookingId } = await initiatedAgreement();
      await server
        .db('agreements')
        .where({ booking_id: bookingId })
        .update({
          created_at: new Date(Date.now() - 10 * 86_400_000),
          expires_at: new Date(Date.now() - 1000),
        });
      const expired = await server.request('GET', `/api/public/agreements/${token}`);
      expect(expired.status).toBe(410);
      expect(expired.body.reason).toBe('expired');
      const sign = await server.request('POST', `/api/public/agreements/${token}/sign`, {
        body: { fullName: 'Alex Signer', signature: SIGNATURE, consent: true },
      });
      expect(sign.status).toBe(410);
    });
  });

  describe('drop-offs', () => {
    async function pickedUpWithLink(
      name: string,
    ): Promise<{ bookingId: number; kitId: number; token: string }> {
      const [kit] = await insertKits(server.db, 'Somfit', 1);
      const patient = await insertPatient(server.db, { name });
      const bookingId = await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(4),
        status: 'confirmed',
      });
      const scheduler = await server.loginAs('scheduler');
      const link = await scheduler.request<{ formUrl: string }>(
        'POST',
        `/api/bookings/${bookingId}/initiate-agreement`,
      );
      expect(link.status).toBe(200);
      await server.db('bookings').where({ id: bookingId }).update({ status: 'picked_up' });
      const token = new URL(link.body.formUrl, 'http://x').searchParams.get('token') ?? '';
      return { bookingId, kitId: kit?.id ?? 0, token };
    }
    const report = {
      dropoffDate: wednesdayAhead(4),
      location: 'Front desk',
      problems: 'Sensor fell off night 2',
    };

    it('answers a guess exactly as a match, stores only the match, and staff confirm the return', async () => {
      const { bookingId, kitId, token } = await pickedUpWithLink('Jordan Q Dropper');
      // A sequential booking number and a last name are no proof any more.
      const guessed = await server.request('POST', '/api/public/dropoffs', {
        body: { ...report, bookingReference: `#${bookingId}`, lastName: 'Dropper' },
      });
      expect(guessed.status).toBe(400);
      expect(guessed.body.fields).toEqual({ token: publicFormsMessages.dropoffLinkRequired });

      const miss = await server.request('POST', '/api/public/dropoffs', {
        body: { ...report, token: 'x'.repeat(43) },
      });
      const hit = await server.request<{ requestId: string }>('POST', '/api/public/dropoffs', {
        body: { ...report, token },
      });
      expect([miss.status, hit.status]).toEqual([202, 202]);
      expect(Object.keys(miss.body)).toEqual(['requestId']);
      expect(Object.keys(hit.body)).toEqual(['requestId']);
      expect(miss.text.length).toBe(hit.text.length);

      const scheduler = await server.loginAs('scheduler');
      const list = await scheduler.request<Array<{ id: number; problems: string }>>(
        'GET',
        `/api/bookings/${bookingId}/dropoffs`,
      );
      expect(list.body).toHaveLength(1);
      expect(list.body[0]?.problems).toBe('Sensor fell off night 2');
      expect(await count(server, 'dropoffs')).toBe(1);
      const denied = await server.db('audit_events').where({ action: 'public.dropoff', outcome: 'denied' });
      expect(denied).toHaveLength(1);

      const confirmed = await scheduler.request('POST', `/api/dropoffs/${list.body[0]?.id}/confirm`);
      expect(confirmed.status).toBe(200);
      expect((await server.db('bookings').where({ id: bookingId }).first()).status).toBe('completed');
      // The kit is back and waits for its cleaning, as after a check-in scan.
      expect((await server.db('kits').where({ id: kitId }).first()).status).toBe('cleaning');
    });

    it('limits drop-off attempts per address, hits and misses alike', async () => {
      const address = '127.0.0.61';
      for (let i = 0; i < PUBLIC_RATE_LIMITS.perIp; i++) {
        const res = await requestFrom(server.url, address, 'POST', '/api/public/dropoffs', {
          body: { ...report, token: randomUUID() },
        });
        expect(res.status).toBe(202);
      }
      const limited = await requestFrom(server.url, address, 'POST', '/api/public/dropoffs', {
        body: { ...report, token: randomUUID() },
      });
      expect(limited.status).toBe(429);
    });

    it('stores nothing for an expired link, and answers it as any other', async () => {
      const { bookingId, token } = await pickedUpWithLink('Casey Late');
      // The link expired for signing, and the booking's return date is long past its grace.
      await server
        .db('agreements')
        .where({ booking_id: bookingId })
        .update({
          created_at: new Date(Date.now() - 10 * 86_400_000),
          expires_at: new Date(Date.now() - 1000),
        });
      const dates = await server
        .db('bookings')
        .where({ id: bookingId })
        .first('start_date', 'end_date', 'return_date');
      await server
        .db('bookings')
        .where({ id: bookingId })
        .update({ start_date: '2020-01-01', end_date: '2020-01-03', return_date: '2020-01-04' });
      const res = await server.request('POST', '/api/public/dropoffs', { body: { ...report, token } });
      expect(res.status).toBe(202);
      expect(await server.db('dropoffs').where({ booking_id: bookingId })).toHaveLength(0);

      // Within the grace after the return date, an expired signing link still reports the drop-off.
      await server.db('bookings').where({ id: bookingId }).update(dates);
      const late = await server.request('POST', '/api/public/dropoffs', { body: { ...report, token } });
      expect(late.status).toBe(202);
      expect(await server.db('dropoffs').where({ booking_id: bookingId })).toHaveLength(1);
    });
  });

  it('reports diagnostics for /simple-test', async () => {
    const res = await server.request('GET', '/api/public/diagnostics');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      api: 'ok',
      version: expect.any(String),
      serverTime: expect.any(String),
      database: 'ready',
    });
  });
});

describe('public rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('answers 429 once an address has used its submissions, and a repeat still gets its first answer', async () => {
    const first = signup({ npi: VALID_NPI });
    const accepted = await server.request<{ requestId: string }>('POST', '/api/public/physician-signups', {
      body: first,
    });
    expect(accepted.status).toBe(201);
    for (let i = 1; i < PUBLIC_RATE_LIMITS.perIp; i++) {
      const res = await server.request('POST', '/api/public/physician-signups', { body: signup() });
      expect(res.status).toBe(201);
    }
    const limited = await server.request('POST', '/api/public/physician-signups', { body: signup() });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: publicFormsMessages.rateLimited, requestId: expect.any(String) });
    const repeat = await server.request<{ requestId: string }>('POST', '/api/public/physician-signups', {
      body: first,
    });
    expect(repeat.status).toBe(200);
    expect(repeat.body.requestId).toBe(accepted.body.requestId);
    expect(await count(server, 'physician_signups')).toBe(PUBLIC_RATE_LIMITS.perIp);
  });
});
