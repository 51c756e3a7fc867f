import { publicFormsMessages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestServer, type TestServer } from '../../test/server.js';

// What a partner page can read when the API refuses it or cannot serve it: the refusal carries
// CORS for the requesting origin (so the widget shows "not set up for this website" rather than
// an outage) and names no key or origin; diagnostics answer 503 while the database is down.

const PARTNER = 'https://partner.example';
const OTHER_PARTNER = 'https://other-partner.example';
const STRANGER = 'https://stranger.example';

describe('refusals a partner page can read', () => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let revokedKey: string;

  beforeAll(async () => {
    server = await getTestServer();
    const admin = await server.loginAs('admin');
    const create = async (name: string, allowedOrigins: string[]) => {
      const res = await admin.request<{ id: number; key: string }>('POST', '/api/admin/embed-keys', {
        body: { name, allowedOrigins },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    key = (await create('Partner', [PARTNER])).key;
    otherKey = (await create('Other partner', [OTHER_PARTNER])).key;
    const revoked = await create('Old partner', [STRANGER]);
    revokedKey = revoked.key;
    expect((await admin.request('DELETE', `/api/admin/embed-keys/${revoked.id}`)).status).toBe(200);
  });
  afterAll(() => server.close());

  const cases = (): [string, Record<string, string>][] => [
    ['an origin the key does not list', { origin: STRANGER, 'x-wellrest-embed-key': key }],
    ['an unknown key', { origin: PARTNER, 'x-wellrest-embed-key': 'wr_pk_not-a-key' }],
    ['no key', { origin: PARTNER }],
    ['a revoked key', { origin: STRANGER, 'x-wellrest-embed-key': revokedKey }],
  ];

  it('answers each refusal with 403, CORS for the requesting origin only, and a body naming nothing', async () => {
    for (const [label, headers] of cases()) {
      for (const path of ['/api/public/diagnostics', '/api/public/availability?kitType=Somfit']) {
        const res = await server.request('GET', path, { headers });
        expect(res.status, `${label} ${path}`).toBe(403);
        expect(res.headers.get('access-control-allow-origin'), label).toBe(headers.origin);
        expect(res.headers.get('access-control-allow-credentials'), label).toBeNull();
        expect(res.headers.get('vary'), label).toMatch(/origin/i);
        expect(res.body, label).toEqual({
          error: publicFormsMessages.embedKeyRefused,
          requestId: expect.any(String),
        });
        for (const secret of [key, otherKey, revokedKey, PARTNER, OTHER_PARTNER]) {
          expect(res.text, label).not.toContain(secret);
        }
      }
    }
  });

  it('never echoes a header value that is not an origin', async () => {
    const res = await server.request('GET', '/api/public/diagnostics', {
      headers: { origin: 'javascript:alert(1)', 'x-wellrest-embed-key': key },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers an allowed page and records when its key was last used', async () => {
    const res = await server.request('GET', '/api/public/diagnostics', {
      headers: { origin: PARTNER, 'x-wellrest-embed-key': key },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(PARTNER);
    const row = await server.db('embed_keys').where({ key }).first();
    expect(row.last_used_at).toBeInstanceOf(Date);
    const other = await server.db('embed_keys').where({ key: otherKey }).first();
    expect(other.last_used_at).toBeNull();
  });
});

describe('diagnostics while the database is unreachable', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await getTestServer();
    const admin = await server.loginAs('admin');
    const res = await admin.request<{ key: string }>('POST', '/api/admin/embed-keys', {
      body: { name: 'Partner', allowedOrigins: [PARTNER] },
    });
    key = res.body.key;
    const ready = await server.request('GET', '/api/public/diagnostics');
    expect(ready.status).toBe(200);
    expect(ready.body.database).toBe('ready');
    // The server's own connection pool closed: every query now fails as with a database that is gone.
    await server.db.destroy();
  });
  afterAll(() => server.close().catch(() => {}));

  it('answers 503 on the Wellrest origin, naming the database', async () => {
    const res = await server.request('GET', '/api/public/diagnostics');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      api: 'ok',
      version: expect.any(String),
      serverTime: expect.any(String),
      database: 'unavailable',
    });
  });

  it('answers a partner page 503 it can read (never a refusal), and preflights still pass', async () => {
    const preflight = await server.request('OPTIONS', '/api/public/diagnostics', {
      headers: {
        origin: PARTNER,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-wellrest-embed-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PARTNER);
    const res = await server.request('GET', '/api/public/diagnostics', {
      headers: { origin: PARTNER, 'x-wellrest-embed-key': key },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(res.body).toEqual({ error: publicFormsMessages.unavailable, requestId: expect.any(String) });
  });
});
