import { type CurrentUser, messages } from '@wellrest/core';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEventRow } from '../../audit/audit.js';
import { CROSS_SITE_REFUSED } from '../../http/same-origin.js';
import { getTestServer, type TestServer } from '../../test/server.js';
import { SESSION_COOKIE } from './tokens.js';

interface LoginBody {
  success: boolean;
  user?: CurrentUser;
  deviceId?: string;
  error?: string;
}

const sessionCookieOf = (headers: Headers) =>
  headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));

describe('signing in and out', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('signs in by username and sets an httpOnly, SameSite=Lax session cookie', async () => {
    const user = await server.createUser({ role: 'scheduler', username: 'sam' });
    const res = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: 'sam', password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.user).toMatchObject({ id: user.id, username: 'sam', role: 'scheduler' });
    expect(res.body.deviceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(res.body)).not.toContain('argon2');
    const cookie = sessionCookieOf(res.headers);
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(cookie).toMatch(/path=\//i);
    // Plain HTTP in tests: a Secure cookie would never be sent back.
    expect(cookie).not.toMatch(/secure/i);
  });

  it('signs in by email, in any letter case, and keeps a well-formed device id', async () => {
    const user = await server.createUser({ role: 'staff', username: 'Erin', email: 'erin@wellrest.test' });
    const deviceId = '0b7d3a1e-5a55-4c1e-9f3e-2b8f5d1c0a77';
    const byEmail = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: 'ERIN@WellRest.test', password: user.password, deviceId },
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user?.username).toBe('Erin');
    expect(byEmail.body.deviceId).toBe(deviceId);
    const byUsername = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: 'erin', password: user.password, deviceId: 'not-a-uuid' },
    });
    expect(byUsername.status).toBe(200);
    expect(byUsername.body.deviceId).not.toBe('not-a-uuid');
  });

  it('gives a wrong password and an unknown user the same 401 answer', async () => {
    const user = await server.createUser({ role: 'staff' });
    const wrongPassword = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: user.username, password: 'not-the-password' },
    });
    const unknownUser = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: 'nobody-by-this-name', password: 'not-the-password' },
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(wrongPassword.body).toEqual({
      success: false,
      error: messages.login.invalidCredentials,
      requestId: expect.any(String),
    });
    expect({ ...unknownUser.body, requestId: 0 }).toEqual({ ...wrongPassword.body, requestId: 0 });
    expect(sessionCookieOf(wrongPassword.headers)).toBeUndefined();
  });

  it('refuses a deactivated account with the same answer', async () => {
    const user = await server.createUser({ role: 'staff' });
    await server.db('users').where({ id: user.id }).update({ is_active: false });
    const res = await server.request<LoginBody>('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      error: messages.login.invalidCredentials,
      requestId: expect.any(String),
    });
  });

  it('validates the login payload with the catalogue messages', async () => {
    const res = await server.request<{ fields: Record<string, string> }>('POST', '/api/auth/login', {
      body: { username: '', password: '' },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      username: messages.login.usernameRequired,
      password: messages.login.passwordRequired,
    });
  });

  it('answers /api/auth/me with 401 when signed out and the user when signed in', async () => {
    const signedOut = await server.request('GET', '/api/auth/me');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toEqual({
      error: messages.common.authenticationRequired,
      requestId: expect.any(String),
    });

    const agent = await server.loginAs('medical_director');
    const me = await agent.request<CurrentUser & Record<string, unknown>>('GET', '/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: agent.user.id,
      username: agent.user.username,
      role: 'medical_director',
    });
    expect(me.body).not.toHaveProperty('password_hash');
    expect(me.body).not.toHaveProperty('passwordHash');
  });

  it('logs out: the session row is revoked and replaying the old cookie is refused', async () => {
    const agent = await server.loginAs('staff');
    const oldCookie = agent.cookie;
    const out = await agent.request('POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    expect(sessionCookieOf(out.headers)).toMatch(/expires=Thu, 01 Jan 1970/i);

    const replay = await server.request('GET', '/api/auth/me', { cookie: oldCookie });
    expect(replay.status).toBe(401);
    const sessions = await server.db('sessions').where({ user_id: agent.user.id });
    expect(sessions).toHaveLength(1);
    expect(sessions[0].revoked_at).not.toBeNull();
  });

  it('answers logout without a session with 200 too', async () => {
    const res = await server.request('POST', '/api/auth/logout');
    expect(res.status).toBe(200);
  });

  it('ignores tokens that are forged, signed with another secret, or name another user', async () => {
    const agent = await server.loginAs('staff');
    const other = await server.createUser({ role: 'admin' });
    const session = await server.db('sessions').where({ user_id: agent.user.id }).first();
    const forged = [
      'not-a-jwt',
      jwt.sign({ sid: session.id }, 'x'.repeat(40), { subject: String(agent.user.id) }),
      jwt.sign({ sid: session.id }, server.config.secret as string, { subject: String(other.id) }),
      jwt.sign({ sid: session.id }, server.config.secret as string, {
        subject: String(agent.user.id),
        algorithm: 'HS512',
      }),
    ];
    for (const token of forged) {
      const res = await server.request('GET', '/api/auth/me', { cookie: `${SESSION_COOKIE}=${token}` });
      expect(res.status).toBe(401);
    }
    // The genuine cookie still works.
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
  });
});

describe('idle timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer({ config: { sessionIdleMinutes: 2 } });
  });
  afterAll(() => server.close());

  it('slides the idle window on every request', async () => {
    const agent = await server.loginAs('staff');
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({
        last_seen_at: server.db.raw("now() - interval '90 seconds'"),
      });
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    const { recent } = await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .first(server.db.raw("last_seen_at > now() - interval '10 seconds' AS recent"));
    expect(recent).toBe(true);
  });

  it('ends a session idle for longer than the configured minutes, for good', async () => {
    const agent = await server.loginAs('scheduler');
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(200);
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({
        last_seen_at: server.db.raw("now() - interval '3 minutes'"),
      });
    const expired = await server.request('GET', '/api/auth/me', { cookie: agent.cookie });
    expect(expired.status).toBe(401);
    const session = await server.db('sessions').where({ user_id: agent.user.id }).first();
    expect(session.revoked_at).not.toBeNull();
    // Being used again does not revive it.
    await server.db('sessions').where({ id: session.id }).update({ last_seen_at: server.db.fn.now() });
    expect((await server.request('GET', '/api/auth/me', { cookie: agent.cookie })).status).toBe(401);
    const events = await server
      .db<AuditEventRow>('audit_events')
      .where({ action: 'auth.session_idle_timeout' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_user_id: agent.user.id, entity_id: session.id });
  });

  it('ends a session past its absolute expiry', async () => {
    const agent = await server.loginAs('staff');
    await server
      .db('sessions')
      .where({ user_id: agent.user.id })
      .update({
        created_at: server.db.raw("now() - interval '13 hours'"),
        expires_at: server.db.raw("now() - interval '1 minute'"),
      });
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(401);
  });
});

describe('cross-site request refusal', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer({ config: { publicUrl: 'https://console.wellrest.example' } });
  });
  afterAll(() => server.close());

  let attempt = 0;
  // A different made-up name each time, so the run of failures never locks one name.
  const login = (headers: Record<string, string>) =>
    server.request('POST', '/api/auth/login', {
      body: { username: `nobody-${++attempt}`, password: 'x' },
      headers,
    });

  it('refuses unsafe API calls from another origin with 403', async () => {
    const refused: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://other.wellrest.example' },
    ];
    for (const headers of refused) {
      const res = await login(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toEqual({ error: CROSS_SITE_REFUSED, requestId: expect.any(String) });
    }
  });

  it('lets through same-origin calls, the public URL, and clients that send neither header', async () => {
    const allowed: Array<Record<string, string>> = [
      { origin: server.url },
      { origin: 'https://console.wellrest.example' },
      { 'sec-fetch-site': 'same-origin', origin: server.url },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of allowed) {
      const res = await login(headers);
      // Reaches the login handler, which refuses the made-up credentials.
      expect(res.status, JSON.stringify(headers)).toBe(401);
    }
  });

  it('does not restrict safe methods', async () => {
    const res = await server.request('GET', '/api/health', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
  });
});

describe('audit trail of sign-ins', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('records success, failure and logout without secrets', async () => {
    const user = await server.createUser({ role: 'staff' });
    await server.request('POST', '/api/auth/login', {
      body: { username: user.username, password: 'wrong-password-typed' },
      headers: { 'user-agent': 'vitest-agent' },
    });
    await server.request('POST', '/api/auth/login', {
      body: { username: 'ghost', password: 'whatever-secret' },
    });
    const agent = await server.loginAs(user.username);
    await agent.request('POST', '/api/auth/logout');

    const events = await server.db<AuditEventRow>('audit_events').orderBy('id');
    expect(events.map((e) => [e.action, e.outcome])).toEqual([
      ['auth.login', 'failure'],
      ['auth.login', 'failure'],
      ['auth.login', 'success'],
      ['auth.logout', 'success'],
    ]);
    const [wrongPassword, unknownUser, success, logout] = events as [
      AuditEventRow,
      AuditEventRow,
      AuditEventRow,
      AuditEventRow,
    ];
    expect(wrongPassword).toMatchObject({
      actor_user_id: user.id,
      actor_username: user.username,
      user_agent: 'vitest-agent',
      details: { reason: 'wrong_password' },
    });
    expect(wrongPassword.ip).toBeTruthy();
    // Whatever was typed for an unknown account is not kept: it may be a mistyped password.
    expect(unknownUser).toMatchObject({
      actor_user_id: null,
      actor_username: null,
      details: { reason: 'unknown_user' },
    });
    expect(success).toMatchObject({ actor_user_id: user.id, entity_type: 'session' });
    expect(logout).toMatchObject({ actor_user_id: user.id, entity_id: success.entity_id });
    const everything = JSON.stringify(events);
    for (const secret of ['wrong-password-typed', 'whatever-secret', 'ghost', user.password]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('cannot be changed or deleted', async () => {
    await server.request('POST', '/api/auth/login', { body: { username: 'ghost', password: 'x' } });
    await expect(server.db('audit_events').update({ outcome: 'success' })).rejects.toThrow(/append-only/);
    await expect(server.db('audit_events').delete()).rejects.toThrow(/append-only/);
    await expect(server.db.raw('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    expect(Number((await server.db('audit_events').count({ n: '*' }).first())?.n)).toBeGreaterThan(0);
  });
});
