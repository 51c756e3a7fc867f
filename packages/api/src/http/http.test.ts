import Router from '@koa/router';
import { defineAbilityFor, messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertPatient } from '../test/operations-fixtures.js';
import { getTestServer, type TestServer } from '../test/server.js';
import { can } from './can.js';
import { type AppContextExtension, type AppState, dbOf } from './context.js';
import { conflict } from './errors.js';
import { inTransaction } from './transaction.js';
import { validate } from './validate.js';

// The cross-cutting middleware, exercised through routes mounted on the real app for this test.
function testRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/test/sessions', can('read', 'Session'), (ctx) => {
    ctx.body = { ok: true };
  });
  router.get(
    '/api/test/nothing-allowed',
    async (ctx, next) => {
      if (ctx.state.user) ctx.state.ability = defineAbilityFor(null);
      await next();
    },
    can('read', 'Session'),
    (ctx) => {
      ctx.body = { ok: true };
    },
  );
  router.post<{ input: { key: string; fail: boolean } }>(
    '/api/test/transaction',
    validate(z.object({ key: z.string().min(1), fail: z.boolean() })),
    inTransaction,
    async (ctx) => {
      const { key, fail } = ctx.state.input;
      await dbOf(ctx)('settings').insert({ key, value: JSON.stringify(true) });
      if (fail) throw conflict('changed my mind');
      ctx.body = { saved: key };
    },
  );
  router.get<{ input: { limit: number } }>(
    '/api/test/query',
    validate(z.object({ limit: z.coerce.number().int().max(50) }), 'query'),
    (ctx) => {
      ctx.body = { limit: ctx.state.input.limit };
    },
  );
  router.post('/api/test/crash', () => {
    throw new TypeError('unexpected state');
  });
  router.post('/api/test/bad-date', async (ctx) => {
    const { name } = (ctx.request.body ?? {}) as { name?: string };
    await ctx.services.db.knex.raw('select ?::date', [name ?? '']);
  });
  return router;
}

describe('HTTP middleware', () => {
  let server: TestServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    server = await getTestServer({ logLines, extend: (app) => app.use(testRoutes().routes()) });
  });
  afterAll(() => server.close());

  it('can(): 401 when signed out, 403 when the ability refuses, through when it allows', async () => {
    expect((await server.request('GET', '/api/test/sessions')).status).toBe(401);
    const agent = await server.loginAs('staff');
    expect((await agent.request('GET', '/api/test/sessions')).status).toBe(200);
    const refused = await agent.request('GET', '/api/test/nothing-allowed');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: messages.common.forbidden, requestId: expect.any(String) });
  });

  it('inTransaction commits a successful handler and rolls back a failing one', async () => {
    const ok = await server.request('POST', '/api/test/transaction', {
      body: { key: 'tx-commit', fail: false },
    });
    expect(ok.status).toBe(200);
    const failed = await server.request('POST', '/api/test/transaction', {
      body: { key: 'tx-rollback', fail: true },
    });
    expect(failed.status).toBe(409);
    expect(failed.body).toEqual({ error: 'changed my mind', requestId: expect.any(String) });
    const keys = await server.db('settings').whereIn('key', ['tx-commit', 'tx-rollback']).pluck('key');
    expect(keys).toEqual(['tx-commit']);
  });

  it('validate() parses the query string too', async () => {
    expect((await server.request('GET', '/api/test/query?limit=10')).body).toEqual({ limit: 10 });
    const bad = await server.request<{ fields: Record<string, string> }>('GET', '/api/test/query?limit=500');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['limit']);
  });

  it('answers an unexpected error with a generic 500 and logs no request data', async () => {
    const res = await server.request('POST', '/api/test/crash', { body: { name: 'Jordan Sampleton' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: messages.common.unexpectedError, requestId: expect.any(String) });
    const logged = logLines.join('\n');
    expect(logged).toContain('"kind":"TypeError"');
    expect(logged).not.toContain('Jordan');
  });

  it('turns a value the database cannot read into a 400 without logging the value', async () => {
    const res = await server.request('POST', '/api/test/bad-date', { body: { name: 'Quinn Mockley 1970' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: messages.common.invalidRequest, requestId: expect.any(String) });
    const logged = logLines.join('\n');
    expect(logged).toContain('"code":"22007"');
    expect(logged).not.toContain('Quinn');
  });

  it('keeps a well-formed X-Request-Id, echoes it, and names it in the error body and log lines', async () => {
    const requestId = 'lb-7f3c2a9e-4b1d-4c55-9a2e-0d6c1f8b2e11';
    const res = await server.request('POST', '/api/test/crash', { headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    expect(res.body).toEqual({ error: messages.common.unexpectedError, requestId });
    const lines = logLines.map((l) => JSON.parse(l)).filter((l) => l.requestId === requestId);
    expect(lines.map((l) => l.msg)).toEqual(['request failed', 'request']);
  });

  it('gives a request without a usable id a new one', async () => {
    const forged = await server.request('GET', '/api/health', {
      headers: { 'x-request-id': 'a b <script>"quoted"' },
    });
    const made = forged.headers.get('x-request-id') ?? '';
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    const other = await server.request('GET', '/api/health');
    expect(other.headers.get('x-request-id')).not.toBe(made);
  });

  it('logs each statement and cache answer at debug level, by request id, without values', async () => {
    await insertPatient(server.db, { name: 'Morgan Debuglevel' });
    const staff = await server.loginAs('staff');
    const first = await staff.request('GET', '/api/patients');
    const requestId = first.headers.get('x-request-id');
    const lines = logLines.map((l) => JSON.parse(l)).filter((l) => l.requestId === requestId);
    const queries = lines.filter((l) => l.msg === 'query');
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.sql).toMatch(/^(select|insert|update|delete|with|begin|commit|savepoint|release|set)/i);
      expect(typeof query.ms).toBe('number');
    }
    await staff.request('GET', '/api/dashboard/daily-availability');
    const again = await staff.request('GET', '/api/dashboard/daily-availability');
    const cacheLine = logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.requestId === again.headers.get('x-request-id') && l.msg === 'cache');
    expect(cacheLine).toMatchObject({ cache: 'availability', hit: true });
    expect(logLines.join('\n')).not.toContain('Debuglevel');
  });

  it('logs method, route pattern, status and duration, never the query string', async () => {
    await server.request('GET', '/api/health?patient=Riley%20Placeholder');
    const line = logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'request' && l.route === '/api/health');
    expect(line).toMatchObject({ method: 'GET', route: '/api/health', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(logLines.join('\n')).not.toContain('Riley');
  });
});

describe('compressed answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
    for (let i = 0; i < 30; i++) await insertPatient(server.db, { name: `Compressed Patient ${i}` });
  });
  afterAll(() => server.close());

  it('compresses answers of 1 KB and more as the client accepts, and leaves small ones', async () => {
    const staff = await server.loginAs('staff');
    const plain = await staff.request<unknown[]>('GET', '/api/patients', {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.text.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const compressed = await staff.request<unknown[]>('GET', '/api/patients', {
        headers: { 'accept-encoding': encoding },
      });
      expect(compressed.headers.get('content-encoding')).toBe(encoding);
      expect(compressed.body).toEqual(plain.body);
    }
    const small = await staff.request('GET', '/api/auth/me', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('compresses large answers too (off the event loop), with the same content', async () => {
    for (let i = 0; i < 400; i++)
      await insertPatient(server.db, {
        name: `Bulk Patient ${i}`,
        email: `bulk-${i}-${'x'.repeat(40)}@example.test`,
      });
    const staff = await server.loginAs('staff');
    const plain = await staff.request<unknown[]>('GET', '/api/patients', {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.text.length).toBeGreaterThan(64 * 1024);
    for (const encoding of ['br', 'gzip']) {
      const compressed = await staff.request<unknown[]>('GET', '/api/patients', {
        headers: { 'accept-encoding': encoding },
      });
      expect(compressed.headers.get('content-encoding')).toBe(encoding);
      expect(compressed.headers.get('content-type')).toMatch(/^application\/json/);
      expect(compressed.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(compressed.body).toEqual(plain.body);
    }
  });
});
