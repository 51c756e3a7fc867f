import { messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { getTestServer, type TestServer } from '../../test/server.js';
import { createAdmin, DuplicateUserError } from './create-admin.js';

describe('creating an administrator', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('creates an admin with an argon2id hash who can sign in', async () => {
    const admin = await createAdmin(server.db, {
      username: 'Director.Ops',
      email: 'Ops@Example.org',
      password: 'a-long-enough-password',
    });
    expect(admin).toMatchObject({ username: 'Director.Ops', email: 'ops@example.org', role: 'admin' });
    expect(admin.password_hash).toMatch(/^\$argon2id\$/);
    const login = await server.request('POST', '/api/auth/login', {
      body: { username: 'director.ops', password: 'a-long-enough-password' },
    });
    expect(login.status).toBe(200);
    const event = await server.db('audit_events').where({ action: 'user.create' }).first();
    expect(event).toMatchObject({ entity_id: String(admin.id), actor_username: 'cli', outcome: 'success' });
  });

  it('refuses a duplicate username or email, in any letter case', async () => {
    await createAdmin(server.db, {
      username: 'chief',
      email: 'chief@example.org',
      password: 'a-long-enough-password',
    });
    await expect(
      createAdmin(server.db, {
        username: 'CHIEF',
        email: 'other@example.org',
        password: 'a-long-enough-password',
      }),
    ).rejects.toThrow(DuplicateUserError);
    await expect(
      createAdmin(server.db, {
        username: 'other',
        email: 'Chief@Example.org',
        password: 'a-long-enough-password',
      }),
    ).rejects.toThrow(DuplicateUserError);
  });

  it('validates username, email and password length', async () => {
    const error = await createAdmin(server.db, {
      username: 'no spaces',
      email: 'not-an-email',
      password: 'short',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ZodError);
    if (!(error instanceof ZodError)) return;
    const byField = Object.fromEntries(error.issues.map((i) => [i.path.join('.'), i.message]));
    expect(Object.keys(byField).sort()).toEqual(['email', 'password', 'username']);
    expect(byField.password).toBe(messages.login.passwordTooShort);
    expect(await server.db('users').where({ username: 'no spaces' }).first()).toBeUndefined();
  });
});
