import { randomBytes } from 'node:crypto';
import { type AvailabilityDay, frontDeskMessages, publicFormsMessages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  practiceTodayForTests,
  wednesdayAhead,
} from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { AGREEMENT_LINK_DAYS, hashAgreementToken } from './store.js';

// A 1x1 PNG, as a signature pad would send it.
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('agreement links', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  async function confirmedBooking(startDate = wednesdayAhead(2)): Promise<number> {
    const [kit] = await insertKits(server.db, 'Z-Machine', 1);
    const patient = await insertPatient(server.db, { name: 'Robin Signer' });
    return insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Z-Machine',
      startDate,
    });
  }

  async function issue(bookingId: number): Promise<string> {
    const res = await scheduler.request<{ formUrl: string }>(
      'POST',
      `/api/bookings/${bookingId}/initiate-agreement`,
    );
    expect(res.status).toBe(200);
    return new URL(res.body.formUrl, 'http://x').searchParams.get('token') ?? '';
  }

  const sign = (token: string, fullName = 'Robin Signer') =>
    server.request('POST', `/api/public/agreements/${token}/sign`, {
      body: { fullName, signature: SIGNATURE, consent: true },
    });
  const view = (token: string) => server.request('GET', `/api/public/agreements/${token}`);

  /** A link made the way links were made before this rule: several live at once. */
  async function legacyLink(bookingId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await server.db('agreements').insert({
      booking_id: bookingId,
      token_hash: hashAgreementToken(token),
      expires_at: new Date(Date.now() + AGREEMENT_LINK_DAYS * 86_400_000),
      status: 'sent',
    });
    return token;
  }

  it('issuing a link voids the earlier ones: only the newest can be opened or signed', async () => {
    const bookingId = await confirmedBooking();
    const first = await issue(bookingId);
    const second = await issue(bookingId);
    const third = await issue(bookingId);
    for (const old of [first, second]) {
      expect((await view(old)).body).toEqual({
        error: publicFormsMessages.agreementReplaced,
        reason: 'replaced',
        requestId: expect.any(String),
      });
      expect((await sign(old)).status).toBe(410);
    }
    const live = await server.db('agreements').where({ booking_id: bookingId, status: 'sent' });
    expect(live).toHaveLength(1);
    expect(live[0]?.token_hash).toBe(hashAgreementToken(third));
    expect((await sign(third)).status).toBe(200);
  });

  it('a signature closes every other link of the booking, which then says it is signed', async () => {
    const bookingId = await confirmedBooking();
    const older = await legacyLink(bookingId);
    const newer = await legacyLink(bookingId);
    expect((await sign(newer)).status).toBe(200);
    const second = await sign(older, 'Someone Else');
    expect(second.status).toBe(410);
    expect(second.body).toMatchObject({ error: publicFormsMessages.agreementUsed, reason: 'used' });
    expect((await view(older)).body).toMatchObject({ status: 'signed' });
    const rows = await server.db('agreements').where({ booking_id: bookingId }).orderBy('id');
    expect(rows.map((r) => r.status)).toEqual(['void', 'signed']);
    expect(rows.filter((r) => r.signed_name !== null).map((r) => r.signed_name)).toEqual(['Robin Signer']);
  });

  it('two live links signed at the same moment: one signature is kept', async () => {
    const bookingId = await confirmedBooking();
    const a = await legacyLink(bookingId);
    const b = await legacyLink(bookingId);
    const results = await Promise.all([sign(a, 'Signer A'), sign(b, 'Signer B')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    const signed = await server.db('agreements').where({ booking_id: bookingId, status: 'signed' });
    expect(signed).toHaveLength(1);
  });

  it('a signed booking gets no new form: 409 saying it is signed', async () => {
    const bookingId = await confirmedBooking();
    await sign(await issue(bookingId));
    const again = await scheduler.request('POST', `/api/bookings/${bookingId}/initiate-agreement`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: frontDeskMessages.agreementAlreadySigned,
      reason: 'signed',
      agreementId: expect.any(Number),
      signedAt: expect.any(String),
      requestId: expect.any(String),
    });
    expect(await server.db('agreements').where({ booking_id: bookingId })).toHaveLength(1);
  });

  it('re-signing is an explicit staff action with a reason, kept in history and audit', async () => {
    const bookingId = await confirmedBooking();
    const original = await issue(bookingId);
    await sign(original);
    const noReason = await scheduler.request('POST', `/api/bookings/${bookingId}/agreement/resign`, {
      body: {},
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields).toHaveProperty('reason');

    const res = await scheduler.request<{ formUrl: string }>(
      'POST',
      `/api/bookings/${bookingId}/agreement/resign`,
      {
        body: { reason: 'Signed by the wrong person' },
      },
    );
    expect(res.status).toBe(200);
    const fresh = new URL(res.body.formUrl, 'http://x').searchParams.get('token') ?? '';
    // The old signature is superseded, kept with who and why; the old link is closed.
    const old = await server
      .db('agreements')
      .where({ token_hash: hashAgreementToken(original) })
      .first();
    expect(old).toMatchObject({
      status: 'superseded',
      void_reason: 'Signed by the wrong person',
      superseded_by: scheduler.user.id,
      signed_name: 'Robin Signer',
    });
    expect((await view(original)).body).toMatchObject({ reason: 'replaced' });
    expect((await sign(fresh, 'Robin Signer')).status).toBe(200);

    const audit = await server
      .db('audit_events')
      .where({ action: 'agreement.resign', entity_id: String(bookingId) });
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0]?.details)).toContain('Signed by the wrong person');
    const history = await scheduler.request<{ events: { action: string; reason: string | null }[] }>(
      'GET',
      `/api/bookings/${bookingId}`,
    );
    expect(history.body.events).toContainEqual(
      expect.objectContaining({ action: 'agreement_superseded', reason: 'Signed by the wrong person' }),
    );
  });

  it('re-signing a booking never signed is refused; a physician may not re-sign', async () => {
    const bookingId = await confirmedBooking();
    const res = await scheduler.request('POST', `/api/bookings/${bookingId}/agreement/resign`, {
      body: { reason: 'No reason really' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(frontDeskMessages.agreementNotSigned);
    const physician = await server.loginAs('physician');
    const denied = await physician.request('POST', `/api/bookings/${bookingId}/agreement/resign`, {
      body: { reason: 'Not allowed here' },
    });
    expect(denied.status).toBe(403);
  });

  it("the dashboard's pickups of today say when their agreement was signed", async () => {
    const today = practiceTodayForTests();
    const bookingId = await confirmedBooking(today);
    const before = await scheduler.request<AvailabilityDay[]>('GET', '/api/dashboard/daily-availability');
    const pickupBefore = before.body[0]?.pickups.find((p) => p.id === bookingId);
    expect(pickupBefore?.agreementSignedAt).toBeNull();
    await sign(await issue(bookingId));
    const after = await scheduler.request<AvailabilityDay[]>('GET', '/api/dashboard/daily-availability');
    const pickupAfter = after.body[0]?.pickups.find((p) => p.id === bookingId);
    expect(pickupAfter?.agreementSignedAt).toEqual(expect.any(String));
  });
});
