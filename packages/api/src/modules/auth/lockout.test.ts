import {
  ACCOUNT_LOCK_FAILURE_FACTOR,
  authMessages,
  LOCKOUT_MINUTES,
  LOCKOUT_THRESHOLD,
  messages,
} from '@wellrest/core';
import { type TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from '../../test/from-address.js';
import { getTestServer, type TestServer, type TestUser } from '../../test/server.js';
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

const LOCK_AT = LOCKOUT_THRESHOLD * ACCOUNT_LOCK_FAILURE_FACTOR;
let nextAddress = 10;
/** A loopback address no other test here has used. */
const freshAddress = () => `127.0.1.${nextAddress++}`;

describe('sign-in delays and account locks', () => {
  let server: TestServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    server = await getTestServer({ logLines });
  });
  afterAll(() => server.close());

  const login = (address: string, username: string, password: string, extra: Record<string, unknown> = {}) =>
    requestFrom<LoginBody>(server.url, address, 'POST', '/api/auth/login', {
      body: { username, password, ...extra },
    });
  /** Moves every recorded failure of the account `seconds` into the past. */
  const age = (seconds: number) =>
    server
      .db('login_attempt_failures')
      .update({ occurred_at: server.db.raw('occurred_at - make_interval(secs => ?)', [seconds]) });
  /** Fails `count` times on the account from each address. */
  async function fail(user: { username: string }, addresses: string[], count = LOCKOUT_THRESHOLD) {
    const answers: number[] = [];
    for (const address of addresses) {
      for (let i = 0; i < count; i++)
        answers.push((await login(address, user.username, 'wrong-password-typed')).status);
    }
    return answers;
  }

  it(`delays an address after ${LOCKOUT_THRESHOLD} failures on an account, doubling each time, and never the owner elsewhere`, async () => {
    const user = await server.createUser({ role: 'staff' });
    const attacker = freshAddress();
    expect(await fail(user, [attacker])).toEqual(Array(LOCKOUT_THRESHOLD).fill(401));

    const delayed = await login(attacker, user.username, user.password);
    expect(delayed.status).toBe(429);
    expect(delayed.body).toEqual({
      success: false,
      error: messages.login.rateLimited,
      requestId: expect.any(String),
    });
    expect(delayed.headers.get('retry-after')).toBe('1');
    expect(hasSessionCookie(delayed.headers)).toBe(false);

    // The owner, elsewhere, signs in as usual: no lock anyone else could set.
    const owner = await login(freshAddress(), user.username, user.password);
    expect(owner.status).toBe(200);

    // Each further failure doubles the wait.
    await age(60);
    expect((await login(attacker, user.username, 'wrong-password-typed')).status).toBe(401);
    expect((await login(attacker, user.username, user.password)).headers.get('retry-after')).toBe('2');
    await age(60);
    expect((await login(attacker, user.username, 'wrong-password-typed')).status).toBe(401);
    expect((await login(attacker, user.username, user.password)).headers.get('retry-after')).toBe('4');

    // Once the wait is over, the right password signs in and ends the run.
    await age(60);
    expect((await login(attacker, user.username, user.password)).status).toBe(200);
    expect(
      await server.db('login_attempt_failures').where({ account_key: `user:${user.id}`, ip: attacker }),
    ).toEqual([]);
  });

  it('one address cannot lock an account, however fast it guesses', async () => {
    const user = await server.createUser({ role: 'admin' });
    const attacker = freshAddress();
    const answers = await fail(user, [attacker], 30);
    expect(answers.filter((status) => status === 423)).toEqual([]);
    // The first failures are answered; then, however fast it asks, mostly waits (a slow machine may
    // let a doubled wait pass now and then), never enough failures for a lock.
    expect(answers.slice(0, LOCKOUT_THRESHOLD)).toEqual(Array(LOCKOUT_THRESHOLD).fill(401));
    expect(answers.filter((status) => status === 401).length).toBeLessThan(LOCK_AT);
    expect(answers).toContain(429);
    expect((await server.db('users').where({ id: user.id }).first()).locked_until).toBeNull();
    expect((await login(freshAddress(), user.username, user.password)).status).toBe(200);
  });

  it(`locks after ${LOCK_AT} failures from several addresses, logs it, and an administrator unlocks`, async () => {
    const user = await server.createUser({ role: 'staff' });
    const addresses = Array.from({ length: ACCOUNT_LOCK_FAILURE_FACTOR }, freshAddress);
    const answers = await fail(user, addresses);
    expect(answers.slice(0, -1)).toEqual(Array(LOCK_AT - 1).fill(401));
    expect(answers.at(-1)).toBe(423);

    const whileLocked = await login(freshAddress(), user.username, user.password);
    expect(whileLocked.status).toBe(423);
    expect(whileLocked.body).toEqual({
      success: false,
      error: authMessages.accountLocked(LOCKOUT_MINUTES),
      requestId: expect.any(String),
    });
    expect(hasSessionCookie(whileLocked.headers)).toBe(false);
    const row = await server.db('users').where({ id: user.id }).first();
    expect(new Date(row.locked_until).getTime()).toBeGreaterThan(Date.now() + (LOCKOUT_MINUTES - 1) * 60_000);

    const lockouts = await server
      .db('audit_events')
      .where({ action: 'auth.lockout', entity_id: String(user.id) });
    expect(lockouts).toHaveLength(1);
    const logged = logLines.map((line) => JSON.parse(line)).filter((line) => line.event === 'auth.lockout');
    expect(logged).toEqual([
      expect.objectContaining({ level: 40, userId: user.id, minutes: LOCKOUT_MINUTES }),
    ]);

    const admin = await server.loginAs('admin');
    const listed = await admin.request<Array<{ id: number; lockedUntil: string | null }>>(
      'GET',
      '/api/admin/users',
    );
    expect(listed.body.find((u) => u.id === user.id)?.lockedUntil).toEqual(expect.any(String));
    const staff = await server.loginAs('staff');
    expect((await staff.request('POST', `/api/admin/users/${user.id}/unlock`)).status).toBe(403);
    const unlocked = await admin.request<{ lockedUntil: string | null }>(
      'POST',
      `/api/admin/users/${user.id}/unlock`,
    );
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.lockedUntil).toBeNull();
    expect(
      await server.db('audit_events').where({ action: 'user.unlock', entity_id: String(user.id) }),
    ).toHaveLength(1);
    expect((await login(addresses[0] ?? '', user.username, user.password)).status).toBe(200);
  });

  it('lets the second factor through a lock', async () => {
    const user: TestUser = await server.createUser({ role: 'scheduler' });
    const agent = await server.loginAs(user.username);
    const setup = await agent.request<{ otpauthUrl: string }>('POST', '/api/auth/2fa/setup', {
      body: { password: user.password },
    });
    expect(setup.status).toBe(200);
    const totp = URI.parse(setup.body.otpauthUrl) as TOTP;
    const enabled = await agent.request('POST', '/api/auth/2fa/enable', {
      body: { code: totp.generate(), password: user.password },
    });
    expect(enabled.status).toBe(200);

    const answers = await fail(user, Array.from({ length: ACCOUNT_LOCK_FAILURE_FACTOR }, freshAddress));
    expect(answers.at(-1)).toBe(401);
    expect((await server.db('users').where({ id: user.id }).first()).locked_until).not.toBeNull();

    const address = freshAddress();
    const first = await login(address, user.username, user.password);
    expect(first.status).toBe(200);
    expect(first.body.requiresTwoFactor).toBe(true);
    await server.db('users').where({ id: user.id }).update({ totp_last_step: null });
    const second = await login(address, user.username, user.password, { twoFactorToken: totp.generate() });
    expect(second.status).toBe(200);
    expect(second.body.success).toBe(true);
  });

  it('answers an unknown name exactly as a real one, lock included', async () => {
    const user = await server.createUser({ role: 'staff' });
    const real: Array<[number, unknown]> = [];
    const unknown: Array<[number, unknown]> = [];
    for (let a = 0; a < ACCOUNT_LOCK_FAILURE_FACTOR; a++) {
      const address = freshAddress();
      for (let i = 0; i <= LOCKOUT_THRESHOLD; i++) {
        const r = await login(address, user.username, 'wrong-password-typed');
        const u = await login(address, 'no-such-person', 'wrong-password-typed');
        real.push([r.status, { ...r.body, requestId: 'each' }]);
        unknown.push([u.status, { ...u.body, requestId: 'each' }]);
      }
    }
    expect(unknown).toEqual(real);
    expect(real.map(([status]) => status)).toContain(423);
    // The unknown name is kept only as a keyed hash.
    const failures = await server.db('login_failures').select('name_hash');
    expect(JSON.stringify(failures)).not.toContain('no-such-person');
    const attempts = await server.db('login_attempt_failures').select('account_key');
    expect(JSON.stringify(attempts)).not.toContain('no-such-person');
  });
});

describe('per-account-and-address rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('answers 429 once one address has failed on one account up to the limit; a colleague behind the same address signs in', async () => {
    const admin = await server.loginAs('admin');
    const settings = await admin.request('PATCH', '/api/admin/settings', { body: { loginRateLimit: 3 } });
    expect(settings.status).toBe(200);
    const user = await server.createUser({ role: 'scheduler' });
    const colleague = await server.createUser({ role: 'staff' });
    for (let i = 0; i < 3; i++) {
      const res = await server.request('POST', '/api/auth/login', {
        body: { username: user.username, password: 'wrong-password-typed' },
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

    const other = await server.request('POST', '/api/auth/login', {
      body: { username: colleague.username, password: colleague.password },
    });
    expect(other.status).toBe(200);

    // The window passes (the failures age out of it).
    await server
      .db('login_attempt_failures')
      .update({ occurred_at: server.db.raw("occurred_at - interval '6 minutes'") });
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
