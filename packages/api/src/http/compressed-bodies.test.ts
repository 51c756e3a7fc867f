import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../test/routes.js';
import { getTestServer, type TestServer } from '../test/server.js';
import { HTTP_MESSAGES } from './errors.js';

// Request bodies sent compressed: a damaged one is the client's mistake (400), an encoding the API
// does not read is refused (415); neither is ever a 500, on any JSON route, signed in or not.

describe('compressed request bodies', () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await getTestServer();
    cookie = (await server.loginAs('admin')).cookie;
  });
  afterAll(() => server.close());

  const garbage = Buffer.from('this is not compressed at all \u0000\u0001\u0002', 'utf8');
  const routes: Array<[string, string, boolean]> = [
    ['POST', '/api/auth/login', false],
    ['POST', '/api/public/booking-requests', false],
    ['POST', '/api/public/dropoffs', false],
    ['POST', '/api/patients', true],
    ['PATCH', '/api/admin/settings', true],
  ];

  async function send(method: string, path: string, signedIn: boolean, encoding: string, body: Buffer) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'content-encoding': encoding,
        ...(signedIn ? { cookie } : {}),
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('answers a damaged gzip body with 400 on every route that takes a body, signed in or not', async () => {
    const bodyRoutes = apiRoutes().filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method));
    expect(bodyRoutes.length).toBeGreaterThan(20);
    for (const route of bodyRoutes) {
      const path = route.path.replace(/:[A-Za-z]+/g, '1').replace('{*rest}', 'x');
      for (const signedIn of [false, true]) {
        const res = await send(route.method, path, signedIn, 'gzip', garbage);
        expect(res.status, `${route.key} ${signedIn ? 'signed in' : 'anonymous'}`).toBe(400);
      }
    }
  });

  it('answers a damaged gzip, deflate or br body with 400', async () => {
    for (const [method, path, signedIn] of routes) {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await send(method, path, signedIn, encoding, garbage);
        expect(res.status, `${encoding} ${method} ${path}`).toBe(400);
        expect(res.body).toEqual({ error: HTTP_MESSAGES.malformedBody, requestId: expect.any(String) });
      }
    }
  });

  it('answers an encoding it does not read with 415', async () => {
    for (const [method, path, signedIn] of routes) {
      for (const encoding of ['zstd', 'compress', 'x-nonsense']) {
        const res = await send(method, path, signedIn, encoding, garbage);
        expect(res.status, `${encoding} ${method} ${path}`).toBe(415);
        expect(res.body).toEqual({ error: HTTP_MESSAGES.unsupportedEncoding, requestId: expect.any(String) });
      }
    }
  });

  it('still reads a well-formed gzip body', async () => {
    const res = await send(
      'POST',
      '/api/auth/login',
      false,
      'gzip',
      gzipSync(JSON.stringify({ username: 'nobody-here', password: 'not-the-password' })),
    );
    expect(res.status).toBe(401);
  });
});
