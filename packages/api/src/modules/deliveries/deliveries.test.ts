import { messages, messagingMessages } from '@wellrest/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STARTER_TEMPLATES } from '../../db/migrations/0752_starter_templates.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { FAKE_SMS_ACCOUNT, FAKE_SMS_TOKEN, type FakeSms, startFakeSms } from '../../test/sms-fake.js';
import { type FakeSmtp, startFakeSmtp } from '../../test/smtp-fake.js';

// Email and SMS delivery through real local servers: smtp-server for mail (TLS with a certificate
// made for the test), an HTTP server answering as Twilio's Messages API for texts.

interface Delivery {
  id: number;
  status: string;
  attempts: number;
  recipient: string;
  errorCode: string | null;
  providerId: string | null;
  transport: string | null;
  content?: { subject?: string; text?: string; html?: string; body?: string } | null;
}

describe('deliveries', () => {
  let server: TestServer;
  let admin: Agent;
  let smtp: FakeSmtp | undefined;
  let sms: FakeSms | undefined;

  beforeEach(async () => {
    server = await getTestServer({ jobs: { start: true } });
    admin = await server.loginAs('admin');
  });
  afterEach(async () => {
    await server.close();
    await smtp?.close();
    await sms?.close();
    smtp = undefined;
    sms = undefined;
  });

  const templateId = async (key: string) =>
    Number((await server.db('message_templates').where({ key }).first('id')).id);

  async function sendTest(key: string, to: string): Promise<number> {
    const response = await admin.request<{ deliveryId: number }>(
      'POST',
      `/api/templates/${await templateId(key)}/test`,
      {
        body: { to },
      },
    );
    expect(response.status).toBe(202);
    return response.body.deliveryId;
  }

  async function waitFor(id: number, done: (d: Delivery) => boolean, timeoutMs = 30_000): Promise<Delivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = await admin.request<Delivery>('GET', `/api/deliveries/${id}`);
      expect(response.status).toBe(200);
      if (done(response.body) || Date.now() > deadline) return response.body;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function configureSmtp(fake: FakeSmtp, overrides: Record<string, unknown> = {}) {
    const response = await admin.request('PATCH', '/api/messaging/settings', {
      body: {
        smtpHost: fake.host,
        smtpPort: fake.port,
        smtpSecure: false,
        smtpUser: fake.user,
        smtpPassword: fake.password,
        smtpCaPem: fake.cert,
        fromAddress: 'care@wellrest.example',
        ...overrides,
      },
    });
    expect(response.status).toBe(200);
  }

  async function configureSms(fake: FakeSms) {
    const response = await admin.request('PATCH', '/api/messaging/settings', {
      body: {
        smsBaseUrl: fake.baseUrl,
        smsAccountId: FAKE_SMS_ACCOUNT,
        smsToken: FAKE_SMS_TOKEN,
        smsFrom: '+15550001111',
      },
    });
    expect(response.status).toBe(200);
  }

  it('keeps messages of an unconfigured channel in the built-in outbox', async () => {
    const email = await sendTest('overdue-return', 'patient@example.test');
    const text = await sendTest('pickup-reminder', '+1 555 010 2030');
    for (const id of [email, text]) {
      const delivery = await waitFor(id, (d) => d.status !== 'queued' && d.status !== 'sending');
      expect(delivery).toMatchObject({ status: 'outbox', transport: 'outbox' });
      expect(delivery.content?.subject ?? delivery.content?.body).toContain('');
    }
    const log = await admin.request<{ items: Delivery[] }>('GET', '/api/deliveries?status=outbox');
    expect(log.body.items.map((d) => d.id).sort()).toEqual([email, text].sort());
  });

  it('sends mail over SMTP with STARTTLS: envelope, headers, both bodies, the idempotency key', async () => {
    smtp = await startFakeSmtp();
    await configureSmtp(smtp);
    const id = await sendTest('overdue-return', 'jordan@example.test');
    const delivery = await waitFor(id, (d) => d.status === 'sent');
    expect(delivery).toMatchObject({ status: 'sent', transport: 'smtp', attempts: 1 });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.secure).toBe(true);
    expect(mail?.from).toBe('care@wellrest.example');
    expect(mail?.to).toEqual(['jordan@example.test']);
    expect(mail?.parsed.subject).toBe('Your sleep test kit is overdue');
    expect(mail?.parsed.text).toContain('Hi Jordan,');
    expect(mail?.parsed.text).toContain('Somfit kit was due back on 2031-03-05');
    expect(mail?.parsed.html).toContain('<p>Hi Jordan,</p>');
    const key = (await server.db('deliveries').where({ id }).first('idempotency_key')).idempotency_key;
    expect(mail?.parsed.messageId).toBe(`<${key}@wellrest.delivery>`);
    expect(mail?.parsed.headers.get('x-wellrest-delivery')).toBe(key);
    expect(delivery.providerId).toBe(mail?.parsed.messageId);
  });

  it('stores the SMTP password and SMS token sealed and never returns them', async () => {
    smtp = await startFakeSmtp();
    await configureSmtp(smtp);
    await admin.request('PATCH', '/api/messaging/settings', { body: { smsToken: 'secret-token-value' } });
    const stored = JSON.stringify(
      (await server.db('settings').where({ key: 'messaging' }).first('value')).value,
    );
    expect(stored).not.toContain(smtp.password);
    expect(stored).not.toContain('secret-token-value');
    const read = await admin.request<Record<string, unknown>>('GET', '/api/messaging/settings');
    expect(read.body).toMatchObject({ smtpPasswordSet: true, smsTokenSet: true });
    expect(JSON.stringify(read.body)).not.toContain(smtp.password);
    const staff = await server.loginAs('staff');
    expect((await staff.request('GET', '/api/messaging/settings')).status).toBe(403);
  });

  it('sends an email with clinical details only over TLS: refused by a server without STARTTLS', async () => {
    smtp = await startFakeSmtp({ starttls: false });
    await configureSmtp(smtp);
    const phi = await sendTest('referral-received', 'dr.chen@example.test');
    const plain = await sendTest('report-ready', 'dr.chen@example.test');
    expect(await waitFor(phi, (d) => d.status === 'failed')).toMatchObject({
      status: 'failed',
      errorCode: 'smtp_tls_unavailable',
    });
    expect(await waitFor(plain, (d) => d.status === 'sent')).toMatchObject({ status: 'sent' });
    expect(smtp.received.map((m) => m.parsed.subject)).toEqual([
      'Sleep study report ready for Jordan Rivera',
    ]);
  });

  it('retries a temporary SMTP refusal and marks a permanent one bounced', async () => {
    smtp = await startFakeSmtp();
    await configureSmtp(smtp);
    smtp.failNext(451);
    const retried = await sendTest('overdue-return', 'one@example.test');
    expect(await waitFor(retried, (d) => d.status === 'sent')).toMatchObject({ status: 'sent', attempts: 2 });
    smtp.failNext(550);
    const bounced = await sendTest('overdue-return', 'nobody@example.test');
    expect(await waitFor(bounced, (d) => d.status === 'bounced')).toMatchObject({
      status: 'bounced',
      errorCode: 'smtp_550',
      attempts: 1,
    });
    expect(smtp.received.map((m) => m.to)).toEqual([['one@example.test']]);
  });

  it('retries SMS answers 429 and 5xx until accepted, and records the provider id', async () => {
    sms = await startFakeSms();
    await configureSms(sms);
    sms.failNext(429, 503);
    const id = await sendTest('pickup-reminder', '+15550102030');
    const delivery = await waitFor(id, (d) => d.status === 'sent');
    expect(delivery).toMatchObject({ status: 'sent', transport: 'sms', attempts: 3 });
    expect(delivery.providerId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sms.requests.map((r) => r.status)).toEqual([429, 503, 201]);
    expect(sms.sent).toEqual([
      expect.objectContaining({
        to: '+15550102030',
        from: '+15550001111',
        body: expect.stringContaining('Hi Jordan'),
      }),
    ]);
  });

  it('respects SMS STOP: error 21610 records the opt-out and later texts to the number are not sent', async () => {
    sms = await startFakeSms();
    await configureSms(sms);
    sms.unsubscribed.add('+15550109999');
    const first = await sendTest('pickup-reminder', '+15550109999');
    expect(await waitFor(first, (d) => d.status === 'failed')).toMatchObject({ errorCode: 'opted_out' });
    expect(await server.db('sms_opt_outs').pluck('phone')).toEqual(['5550109999']);
    const second = await sendTest('return-reminder', '(555) 010-9999');
    expect(await waitFor(second, (d) => d.status === 'failed')).toMatchObject({
      errorCode: 'opted_out',
      attempts: 1,
    });
    expect(sms.requests).toHaveLength(1);
  });

  it('never loses a message in a provider outage: it stays queued, retries, and goes out once the provider is back', async () => {
    sms = await startFakeSms();
    const downUrl = sms.baseUrl;
    await sms.close();
    await admin.request('PATCH', '/api/messaging/settings', {
      body: {
        smsBaseUrl: downUrl,
        smsAccountId: FAKE_SMS_ACCOUNT,
        smsToken: FAKE_SMS_TOKEN,
        smsFrom: '+15550001111',
      },
    });
    const id = await sendTest('pickup-reminder', '+15550102031');
    const waiting = await waitFor(id, (d) => d.attempts >= 2 && d.status === 'queued');
    expect(waiting).toMatchObject({ status: 'queued', errorCode: 'sms_unreachable' });
    sms = await startFakeSms();
    await configureSms(sms);
    const delivered = await waitFor(id, (d) => d.status === 'sent', 40_000);
    expect(delivered.status).toBe('sent');
    expect(sms.sent).toHaveLength(1);
  }, 60_000);

  it('lists deliveries with masked recipients and filters, shows one audited, and retries a failed one', async () => {
    smtp = await startFakeSmtp();
    await configureSmtp(smtp);
    smtp.failNext(550);
    const failed = await sendTest('overdue-return', 'jordan.rivera@example.test');
    await waitFor(failed, (d) => d.status === 'bounced');
    const scheduler = await server.loginAs('scheduler');
    const inbox = await scheduler.request<{ items: { title: string; link: string }[] }>(
      'GET',
      '/api/notifications',
    );
    expect(inbox.body.items).toEqual([
      expect.objectContaining({
        title: messagingMessages.notifications.deliveryFailed('email'),
        link: '/notifications',
      }),
    ]);
    const list = await scheduler.request<{ items: Delivery[] }>(
      'GET',
      '/api/deliveries?channel=email&status=bounced',
    );
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]?.recipient).toBe('j************@example.test');
    expect(JSON.stringify(list.body)).not.toContain('jordan.rivera');
    expect(
      (await scheduler.request<{ items: unknown[] }>('GET', '/api/deliveries?channel=sms')).body.items,
    ).toEqual([]);

    const view = await scheduler.request<Delivery>('GET', `/api/deliveries/${failed}`);
    expect(view.body.recipient).toBe('jordan.rivera@example.test');
    expect(view.body.content?.subject).toBe('Your sleep test kit is overdue');
    const audited = await server
      .db('audit_events')
      .where({ action: 'delivery.view', entity_id: String(failed), actor_user_id: scheduler.user.id });
    expect(audited).toHaveLength(1);
    expect(audited[0]?.outcome).toBe('success');

    const retry = await scheduler.request('POST', `/api/deliveries/${failed}/retry`);
    expect(retry.status).toBe(200);
    expect(await waitFor(failed, (d) => d.status === 'sent')).toMatchObject({ status: 'sent', attempts: 2 });
    const again = await scheduler.request<{ error: string }>('POST', `/api/deliveries/${failed}/retry`);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(messagingMessages.deliveries.notRetryable);

    const staff = await server.loginAs('staff');
    expect((await staff.request('GET', '/api/deliveries')).status).toBe(403);
    expect((await staff.request('GET', `/api/deliveries/${failed}`)).status).toBe(403);
  });

  it('answers 400 field by field for bad settings, filters and recipients, writing nothing', async () => {
    const bad = await admin.request<{ error: string; fields: Record<string, string> }>(
      'PATCH',
      '/api/messaging/settings',
      {
        body: { smtpPort: 70000, fromAddress: 'not-an-email', smsBaseUrl: 'ftp://x' },
      },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['fromAddress', 'smsBaseUrl', 'smtpPort']);
    expect(await server.db('settings').where({ key: 'messaging' }).first()).toBeUndefined();
    expect((await admin.request('GET', '/api/deliveries?status=lost')).status).toBe(400);
    const id = await templateId('overdue-return');
    const recipient = await admin.request<{ fields: Record<string, string> }>(
      'POST',
      `/api/templates/${id}/test`,
      {
        body: { to: 'not an address' },
      },
    );
    expect(recipient.status).toBe(400);
    expect(recipient.body.fields.to).toBe(messagingMessages.deliveries.invalidRecipient);
    expect(await server.db('deliveries').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(STARTER_TEMPLATES).toHaveLength(8);
    expect(messages.common.invalidRequest).toBeTruthy();
  });
});
