import { authMessages, messages, REGISTRATION_RATE_LIMIT } from '@wellrest/core';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestServer, type TestServer } from '../../test/server.js';

interface ApproveBody {
  setPasswordUrl: string;
  expiresAt: string;
  user: { id: number; username: string; role: string; mustChangePassword: boolean };
  registration: { status: string; userId: number };
}

const request = (n: number) => ({
  name: `Applicant ${n}`,
  username: `applicant.${n}`,
  email: `applicant.${n}@example.org`,
  requestedRole: 'scheduler',
  reason: 'New front-desk hire',
});

describe('requesting access', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('stores a request, refuses a duplicate, and validates field by field', async () => {
    const created = await server.request<{ id: number; status: string }>('POST', '/api/registrations', {
      body: request(1),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', message: authMessages.registrationReceived });

    const sameName = await server.request('POST', '/api/registrations', {
      body: { ...request(2), username: 'APPLICANT.1' },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({
      error: authMessages.registrationDuplicate,
      requestId: expect.any(String),
    });
    const sameEmail = await server.request('POST', '/api/registrations', {
      body: { ...request(3), email: 'Applicant.1@Example.org' },
    });
    expect(sameEmail.status).toBe(409);

    const bad = await server.request<{ fields: Record<string, string> }>('POST', '/api/registrations', {
      body: { name: '', username: 'x', email: 'nope', requestedRole: 'admin' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['email', 'name', 'requestedRole', 'username']);
    expect(await server.db('registrations')).toHaveLength(1);
  });

  it('is approved into an account whose owner sets a password once through the link, then signs in', async () => {
    const created = await server.request<{ id: number }>('POST', '/api/registrations', { body: request(10) });
    const admin = await server.loginAs('admin');

    const listed = await admin.request<Array<{ id: number; status: string }>>(
      'GET',
      '/api/admin/registrations?status=pending',
    );
    expect(listed.status).toBe(200);
    expect(listed.body.map((r) => r.id)).toContain(created.body.id);

    const approved = await admin.request<ApproveBody>(
      'POST',
      `/api/admin/registrations/${created.body.id}/approve`,
      {
        body: { role: 'staff' },
      },
    );
    expect(approved.status).toBe(200);
    expect(approved.body.user).toMatchObject({
      username: 'applicant.10',
      role: 'staff',
      mustChangePassword: true,
    });
    expect(approved.body.registration.status).toBe('approved');
    expect(approved.body.setPasswordUrl).toMatch(/^\/set-password\?token=[\w-]{20,}$/);
    const token = new URL(approved.body.setPasswordUrl, server.url).searchParams.get('token') as string;
    expect(JSON.stringify(await server.db('password_tokens'))).not.toContain(token);

    // Not decided twice.
    const twice = await admin.request('POST', `/api/admin/registrations/${created.body.id}/approve`, {
      body: { role: 'staff' },
    });
    expect(twice.status).toBe(409);

    // No password works before it is set.
    const early = await server.request('POST', '/api/auth/login', {
      body: { username: 'applicant.10', password: 'anything at all here' },
    });
    expect(early.status).toBe(401);

    const weak = await server.request<{ fields: Record<string, string> }>('POST', '/api/auth/set-password', {
      body: { token, password: 'applicant.10' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.fields).toEqual({ password: authMessages.passwordIsUsername });

    const set = await server.request('POST', '/api/auth/set-password', {
      body: { token, password: 'my own good passphrase' },
    });
    expect(set.status).toBe(200);
    const reuse = await server.request<{ fields: Record<string, string> }>('POST', '/api/auth/set-password', {
      body: { token, password: 'another good passphrase' },
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.fields).toEqual({ token: authMessages.setPasswordLinkInvalid });

    const login = await server.request<{ success: boolean; user: { role: string } }>(
      'POST',
      '/api/auth/login',
      {
        body: { username: 'applicant.10@example.org', password: 'my own good passphrase' },
      },
    );
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe('staff');

    const actions = (await server.db('audit_events').orderBy('id')).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'registration.create',
        'registration.approve',
        'user.create',
        'auth.password_set',
      ]),
    );
  });

  it('refuses an expired link', async () => {
    const created = await server.request<{ id: number }>('POST', '/api/registrations', { body: request(11) });
    const admin = await server.loginAs('admin');
    const approved = await admin.request<ApproveBody>(
      'POST',
      `/api/admin/registrations/${created.body.id}/approve`,
      {
        body: { role: 'technician' },
      },
    );
    const token = new URL(approved.body.setPasswordUrl, server.url).searchParams.get('token') as string;
    await server
      .db('password_tokens')
      .where({ user_id: approved.body.user.id })
      .update({ expires_at: server.db.raw("now() - interval '1 minute'") });
    const res = await server.request('POST', '/api/auth/set-password', {
      body: { token, password: 'my own good passphrase' },
    });
    expect(res.status).toBe(400);
  });

  it('is rejected, with an optional reason', async () => {
    const created = await server.request<{ id: number }>('POST', '/api/registrations', { body: request(12) });
    const admin = await server.loginAs('admin');
    const rejected = await admin.request<{ registration: { status: string; decisionReason: string } }>(
      'POST',
      `/api/admin/registrations/${created.body.id}/reject`,
      { body: { reason: 'Not on staff' } },
    );
    expect(rejected.status).toBe(200);
    expect(rejected.body.registration).toMatchObject({ status: 'rejected', decisionReason: 'Not on staff' });
    expect(await server.db('users').where({ username: 'applicant.12' })).toHaveLength(0);
    // A rejected request no longer blocks a new one.
    expect((await server.request('POST', '/api/registrations', { body: request(12) })).status).toBe(201);
    expect((await admin.request('POST', '/api/admin/registrations/999999/reject', { body: {} })).status).toBe(
      404,
    );
  });
});

describe('request-access rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it(`accepts ${REGISTRATION_RATE_LIMIT} requests an hour from one address, then answers 429`, async () => {
    for (let n = 0; n < REGISTRATION_RATE_LIMIT; n++) {
      expect((await server.request('POST', '/api/registrations', { body: request(100 + n) })).status).toBe(
        201,
      );
    }
    const limited = await server.request('POST', '/api/registrations', { body: request(200) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: messages.login.rateLimited, requestId: expect.any(String) });
    expect(await server.db('registrations')).toHaveLength(REGISTRATION_RATE_LIMIT);
  });

  it('counts them from an index that holds access requests alone, not every audited event', async () => {
    const counted: { sql: string; bindings: readonly unknown[] }[] = [];
    const onQuery = (query: { sql: string; bindings: readonly unknown[] }) => {
      if (/from "audit_events"/.test(query.sql))
        counted.push({ sql: query.sql, bindings: [...query.bindings] });
    };
    server.db.on('query', onQuery);
    try {
      expect((await server.request('POST', '/api/registrations', { body: request(300) })).status).toBe(429);
    } finally {
      server.db.off('query', onQuery);
    }
    expect(counted).toHaveLength(1);
    const [statement] = counted;
    if (!statement) return;
    // Whatever the table's size, the statement can be answered from the partial index.
    const plan = await server.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      // The statement as sent ($1, $2, ... in order), with Knex's placeholders.
      const sent = statement.sql.replace(/\$\d+/g, '?');
      const { rows } = (await trx.raw(`EXPLAIN ${sent}`, statement.bindings as Knex.Value[])) as {
        rows: { 'QUERY PLAN': string }[];
      };
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('audit_events_registration_ip_index');
  });
});
