import { messages } from '@wellrest/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { FAKE_SMS_ACCOUNT, FAKE_SMS_TOKEN, type FakeSms, startFakeSms } from '../../test/sms-fake.js';
import { SMS_STATUS_PATH, twilioSignature } from './status-callback.js';

// Delivery receipts: the SMS API posts a text's later statuses to the callback URL sent with
// it, signed with the account's auth token; a delivered or undelivered receipt moves the
// delivery log on, and anything unsigned or forged is refused and changes nothing.

const PUBLIC_URL = 'https://sleep.example.test';
const CALLBACK = `${PUBLIC_URL}${SMS_STATUS_PATH}`;

describe('twilioSignature', () => {
  it("matches the example of Twilio's request-validation documentation", () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    );
  });
});

describe('SMS delivery receipts', () => {
  let server: TestServer;
  let admin: Agent;
  let sms: FakeSms;

  beforeEach(async () => {
    server = await getTestServer({ config: { publicUrl: PUBLIC_URL }, jobs: { start: true } });
    admin = await server.loginAs('admin');
    sms = await startFakeSms();
    sms.receiptsVia = server.url;
    const configured = await admin.request('PATCH', '/api/messaging/settings', {
      body: {
        smsBaseUrl: sms.baseUrl,
        smsAccountId: FAKE_SMS_ACCOUNT,
        smsToken: FAKE_SMS_TOKEN,
        smsFrom: '+15550001111',
      },
    });
    expect(configured.status).toBe(200);
  });
  afterEach(async () => {
    await sms.close();
    await server.close();
  });

  async function sendText(to: string): Promise<number> {
    const template = await server.db('message_templates').where({ key: 'pickup-reminder' }).first('id');
    const response = await admin.request<{ deliveryId: number }>(
      'POST',
      `/api/templates/${template.id}/test`,
      {
        body: { to },
      },
    );
    expect(response.status).toBe(202);
    return response.body.deliveryId;
  }

  async function statusOf(id: number, until: (status: string) => boolean): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await admin.request<{ status: string }>('GET', `/api/deliveries/${id}`);
      if (until(response.body.status) || Date.now() > deadline) return response.body;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const post = (params: Record<string, string>, signature?: string) =>
    fetch(`${server.url}${SMS_STATUS_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature === undefined ? {} : { 'x-twilio-signature': signature }),
      },
      body: new URLSearchParams(params),
    });

  it('asks for receipts at the public address and records a delivered text', async () => {
    const id = await sendText('+15550102030');
    const delivered = await statusOf(id, (s) => s === 'delivered');
    expect(delivered).toMatchObject({ status: 'delivered', errorCode: null });
    expect(sms.receipts).toEqual([
      { params: expect.objectContaining({ MessageStatus: 'delivered' }), answered: 204 },
    ]);
  });

  it('records an undelivered text as failed with the carrier error code', async () => {
    sms.receipt = { status: 'undelivered', errorCode: '30003' };
    const id = await sendText('+15550102031');
    expect(await statusOf(id, (s) => s === 'failed')).toMatchObject({
      status: 'failed',
      errorCode: 'sms_30003',
    });
  });

  it('refuses unsigned and forged receipts and changes nothing', async () => {
    sms.receipt = null;
    const id = await sendText('+15550102032');
    const sent = await statusOf(id, (s) => s === 'sent');
    expect(sent.status).toBe('sent');
    const params = {
      AccountSid: FAKE_SMS_ACCOUNT,
      MessageSid: String(sent.providerId),
      MessageStatus: 'delivered',
    };
    const unsigned = await post(params);
    expect(unsigned.status).toBe(403);
    const forged = await post(params, twilioSignature('not-the-token', CALLBACK, params));
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: messages.common.forbidden });
    const otherUrl = await post(
      params,
      twilioSignature(FAKE_SMS_TOKEN, `${server.url}${SMS_STATUS_PATH}`, params),
    );
    expect(otherUrl.status).toBe(403);
    expect((await admin.request('GET', `/api/deliveries/${id}`)).body.status).toBe('sent');

    const genuine = await post(params, twilioSignature(FAKE_SMS_TOKEN, CALLBACK, params));
    expect(genuine.status).toBe(204);
    expect((await admin.request('GET', `/api/deliveries/${id}`)).body.status).toBe('delivered');
    // A late receipt never reopens a recorded outcome.
    const late = { ...params, MessageStatus: 'failed' };
    expect((await post(late, twilioSignature(FAKE_SMS_TOKEN, CALLBACK, late))).status).toBe(204);
    expect((await admin.request('GET', `/api/deliveries/${id}`)).body.status).toBe('delivered');
  });

  it('answers 400 field by field for a malformed receipt', async () => {
    const params = { MessageSid: 'not a sid!', MessageStatus: '' };
    const response = await post(params, twilioSignature(FAKE_SMS_TOKEN, CALLBACK, params));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fields: Record<string, string> };
    expect(Object.keys(body.fields).sort()).toEqual(['MessageSid', 'MessageStatus']);
  });
});

describe('SMS delivery receipts without a public address', () => {
  it('are not asked for, and the callback answers 404', async () => {
    const server = await getTestServer();
    try {
      const response = await fetch(`${server.url}${SMS_STATUS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ MessageSid: 'SM0', MessageStatus: 'delivered' }),
      });
      expect(response.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
