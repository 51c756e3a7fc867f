import { DEFAULT_GHL_BASE_URL, LOCKOUT_THRESHOLD, SESSION_IDLE_MINUTES_DEFAULT } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSecretKey } from '../../security/secrets.js';
import { FAKE_GHL_LOCATION, FAKE_GHL_TOKEN, startFakeGhl } from '../../test/ghl-fake.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { defaultSettings, SettingsStore } from './store.js';

describe('settings', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('reads every setting with its default, never the secrets', async () => {
    const res = await admin.request<Record<string, unknown>>('GET', '/api/admin/settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sessionIdleMinutes: SESSION_IDLE_MINUTES_DEFAULT,
      passwordExpiryDays: 90,
      lockoutThreshold: LOCKOUT_THRESHOLD,
      lockoutMinutes: 15,
      loginRateLimit: 20,
      privacyPolicyVersion: '1.0',
      practiceTimeZone: 'America/New_York',
      ghlBaseUrl: DEFAULT_GHL_BASE_URL,
      ghlTokenSet: false,
    });
    expect(res.body).not.toHaveProperty('ghlToken');
    expect(JSON.stringify(res.body)).not.toContain(server.config.secret as string);
  });

  it('writes validated values, keeps the token write-only, and records which keys changed', async () => {
    const res = await admin.request<Record<string, unknown>>('PATCH', '/api/admin/settings', {
      body: {
        lockoutThreshold: 7,
        practiceTimeZone: 'America/Chicago',
        ghlToken: 'pit-very-secret-token',
        ghlLocationId: 'loc-1',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      lockoutThreshold: 7,
      practiceTimeZone: 'America/Chicago',
      ghlTokenSet: true,
      ghlLocationId: 'loc-1',
    });
    expect(JSON.stringify(res.body)).not.toContain('pit-very-secret-token');
    const read = await admin.request<Record<string, unknown>>('GET', '/api/admin/settings');
    expect(read.body.lockoutThreshold).toBe(7);
    const [event] = await server.db('audit_events').where({ action: 'setting.update' });
    expect(event.details.keys.split(',').sort()).toEqual([
      'ghlLocationId',
      'ghlToken',
      'lockoutThreshold',
      'practiceTimeZone',
    ]);
    expect(JSON.stringify(event)).not.toContain('pit-very-secret-token');
  });

  it('keeps the token encrypted at rest, and seals one stored in the clear at start-up', async () => {
    await admin.request('PATCH', '/api/admin/settings', { body: { ghlToken: 'pit-sealed-token' } });
    const stored = await server.db('settings').where({ key: 'ghlToken' }).first('value');
    expect(stored.value).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain('pit-sealed-token');
    const store = new SettingsStore(
      server.db,
      defaultSettings(server.config),
      deriveSecretKey(server.config.secret as string, 'settings-at-rest'),
    );
    expect(await store.get('ghlToken')).toBe('pit-sealed-token');
    // Another server secret cannot open it: the token reads as not set rather than as garbage.
    const stranger = new SettingsStore(
      server.db,
      defaultSettings(server.config),
      deriveSecretKey('another-secret-entirely', 'settings-at-rest'),
    );
    expect(await stranger.get('ghlToken')).toBe('');

    await server
      .db('settings')
      .where({ key: 'ghlToken' })
      .update({ value: JSON.stringify('pit-legacy-plain') });
    await store.sealStoredSecrets();
    const resealed = await server.db('settings').where({ key: 'ghlToken' }).first('value');
    expect(resealed.value).toMatch(/^v1\./);
    expect(await store.get('ghlToken')).toBe('pit-legacy-plain');
  });

  it('keeps the practice details, validated', async () => {
    const ok = await admin.request<Record<string, unknown>>('PATCH', '/api/admin/settings', {
      body: {
        practiceName: 'Quiet Nights Sleep Clinic',
        practicePhone: '(555) 010-2000',
        practiceAddress: '1 Main St',
      },
    });
    expect(ok.body).toMatchObject({
      practiceName: 'Quiet Nights Sleep Clinic',
      practicePhone: '(555) 010-2000',
    });
    const bad = await admin.request<{ fields: Record<string, string> }>('PATCH', '/api/admin/settings', {
      body: { practiceName: '  ', practicePhone: 'call me' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({
      practiceName: 'Practice name is required',
      practicePhone: 'Enter a phone number',
    });
  });

  it('refuses bad values field by field and writes none of them', async () => {
    const res = await admin.request<{ fields: Record<string, string> }>('PATCH', '/api/admin/settings', {
      body: {
        sessionIdleMinutes: 0,
        practiceTimeZone: 'Mars/Olympus',
        privacyOfficerEmail: 'no',
        lockoutMinutes: 30,
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields).sort()).toEqual([
      'practiceTimeZone',
      'privacyOfficerEmail',
      'sessionIdleMinutes',
    ]);
    const read = await admin.request<Record<string, unknown>>('GET', '/api/admin/settings');
    expect(read.body.lockoutMinutes).toBe(15);
    expect(
      (await admin.request('PATCH', '/api/admin/settings', { body: { sessionSecret: 'x' } })).status,
    ).toBe(400);
    expect((await admin.request('PATCH', '/api/admin/settings', { rawBody: '[1,2]' })).status).toBe(400);
  });

  it('is for administrators only', async () => {
    const director = await server.loginAs('medical_director');
    expect((await director.request('GET', '/api/admin/settings')).status).toBe(403);
    expect(
      (await director.request('PATCH', '/api/admin/settings', { body: { lockoutMinutes: 1 } })).status,
    ).toBe(403);
    expect((await server.request('GET', '/api/admin/settings')).status).toBe(401);
  });

  it('tests the GoHighLevel connection with the saved settings', async () => {
    const fresh = await getTestServer();
    const ghl = await startFakeGhl();
    try {
      const freshAdmin = await fresh.loginAs('admin');
      const test = () =>
        freshAdmin.request<{ ok: boolean; reason: string | null }>('POST', '/api/admin/settings/ghl-test');
      expect((await test()).body).toEqual({ ok: false, reason: 'not_configured' });
      await freshAdmin.request('PATCH', '/api/admin/settings', {
        body: { ghlToken: 'wrong-token', ghlLocationId: FAKE_GHL_LOCATION, ghlBaseUrl: ghl.baseUrl },
      });
      expect((await test()).body).toEqual({ ok: false, reason: 'unauthorized' });
      await freshAdmin.request('PATCH', '/api/admin/settings', { body: { ghlToken: FAKE_GHL_TOKEN } });
      expect((await test()).body).toEqual({ ok: true, reason: null });
      expect(await fresh.db('audit_events').where({ action: 'setting.test_connection' })).toHaveLength(3);
      const scheduler = await fresh.loginAs('scheduler');
      expect((await scheduler.request('POST', '/api/admin/settings/ghl-test')).status).toBe(403);
    } finally {
      await ghl.close();
      await fresh.close();
    }
  });
});
