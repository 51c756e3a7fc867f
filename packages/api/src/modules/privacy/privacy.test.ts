import {
  authMessages,
  DEFAULT_PRIVACY_OFFICER_EMAIL,
  DEFAULT_PRIVACY_POLICY_VERSION,
  PRIVACY_METHOD,
  PRIVACY_POLICY_HASH_PLACEHOLDER,
  PRIVACY_POLICY_URL,
  privacyNoticeHash,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestServer, type TestServer } from '../../test/server.js';

const ack = (policyVersion: string, policyHash = PRIVACY_POLICY_HASH_PLACEHOLDER) => ({
  policyVersion,
  method: PRIVACY_METHOD,
  policyUrl: PRIVACY_POLICY_URL,
  policyHash,
});

describe('privacy acknowledgment', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('needs acknowledging, records it with where it came from, then no longer does', async () => {
    const agent = await server.loginAs('physician');
    const before = await agent.request('GET', '/api/privacy-acknowledgment/check');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      hasAcknowledged: false,
      currentVersion: DEFAULT_PRIVACY_POLICY_VERSION,
      acknowledgedVersion: null,
      needsAcknowledgment: true,
      contact: { email: DEFAULT_PRIVACY_OFFICER_EMAIL, phone: expect.stringContaining('555') },
    });

    const recorded = await agent.request('POST', '/api/privacy-acknowledgment', {
      body: ack(DEFAULT_PRIVACY_POLICY_VERSION),
      headers: { 'user-agent': 'privacy-test-browser' },
    });
    expect(recorded.status).toBe(201);
    const [row] = await server.db('privacy_acknowledgments').where({ user_id: agent.user.id });
    expect(row).toMatchObject({
      policy_version: DEFAULT_PRIVACY_POLICY_VERSION,
      policy_hash: PRIVACY_POLICY_HASH_PLACEHOLDER,
      method: 'manual',
      policy_url: '/privacy-policy',
      user_agent: 'privacy-test-browser',
    });
    expect(row.ip).toBeTruthy();
    expect(row.acknowledged_at).toBeInstanceOf(Date);

    const after = await agent.request('GET', '/api/privacy-acknowledgment/check');
    expect(after.body).toMatchObject({
      hasAcknowledged: true,
      acknowledgedVersion: DEFAULT_PRIVACY_POLICY_VERSION,
      needsAcknowledgment: false,
    });
    const events = await server.db('audit_events').where({ action: 'privacy.acknowledge' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_user_id: agent.user.id, entity_id: String(row.id) });
  });

  it('refuses a version that is not the current one (400) and records nothing', async () => {
    const agent = await server.loginAs('staff');
    const res = await agent.request<{ fields: Record<string, string> }>(
      'POST',
      '/api/privacy-acknowledgment',
      {
        body: ack('0.9'),
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ policyVersion: authMessages.policyVersionNotCurrent });
    const malformed = await agent.request('POST', '/api/privacy-acknowledgment', {
      body: { ...ack(DEFAULT_PRIVACY_POLICY_VERSION), method: 'automatic' },
    });
    expect(malformed.status).toBe(400);
    expect(await server.db('privacy_acknowledgments').where({ user_id: agent.user.id })).toHaveLength(0);
  });

  it('asks again when an administrator publishes a new version, with the new contact', async () => {
    const agent = await server.loginAs('scheduler');
    await agent.request('POST', '/api/privacy-acknowledgment', { body: ack(DEFAULT_PRIVACY_POLICY_VERSION) });
    const admin = await server.loginAs('admin');
    const patched = await admin.request('PATCH', '/api/admin/settings', {
      body: {
        privacyPolicyVersion: '2.0',
        privacyOfficerEmail: 'Officer@Clinic.example',
        privacyOfficerPhone: '555-0199',
      },
    });
    expect(patched.status).toBe(200);
    const check = await agent.request('GET', '/api/privacy-acknowledgment/check');
    expect(check.body).toEqual({
      hasAcknowledged: false,
      currentVersion: '2.0',
      acknowledgedVersion: DEFAULT_PRIVACY_POLICY_VERSION,
      needsAcknowledgment: true,
      contact: { email: 'officer@clinic.example', phone: '555-0199' },
    });
    const settings = { version: '2.0', email: 'officer@clinic.example', phone: '555-0199' };
    const ok = await agent.request('POST', '/api/privacy-acknowledgment', {
      body: ack('2.0', privacyNoticeHash(settings)),
    });
    expect(ok.status).toBe(201);

    const page = await server.request<{
      title: string;
      version: string;
      policyHash: string;
      sections: unknown[];
    }>('GET', '/api/public/privacy-policy');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ version: '2.0', policyHash: privacyNoticeHash(settings) });
    expect(page.body.sections).toHaveLength(5);
    expect(JSON.stringify(page.body)).toContain('officer@clinic.example');
  });

  it('needs a session to check or acknowledge', async () => {
    expect((await server.request('GET', '/api/privacy-acknowledgment/check')).status).toBe(401);
    expect(
      (
        await server.request('POST', '/api/privacy-acknowledgment', {
          body: ack(DEFAULT_PRIVACY_POLICY_VERSION),
        })
      ).status,
    ).toBe(401);
  });
});
