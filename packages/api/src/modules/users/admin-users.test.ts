import { authMessages, messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

interface AdminUser {
  id: number;
  username: string;
  role: string;
  isActive: boolean;
  mustChangePassword: boolean;
}

describe('user administration', () => {
  let server: TestServer;
  let admin: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('creates a user who can sign in, and lists users without secrets', async () => {
    const created = await admin.request<AdminUser>('POST', '/api/admin/users', {
      body: {
        username: 'new.tech',
        email: 'New.Tech@Example.org',
        displayName: 'New Tech',
        role: 'technician',
        password: 'a strong passphrase',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'new.tech', role: 'technician', isActive: true });
    const login = await server.request('POST', '/api/auth/login', {
      body: { username: 'new.tech@example.org', password: 'a strong passphrase' },
    });
    expect(login.status).toBe(200);

    const listed = await admin.request<AdminUser[]>('GET', '/api/admin/users');
    expect(listed.status).toBe(200);
    expect(listed.body.map((u) => u.username)).toContain('new.tech');
    const text = JSON.stringify(listed.body);
    for (const secret of ['argon2', 'password_hash', 'totp_secret', 'recovery'])
      expect(text).not.toContain(secret);

    const duplicate = await admin.request('POST', '/api/admin/users', {
      body: {
        username: 'NEW.TECH',
        email: 'x@example.org',
        displayName: 'X',
        role: 'staff',
        password: 'a strong passphrase',
      },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ error: authMessages.userExists, requestId: expect.any(String) });
  });

  it('validates a new user field by field and applies the password policy', async () => {
    const bad = await admin.request<{ fields: Record<string, string> }>('POST', '/api/admin/users', {
      body: { username: 'a b', email: 'x', displayName: '', role: 'owner', password: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual([
      'displayName',
      'email',
      'password',
      'role',
      'username',
    ]);
    const sameAsName = await admin.request<{ fields: Record<string, string> }>('POST', '/api/admin/users', {
      body: {
        username: 'longusername1',
        email: 'l@example.org',
        displayName: 'L',
        role: 'staff',
        password: 'LongUsername1',
      },
    });
    expect(sameAsName.status).toBe(400);
    expect(sameAsName.body.fields).toEqual({ password: authMessages.passwordIsUsername });
  });

  it('changes role, name and activity; a role change applies to the next request', async () => {
    const agent = await server.loginAs('staff');
    expect((await agent.request('GET', '/api/admin/users')).status).toBe(403);
    const promoted = await admin.request<AdminUser>('PATCH', `/api/admin/users/${agent.user.id}`, {
      body: { role: 'admin', displayName: 'Promoted' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('admin');
    expect((await agent.request('GET', '/api/admin/users')).status).toBe(200);
    const event = await server
      .db('audit_events')
      .where({ action: 'user.update', entity_id: String(agent.user.id) })
      .first();
    expect(event.details).toMatchObject({ fromRole: 'staff', toRole: 'admin' });

    const bad = await admin.request('PATCH', `/api/admin/users/${agent.user.id}`, {
      body: { isActive: 'no' },
    });
    expect(bad.status).toBe(400);
    expect(
      (await admin.request('PATCH', '/api/admin/users/999999', { body: { isActive: false } })).status,
    ).toBe(404);
  });

  it('does not let an administrator remove their own access', async () => {
    const res = await admin.request('PATCH', `/api/admin/users/${admin.user.id}`, {
      body: { isActive: false },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: authMessages.cannotChangeOwnAccess, requestId: expect.any(String) });
    const demote = await admin.request('PATCH', `/api/admin/users/${admin.user.id}`, {
      body: { role: 'staff' },
    });
    expect(demote.status).toBe(409);
  });

  it('resets a password: the old one and every session stop working; the link sets a new one', async () => {
    const user = await server.createUser({ role: 'scheduler' });
    const agent = await server.loginAs(user.username);
    const reset = await admin.request<{ setPasswordUrl: string }>(
      'POST',
      `/api/admin/users/${user.id}/reset-password`,
    );
    expect(reset.status).toBe(200);
    expect((await agent.request('GET', '/api/auth/me')).status).toBe(401);
    const old = await server.request('POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({
      success: false,
      error: messages.login.invalidCredentials,
      requestId: expect.any(String),
    });

    const token = new URL(reset.body.setPasswordUrl, server.url).searchParams.get('token');
    const set = await server.request('POST', '/api/auth/set-password', {
      body: { token, password: 'the replacement phrase' },
    });
    expect(set.status).toBe(200);
    const fresh = await server.request('POST', '/api/auth/login', {
      body: { username: user.username, password: 'the replacement phrase' },
    });
    expect(fresh.status).toBe(200);
    expect((await server.db('users').where({ id: user.id }).first()).must_change_password).toBe(false);
  });
});
