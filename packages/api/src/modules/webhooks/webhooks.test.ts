import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { WebhookDeliveryView } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }).toString().trim(), privateKey };
}

/** A webhook as GoHighLevel sends it: JSON, signed (RSA-SHA256, base64) in x-wh-signature. */
function delivery(privateKey: KeyObject, payload: Record<string, unknown>, signature?: string) {
  const rawBody = JSON.stringify(payload);
  return {
    rawBody,
    headers: {
      'x-wh-signature': signature ?? sign('sha256', Buffer.from(rawBody), privateKey).toString('base64'),
    },
  };
}

let counter = 0;
const contactEvent = (type: string, overrides: Record<string, unknown> = {}) => ({
  type,
  locationId: 'loc-1',
  id: 'contact-1',
  firstName: 'Webhook',
  lastName: 'Sample',
  email: 'webhook.sample@example.test',
  phone: '(555) 010-4242',
  webhookId: `wh-${++counter}-${Date.now()}`,
  timestamp: new Date().toISOString(),
  ...overrides,
});

describe('GoHighLevel webhooks', () => {
  let server: TestServer;
  let admin: Agent;
  const ghl = keyPair();
  const stranger = keyPair();
  const post = (payload: Record<string, unknown>, signature?: string, key = ghl.privateKey) =>
    server.request<{ status?: string; error?: string }>(
      'POST',
      '/api/webhooks/ghl',
      delivery(key, payload, signature),
    );
  const patient = () => server.db('patients').where({ ghl_id: 'contact-1' }).first();
  const deliveries = () => server.db('webhook_deliveries').orderBy('id');

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('answers 404 until the public key is configured, and logs the refusal', async () => {
    const res = await post(contactEvent('ContactCreate'));
    expect(res.status).toBe(404);
    expect((await deliveries()).at(-1)).toMatchObject({ status: 'rejected', signature: 'not_configured' });
    const saved = await admin.request('PATCH', '/api/admin/settings', {
      body: { ghlWebhookPublicKey: ghl.pem },
    });
    expect(saved.status).toBe(200);
    const bad = await admin.request<{ fields: Record<string, string> }>('PATCH', '/api/admin/settings', {
      body: { ghlWebhookPublicKey: 'not a key' },
    });
    expect(Object.keys(bad.body.fields)).toEqual(['ghlWebhookPublicKey']);
  });

  it('applies a signed contact create once; a duplicate is dropped', async () => {
    const event = contactEvent('ContactCreate');
    const first = await post(event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'processed' });
    expect(await patient()).toMatchObject({
      name: 'Webhook Sample',
      lead_source: 'GHL',
      phone: '(555) 010-4242',
    });
    const again = await post(event);
    expect(again.body).toEqual({ status: 'duplicate' });
    // Sent twice at once: still one patient, one processed delivery.
    const twin = contactEvent('ContactCreate', { id: 'contact-twin', email: 'twin@example.test' });
    const answers = await Promise.all([post(twin), post(twin), post(twin)]);
    expect(answers.map((a) => a.body.status).sort()).toEqual(['duplicate', 'duplicate', 'processed']);
    expect(await server.db('patients').where({ ghl_id: 'contact-twin' })).toHaveLength(1);
    const logged = (await deliveries()).filter((d) => d.webhook_id === event.webhookId);
    expect(logged.map((d) => d.status)).toEqual(['processed', 'duplicate']);
    expect(logged[0]).toMatchObject({ signature: 'valid', event: 'ContactCreate', direction: 'inbound' });
    const audited = await server
      .db('audit_events')
      .where({ action: 'webhook.receive', outcome: 'success' })
      .first();
    expect(audited).toMatchObject({ entity_type: 'patient', actor_user_id: null });
  });

  it('refuses a bad or missing signature and a replayed old delivery, changing nothing', async () => {
    const before = await patient();
    const forged = await post(
      contactEvent('ContactUpdate', { phone: '(555) 999-0000' }),
      undefined,
      stranger.privateKey,
    );
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: 'Invalid signature', requestId: expect.any(String) });
    const unsigned = await post(contactEvent('ContactUpdate', { phone: '(555) 999-0000' }), '');
    expect(unsigned.status).toBe(401);
    const old = await post(
      contactEvent('ContactUpdate', {
        phone: '(555) 999-0000',
        timestamp: new Date(Date.now() - 10 * 60_000).toISOString(),
      }),
    );
    expect(old.status).toBe(401);
    const tampered = delivery(ghl.privateKey, contactEvent('ContactUpdate'));
    const res = await server.request('POST', '/api/webhooks/ghl', {
      rawBody: tampered.rawBody.replace('010-4242', '999-0000'),
      headers: tampered.headers,
    });
    expect(res.status).toBe(401);
    expect(await patient()).toEqual(before);
    expect((await deliveries()).slice(-4).map((d) => [d.status, d.signature, d.reason])).toEqual([
      ['rejected', 'invalid', 'signature_invalid'],
      ['rejected', 'missing', 'signature_missing'],
      ['rejected', 'valid', 'outside_replay_window'],
      ['rejected', 'invalid', 'signature_invalid'],
    ]);
  });

  it('applies updates and deletes idempotently; an admin replays a delivery', async () => {
    const update = contactEvent('ContactUpdate', { phone: '(555) 010-5555' });
    expect((await post(update)).body).toEqual({ status: 'processed' });
    expect((await patient()).phone).toBe('(555) 010-5555');
    // Changed here meanwhile; replaying the delivery applies it again.
    const { id: patientId } = await patient();
    await server.db('patients').where({ id: patientId }).update({ phone: '(555) 000-0000' });
    const row = (await deliveries()).find((d) => d.webhook_id === update.webhookId);
    const replayed = await admin.request<WebhookDeliveryView>('POST', `/api/webhook-logs/${row.id}/replay`);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({ attempts: 2, status: 'processed', replayedAt: expect.any(String) });
    expect((await server.db('patients').where({ id: patientId }).first()).phone).toBe('(555) 010-5555');
    expect(await server.db('audit_events').where({ action: 'webhook_log.replay' })).toHaveLength(1);
    const rejected = (await deliveries()).find((d) => d.status === 'rejected');
    expect((await admin.request('POST', `/api/webhook-logs/${rejected.id}/replay`)).status).toBe(400);

    expect((await post(contactEvent('ContactDelete'))).body).toEqual({ status: 'processed' });
    expect(await patient()).toBeUndefined();
    expect(await server.db('patients').where({ id: patientId }).first()).toMatchObject({ ghl_id: null });
    expect((await post(contactEvent('ContactDelete'))).body).toEqual({ status: 'ignored' });
    expect((await post(contactEvent('OpportunityCreate'))).body).toEqual({ status: 'ignored' });
  });

  it('lists deliveries newest first, for the roles that may read them', async () => {
    const list = await admin.request<{ items: WebhookDeliveryView[]; nextBefore: number | null }>(
      'GET',
      '/api/webhook-logs?pageSize=3',
    );
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(3);
    expect(list.body.nextBefore).toEqual(expect.any(Number));
    const ids = list.body.items.map((d) => d.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(list.body.items[0]).toMatchObject({
      masked: false,
      payload: expect.objectContaining({ type: expect.any(String) }),
    });
    const next = await admin.request<{ items: WebhookDeliveryView[] }>(
      'GET',
      `/api/webhook-logs?pageSize=3&before=${list.body.nextBefore}`,
    );
    expect(next.body.items[0]?.id).toBeLessThan(ids.at(-1) as number);
    const physician = await server.loginAs('physician');
    expect((await physician.request('GET', '/api/webhook-logs')).status).toBe(403);
    const scheduler = await server.loginAs('scheduler');
    expect((await scheduler.request('GET', '/api/webhook-logs')).status).toBe(200);
    expect((await scheduler.request('POST', `/api/webhook-logs/${ids[0]}/replay`)).status).toBe(403);
  });
});
