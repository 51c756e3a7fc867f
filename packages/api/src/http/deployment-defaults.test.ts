import { authMessages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSeedOptions, shouldSeedDemo } from '../db/seed/auto.js';
import { seedDemo } from '../db/seed/demo.js';
import { DEMO_PASSWORD } from '../db/seed/plan.js';
import { getTestServer, type TestServer } from '../test/server.js';

// Deployment defaults: no demo data in production unless asked for (and then every demo account
// must choose its own password), an account an administrator creates sets its own password at
// first sign-in, and HSTS and Secure cookies follow one rule.

function sessionCookieHeader(headers: Headers): string | undefined {
  return headers.getSetCookie().find((cookie) => cookie.startsWith('wellrest_session='));
}

describe('demo data and first passwords', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('never seeds a new embedded database in production unless asked, and then forces a password change', async () => {
    const fresh = { engine: 'pglite' as const, knex: server.db };
    const database = fresh as unknown as Parameters<typeof shouldSeedDemo>[1];
    expect(await shouldSeedDemo({ seedDemo: 'auto', nodeEnv: 'development' }, database)).toBe(true);
    expect(await shouldSeedDemo({ seedDemo: 'auto', nodeEnv: 'production' }, database)).toBe(false);
    expect(await shouldSeedDemo({ seedDemo: 'true', nodeEnv: 'production' }, database)).toBe(true);

    // Asked for explicitly on a production server: the published password opens nothing but the
    // form to replace it.
    const options = demoSeedOptions({ practiceTimeZone: 'America/New_York', nodeEnv: 'production' });
    expect(options.forcePasswordChange).toBe(true);
    await seedDemo(server.db, options);
    const login = await server.request<{ success: boolean; user: { mustChangePassword?: boolean } }>(
      'POST',
      '/api/auth/login',
      { body: { username: 'admin', password: DEMO_PASSWORD } },
    );
    expect(login.status).toBe(200);
    expect(login.body.user.mustChangePassword).toBe(true);
    const cookie = sessionCookieHeader(login.headers)?.split(';')[0] ?? '';
    const refused = await server.request('GET', '/api/admin/users', { cookie });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: authMessages.passwordChangeRequired,
      mustChangePassword: true,
      requestId: expect.any(String),
    });
    const changed = await server.request('POST', '/api/auth/password', {
      cookie,
      body: { currentPassword: DEMO_PASSWORD, newPassword: 'Lantern-Harbour-Quiet-77' },
    });
    expect(changed.status).toBe(200);
    expect((await server.request('GET', '/api/admin/users', { cookie })).status).toBe(200);
  });

  it('makes an account an administrator creates choose its own password at first sign-in', async () => {
    const admin = await server.loginAs('admin');
    const created = await admin.request<{ id: number; mustChangePassword: boolean }>(
      'POST',
      '/api/admin/users',
      {
        body: {
          username: 'first-sign-in',
          email: 'first-sign-in@wellrest.test',
          displayName: 'First Sign-in',
          role: 'scheduler',
          password: 'Chosen-By-Admin-2026',
        },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.mustChangePassword).toBe(true);

    const login = await server.request('POST', '/api/auth/login', {
      body: { username: 'first-sign-in', password: 'Chosen-By-Admin-2026' },
    });
    expect(login.status).toBe(200);
    const cookie = sessionCookieHeader(login.headers)?.split(';')[0] ?? '';
    const me = await server.request<{ mustChangePassword: boolean }>('GET', '/api/auth/me', { cookie });
    expect(me.body.mustChangePassword).toBe(true);
    const bookings = await server.request('GET', '/api/bookings', { cookie });
    expect(bookings.status).toBe(403);
    expect(bookings.body.mustChangePassword).toBe(true);

    const changed = await server.request('POST', '/api/auth/password', {
      cookie,
      body: { currentPassword: 'Chosen-By-Admin-2026', newPassword: 'My-Own-Quiet-Harbour-5' },
    });
    expect(changed.status).toBe(200);
    expect(
      (await server.request<{ mustChangePassword: boolean }>('GET', '/api/auth/me', { cookie })).body,
    ).toMatchObject({ mustChangePassword: false });
    expect((await server.request('GET', '/api/bookings', { cookie })).status).toBe(200);
  });
});

describe('HSTS and Secure cookies from one rule', () => {
  async function signInOn(server: TestServer, headers: Record<string, string> = {}) {
    const user = await server.createUser({ role: 'staff' });
    return server.request('POST', '/api/auth/login', {
      headers,
      body: { username: user.username, password: user.password },
    });
  }

  it('an https PUBLIC_URL sends both, without TRUST_PROXY', async () => {
    const server = await getTestServer({ config: { publicUrl: 'https://console.example.org' } });
    try {
      const res = await signInOn(server);
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(sessionCookieHeader(res.headers)).toMatch(/;\s*secure/i);
    } finally {
      await server.close();
    }
  });

  it('plain http with no https PUBLIC_URL sends neither', async () => {
    const server = await getTestServer();
    try {
      const res = await signInOn(server);
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(sessionCookieHeader(res.headers)).not.toMatch(/;\s*secure/i);
    } finally {
      await server.close();
    }
  });

  it('a trusted proxy that says https sends both', async () => {
    const server = await getTestServer({ config: { trustProxy: true, proxyHops: 1 } });
    try {
      const res = await signInOn(server, { 'x-forwarded-proto': 'https' });
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(sessionCookieHeader(res.headers)).toMatch(/;\s*secure/i);
    } finally {
      await server.close();
    }
  });
});
