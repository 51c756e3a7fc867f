import { authMessages, LOCKOUT_MINUTES, LOCKOUT_THRESHOLD, messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestServer, type TestServer } from '../../test/server.js';
import { SESSION_COOKIE } from './tokens.js';

interface LoginBody {
  success: boolean;
  error?: string;
  passwordExpired?: boolean;
  requiresTwoFactor?: boolean;
}

const hasSessionCookie = (headers: Headers) =>
  headers
    .getSetCookie()
    .some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`) && !/expires=Thu, 01 Jan 1970/i.test(cookie));

describe('account lockout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
    // Every test here fails from one address: keep the per-address limit out of the way.
    const admin = await server.loginAs('admin');
    await admin.request('PATCH', '/api/admin/settings', { body: { loginRateLimit: 1000 } });
  });
  afterAll(() => server.close());

  const login = (username: string, password: string) =>
    server.request<LoginBody>('POST', '/api/auth/login', { body: { username, password } });

  it(`locks an account after ${LOCKOUT_THRESHOLD} failures in a row, refuses the right password while locked, and unlocks later`, async () => {
    const user = await server.createUser({ role: 'staff' });
    for (let i = 1; i < LOCKOUT_THRESHOLD; i++) {
      const res = await login(user.username, 'wrong-password-typed');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(messages.login.invalidCredentials);
    }
    const fifth = await login(user.username, 'wrong-password-typed');
    expect(fifth.status).toBe(423);
    expect(fifth.body).toEqual({
      success: false,
      error: messages.login.accountLocked,
      requestId: expect.any(String),
    });

    const whileLocked = await login(user.username, user.password);
    expect(whileLocked.status).toBe(423);
    expect(whileLocked.body.error).toBe(messages.login.accountLocked);
    expect(hasSessionCookie(whileLocked.headers)).toBe(false);

    const row = await server.db('users').where({ id: user.id }).first();
    expect(new Date(row.locked_until).getTime()).toBeGreaterThan(Date.now() + (LOCKOUT_MINUTES - 1) * 60_000);
    const lockouts = await server
      .db('audit_events')
      .where({ action: 'auth.lockout', entity_id: String(user.id) });
    expect(lockouts).toHaveLength(1);

    // Time passes.
    await server
      .db('users')
      .where({ id: user.id })
      .update({ locked_until: server.db.raw("now() - interval '1 second'") });
    const after = await login(user.username, user.password);
    expect(after.status).toBe(200);
    expect(after.body.success).toBe(true);
  });

  it('resets the count of failures after a successful sign-in', async () => {
    const user = await server.createUser({ role: 'staff' });
    for (let i = 1; i < LOCKOUT_THRESHOLD; i++) await login(user.username, 'wrong-password-typed');
    expect((await login(user.username, user.password)).status).toBe(200);
    expect((await login(user.username, 'wrong-password-typed')).status).toBe(401);
    expect((await server.db('users').where({ id: user.id }).first()).failed_login_count).toBe(1);
  });

  it('answers an unknown name exactly as a real one, lock included', async () => {
    const user = await server.createUser({ role: 'staff' });
    const real: Array<[number, unknown]> = [];
    const unknown: Array<[number, unknown]> = [];
    for (let i = 0; i <= LOCKOUT_THRESHOLD; i++) {
      const a = await login(user.username, 'wrong-password-typed');
      const b = await login('no-such-person', 'wrong-password-typed');
      real.push([a.status, { ...a.body, requestId: undefined }]);
      unknown.push([b.status, { ...b.body, requestId: undefined }]);
    }
    expect(unknown).toEqual(real);
    expect(real.at(-1)?.[0]).toBe(423);
    // The unknown name is kept only as a keyed hash.
    const failures = await server.db('login_failures').select('name_hash');
    expect(JSON.stringify(failures)).not.toContain('no-such-person');
  });
});

describe('per-address rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('answers 429 once the failed sign-ins from one address reach the limit, even for the right password', async () => {
    const admin = await server.loginAs('admin');
    const settings = await admin.request('PATCH', '/api/admin/settings', { body: { loginRateLimit: 3 } });
    expect(settings.status).toBe(200);
    const user = await server.createUser({ role: 'scheduler' });
    // Different names, so no account lock gets in the way.
    for (let i = 0; i < 3; i++) {
      const res = await server.request('POST', '/api/auth/login', {
        body: { username: `guess-${i}`, password: 'wrong-password-typed' },
      });
      expect(res.status).toBe(401);
    }
    const limited = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      success: false,
      error: messages.login.rateLimited,
      requestId: expect.any(String),
    });
    expect(limited.headers.get('retry-after')).toBe('300');
    expect(hasSessionCookie(limited.headers)).toBe(false);
    const denied = await server.db('audit_events').where({ action: 'auth.login', outcome: 'denied' });
    expect(denied).toHaveLength(1);
    expect(denied[0].details).toEqual({ reason: 'rate_limited' });

    // The window passes (the failures age out of it).
    await server.db.raw('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change');
    await server
      .db('audit_events')
      .update({ occurred_at: server.db.raw("occurred_at - interval '6 minutes'") });
    await server.db.raw('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change');
    const later = await server.request('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(later.status).toBe(200);
  });
});

describe('password expiry and change', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('answers passwordExpired and opens no session once the password is older than the setting', async () => {
    const user = await server.createUser({ role: 'staff' });
    await server
      .db('users')
      .where({ id: user.id })
      .update({ password_changed_at: server.db.raw("now() - interval '91 days'") });
    const res = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, passwordExpired: true });
    expect(hasSessionCookie(res.headers)).toBe(false);
    expect(await server.db('sessions').where({ user_id: user.id })).toHaveLength(0);

    // A longer expiry set by an administrator lets the same password in.
    const admin = await server.loginAs('admin');
    await admin.request('PATCH', '/api/admin/settings', { body: { passwordExpiryDays: 120 } });
    const again = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(again.body.success).toBe(true);
    await admin.request('PATCH', '/api/admin/settings', { body: { passwordExpiryDays: 90 } });
  });

  it('changes the password: the old one stops working and other sessions end', async () => {
    const user = await server.createUser({ role: 'scheduler' });
    const first = await server.loginAs(user.username);
    const second = await server.loginAs(user.username);
    const res = await first.request('POST', '/api/auth/password', {
      body: { currentPassword: user.password, newPassword: 'a brand new passphrase' },
    });
    expect(res.status).toBe(200);
    expect((await first.request('GET', '/api/auth/me')).status).toBe(200);
    expect((await second.request('GET', '/api/auth/me')).status).toBe(401);
    const old = await server.request('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(old.status).toBe(401);
    const fresh = await server.request('POST', '/api/auth/login', {
      body: { username: user.username, password: 'a brand new passphrase' },
    });
    expect(fresh.status).toBe(200);
    const events = await server.db('audit_events').where({ action: 'auth.password_change' });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('passphrase');
  });

  it('explains each policy failure field by field and changes nothing', async () => {
    const user = await server.createUser({ role: 'staff', username: 'policy.person' });
    const agent = await server.loginAs(user.username);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [
        {},
        { currentPassword: authMessages.currentPasswordRequired, newPassword: authMessages.passwordTooShort },
      ],
      [
        { currentPassword: 'not-my-password', newPassword: 'short' },
        { newPassword: messages.login.passwordTooShort },
      ],
      [
        { currentPassword: 'not-my-password', newPassword: 'policy.person' },
        { currentPassword: authMessages.currentPasswordWrong, newPassword: authMessages.passwordIsUsername },
      ],
      [
        { currentPassword: user.password, newPassword: 'Password1234' },
        { newPassword: authMessages.passwordTooCommon },
      ],
      [
        { currentPassword: user.password, newPassword: 'Policy.Person' },
        { newPassword: authMessages.passwordIsUsername },
      ],
      [
        { currentPassword: user.password, newPassword: user.password },
        { newPassword: authMessages.passwordUnchanged },
      ],
    ];
    const before = (await server.db('users').where({ id: user.id }).first()).password_hash;
    for (const [body, fields] of cases) {
      const res = await agent.request<{ error: string; fields: Record<string, string> }>(
        'POST',
        '/api/auth/password',
        {
          body,
        },
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields).toEqual(fields);
    }
    expect((await server.db('users').where({ id: user.id }).first()).password_hash).toBe(before);
  });

  it('needs a session to change a password', async () => {
    const res = await server.request('POST', '/api/auth/password', {
      body: { currentPassword: 'x', newPassword: 'a brand new passphrase' },
    });
    expect(res.status).toBe(401);
  });
});
