import { randomUUID } from 'node:crypto';
import { authMessages, messages, RECOVERY_CODE_COUNT, TRUSTED_DEVICE_DAYS } from '@wellrest/core';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as recoveryMigration from '../../db/migrations/0601_recovery_code_hashes.js';
import { type Agent, getTestServer, type TestServer, type TestUser } from '../../test/server.js';
import { DEVICE_COOKIE, SESSION_COOKIE } from './tokens.js';
import { legacyRecoveryHash, newTotpSecret, sealPlainTotpSecrets, totpKey } from './two-factor.js';

interface LoginBody {
  success: boolean;
  requiresTwoFactor?: boolean;
  deviceId?: string;
  error?: string;
}

function cookieNamed(headers: Headers, name: string): string | undefined {
  const header = headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return header?.split(';')[0];
}

describe('two-factor authentication', () => {
  let server: TestServer;
  let user: TestUser;
  let agent: Agent;
  let totp: TOTP;
  let recoveryCodes: string[];

  /** A current code, as if the previous one had been used a while ago. */
  async function freshCode(): Promise<string> {
    await server.db('users').where({ id: user.id }).update({ totp_last_step: null });
    return totp.generate();
  }

  const login = (body: Record<string, unknown>, cookie?: string) =>
    server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password, ...body },
      ...(cookie ? { cookie } : {}),
    });

  beforeAll(async () => {
    server = await getTestServer();
    user = await server.createUser({ role: 'scheduler' });
    agent = await server.loginAs(user.username);
  });
  afterAll(() => server.close());

  it('enrols with a QR code and an otpauth URL, then turns on with a valid code and hands out recovery codes', async () => {
    const setup = await agent.request<{ otpauthUrl: string; qrDataUrl: string }>(
      'POST',
      '/api/auth/2fa/setup',
    );
    expect(setup.status).toBe(200);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Wellrest:/);
    expect(setup.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    totp = URI.parse(setup.body.otpauthUrl) as TOTP;
    expect(totp.digits).toBe(6);
    expect(totp.period).toBe(30);

    // The secret is sealed at rest: the row holds no trace of it.
    const pending = await server.db('users').where({ id: user.id }).first();
    expect(pending.totp_secret).toMatch(/^v1\./);
    expect(pending.totp_secret).not.toContain(totp.secret.base32);

    const wrong = await agent.request<{ fields: Record<string, string> }>('POST', '/api/auth/2fa/enable', {
      body: { code: '000000' === totp.generate() ? '111111' : '000000', password: user.password },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ code: messages.login.invalidCode });

    // A session alone cannot turn it on: the password is asked again.
    const noPassword = await agent.request<{ fields: Record<string, string> }>(
      'POST',
      '/api/auth/2fa/enable',
      {
        body: { code: totp.generate() },
      },
    );
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.fields).toEqual({ password: messages.login.passwordRequired });
    const badPassword = await agent.request<{ fields: Record<string, string> }>(
      'POST',
      '/api/auth/2fa/enable',
      {
        body: { code: totp.generate(), password: 'not-my-password' },
      },
    );
    expect(badPassword.status).toBe(400);
    expect(badPassword.body.fields).toEqual({ password: authMessages.currentPasswordWrong });
    expect((await server.db('users').where({ id: user.id }).first()).totp_enabled).toBe(false);

    const enabled = await agent.request<{ recoveryCodes: string[] }>('POST', '/api/auth/2fa/enable', {
      body: { code: totp.generate(), password: user.password },
    });
    expect(enabled.status).toBe(200);
    recoveryCodes = enabled.body.recoveryCodes;
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    // 16 characters of a 32-letter alphabet: 80 bits each.
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    const row = await server.db('users').where({ id: user.id }).first();
    expect(row.totp_enabled).toBe(true);
    // Only salted Argon2id hashes are kept, like passwords.
    expect(row.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const hash of row.recovery_codes as string[]) expect(hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row.recovery_codes)).not.toContain(recoveryCodes[0]?.replaceAll('-', ''));
    expect((await agent.request('GET', '/api/auth/me')).body).toMatchObject({ twoFactorEnabled: true });

    const again = await agent.request('POST', '/api/auth/2fa/setup');
    expect(again.status).toBe(409);
  });

  it('asks for the code (200, no session) until a valid one is sent', async () => {
    const first = await login({});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: false, requiresTwoFactor: true });
    expect(cookieNamed(first.headers, SESSION_COOKIE)).toBeUndefined();

    const wrong = await login({ twoFactorToken: '12345x' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      success: false,
      requiresTwoFactor: true,
      error: messages.login.invalidCode,
    });

    const ok = await login({ twoFactorToken: await freshCode() });
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);
    expect(cookieNamed(ok.headers, SESSION_COOKIE)).toBeDefined();
    expect(cookieNamed(ok.headers, DEVICE_COOKIE)).toBeUndefined();
  });

  it('refuses a code that was already used', async () => {
    const code = await freshCode();
    expect((await login({ twoFactorToken: code })).status).toBe(200);
    const replay = await login({ twoFactorToken: code });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe(messages.login.invalidCode);
  });

  it('accepts each recovery code once, in any letter case, with or without its dashes', async () => {
    const [code] = recoveryCodes as [string];
    const used = await login({ twoFactorToken: code.toLowerCase().replaceAll('-', '') });
    expect(used.status).toBe(200);
    expect(used.body.success).toBe(true);
    const reused = await login({ twoFactorToken: code });
    expect(reused.status).toBe(401);
    const row = await server.db('users').where({ id: user.id }).first();
    expect(row.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT - 1);
    expect(await server.db('audit_events').where({ action: 'auth.recovery_code_use' })).toHaveLength(1);
  });

  it('skips the code on a trusted device, until the trust expires or is revoked', async () => {
    const deviceId = randomUUID();
    const trusted = await login({ twoFactorToken: await freshCode(), trustDevice: true, deviceId });
    expect(trusted.status).toBe(200);
    expect(trusted.body.deviceId).toBe(deviceId);
    const deviceCookie = cookieNamed(trusted.headers, DEVICE_COOKIE);
    expect(deviceCookie).toBeDefined();
    const header = trusted.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`)) ?? '';
    expect(header).toMatch(/httponly/i);
    expect(header).toMatch(/samesite=lax/i);
    const expires = new Date(/expires=([^;]+)/i.exec(header)?.[1] ?? '').getTime();
    expect(Math.abs(expires - (Date.now() + TRUSTED_DEVICE_DAYS * 86_400_000))).toBeLessThan(120_000);
    const [device] = await server.db('trusted_devices').where({ user_id: user.id });
    expect(device.token_hash).not.toBe(deviceCookie?.split('=')[1]);

    const skip = await login({ deviceId }, deviceCookie);
    expect(skip.status).toBe(200);
    expect(skip.body.success).toBe(true);
    // The httpOnly cookie is the proof. A browser whose local storage was emptied (logout) sends a new
    // device id with the cookie: it is still trusted, and the server hands back the trusted device id.
    const afterLogout = await login({ deviceId: randomUUID() }, deviceCookie);
    expect(afterLogout.body.success).toBe(true);
    expect(afterLogout.body.deviceId).toBe(deviceId);
    // The device id alone proves nothing.
    expect((await login({ deviceId })).body.requiresTwoFactor).toBe(true);

    await server
      .db('trusted_devices')
      .where({ id: device.id })
      .update({ expires_at: server.db.raw("now() - interval '1 minute'") });
    expect((await login({ deviceId }, deviceCookie)).body.requiresTwoFactor).toBe(true);
    await server
      .db('trusted_devices')
      .where({ id: device.id })
      .update({ expires_at: server.db.raw("now() + interval '1 day'") });
    expect((await login({ deviceId }, deviceCookie)).body.success).toBe(true);

    const listed = await agent.request<Array<{ id: string; deviceId: string }>>(
      'GET',
      '/api/auth/trusted-devices',
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: device.id, deviceId })]);
    expect((await agent.request('DELETE', `/api/auth/trusted-devices/${device.id}`)).status).toBe(200);
    expect((await agent.request('DELETE', `/api/auth/trusted-devices/${device.id}`)).status).toBe(404);
    expect((await login({ deviceId }, deviceCookie)).body.requiresTwoFactor).toBe(true);
  });

  it("cannot revoke another user's trusted device", async () => {
    const other = await server.loginAs('staff');
    const [device] = await server.db('trusted_devices').where({ user_id: user.id });
    expect((await other.request('DELETE', `/api/auth/trusted-devices/${device.id}`)).status).toBe(404);
  });

  it('turns off with the password and a code, and then signs in with the password alone', async () => {
    const badPassword = await agent.request<{ fields: Record<string, string> }>(
      'POST',
      '/api/auth/2fa/disable',
      {
        body: { password: 'not-my-password', code: await freshCode() },
      },
    );
    expect(badPassword.status).toBe(400);
    expect(Object.keys(badPassword.body.fields)).toEqual(['password']);
    const badCode = await agent.request('POST', '/api/auth/2fa/disable', {
      body: { password: user.password, code: '99999x' },
    });
    expect(badCode.status).toBe(400);
    const off = await agent.request('POST', '/api/auth/2fa/disable', {
      body: { password: user.password, code: await freshCode() },
    });
    expect(off.status).toBe(200);
    const plain = await login({});
    expect(plain.body.success).toBe(true);
    const actions = (
      await server.db('audit_events').where('action', 'like', 'auth.two_factor%').orderBy('id')
    ).map((e) => e.action);
    expect(actions).toEqual(['auth.two_factor_setup', 'auth.two_factor_enable', 'auth.two_factor_disable']);
  });
});

describe('two-factor data from before secrets were sealed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('seals a TOTP secret stored in clear, and keeps old recovery codes working once, hashed like passwords', async () => {
    const user = await server.createUser({ role: 'staff' });
    const secret = newTotpSecret();
    const oldCode = 'K7PQ2M';
    await server
      .db('users')
      .where({ id: user.id })
      .update({
        totp_enabled: true,
        totp_secret: secret,
        recovery_codes: JSON.stringify([
          legacyRecoveryHash(user.id, oldCode),
          legacyRecoveryHash(user.id, 'ZZZZZZ'),
        ]),
      });

    await recoveryMigration.up(server.db);
    expect(await sealPlainTotpSecrets(server.db, totpKey(server.config.secret ?? ''))).toBe(1);
    const row = await server.db('users').where({ id: user.id }).first();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(secret);
    expect(row.recovery_codes).toHaveLength(2);
    for (const hash of row.recovery_codes as string[]) expect(hash).toMatch(/^legacy:\$argon2id\$/);
    expect(JSON.stringify(row.recovery_codes)).not.toContain(legacyRecoveryHash(user.id, oldCode));

    const login = (twoFactorToken: string) =>
      server.request<LoginBody>('POST', '/api/auth/login', {
        body: { username: user.username, password: user.password, twoFactorToken },
      });
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    expect((await login(totp.generate())).body.success).toBe(true);
    expect((await login(oldCode.toLowerCase())).body.success).toBe(true);
    expect((await login(oldCode)).status).toBe(401);
    expect((await server.db('users').where({ id: user.id }).first()).recovery_codes).toHaveLength(1);
  });
});
