import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_MESSAGES } from '../../http/errors.js';
import { getTestServer, type TestServer } from '../../test/server.js';
import { version } from '../../version.js';

describe('system routes and HTTP plumbing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer();
  });
  afterAll(() => server.close());

  it('reports liveness with the package version', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version });
  });

  it('reports readiness and the database engine after querying it', async () => {
    const res = await server.request('GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: server.engine });
  });

  it('answers an unknown API path with a JSON 404, never the console page', async () => {
    for (const [method, url] of [
      ['GET', '/api/does-not-exist'],
      ['GET', '/api'],
      ['POST', '/api/nothing/here'],
      ['GET', '/api/patients/12/unknown'],
    ] as const) {
      const res = await server.request(method, url, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body).toEqual({ error: messages.common.notFound, requestId: expect.any(String) });
    }
  });

  it('answers a known path with the wrong method with a JSON 405', async () => {
    const res = await server.request('DELETE', '/api/health');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: HTTP_MESSAGES.methodNotAllowed, requestId: expect.any(String) });
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await server.request('POST', '/api/auth/login', { rawBody: '{"username": "admin", ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: HTTP_MESSAGES.malformedBody, requestId: expect.any(String) });
  });

  it('refuses a JSON body that is not an object or array with 400', async () => {
    const res = await server.request('POST', '/api/auth/login', { rawBody: '"just a string"' });
    expect(res.status).toBe(400);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await server.request('POST', '/api/auth/login', {
      body: { username: 'x', password: 'y'.repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: HTTP_MESSAGES.bodyTooLarge, requestId: expect.any(String) });
  });

  it('reports invalid input field by field', async () => {
    const res = await server.request<{ error: string; fields: Record<string, string> }>(
      'POST',
      '/api/auth/login',
      {
        body: [1, 2],
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(messages.common.invalidRequest);
    expect(Object.keys(res.body.fields).length).toBeGreaterThan(0);
  });

  it('sets security headers and no-store caching on API answers, errors included', async () => {
    for (const url of ['/api/health', '/api/unknown']) {
      const res = await server.request('GET', url);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('permissions-policy')).toContain('geolocation=()');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // Plain HTTP here: no HSTS.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('says the console is not built when its dist folder is missing', async () => {
    const res = await server.request('GET', '/patients');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('not built');
  });
});

describe('serving the built console and widgets', () => {
  let server: TestServer;
  let staticDir: string;
  beforeAll(async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'wellrest-static-'));
    staticDir = path.join(root, 'console');
    const widgetsDir = path.join(root, 'widgets');
    mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
    mkdirSync(widgetsDir, { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><div id="root">console</div>');
    writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), 'console.log("app")');
    writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("install", () => {})');
    writeFileSync(path.join(widgetsDir, 'wellrest-widgets.js'), 'export const widgets = true;');
    server = await getTestServer({ config: { staticDir, widgetsDir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(path.dirname(staticDir), { recursive: true, force: true });
  });

  it('serves index.html for client-side routes', async () => {
    for (const url of ['/', '/patients', '/workflow-builder/12', '/admin/users']) {
      const res = await server.request('GET', url);
      expect(res.status, url).toBe(200);
      expect(res.text).toContain('id="root"');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves built files, with long caching for hashed assets', async () => {
    const asset = await server.request('GET', '/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toContain('console.log');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const worker = await server.request('GET', '/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing file instead of the console page', async () => {
    const res = await server.request('GET', '/assets/missing.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('id="root"');
  });

  it('never falls back to the console page under /api', async () => {
    const res = await server.request('GET', '/api/patients-page');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: messages.common.notFound, requestId: expect.any(String) });
  });

  it('does not serve files outside the dist folder', async () => {
    const res = await server.request('GET', '/..%2f..%2fetc%2fpasswd');
    expect(res.text).not.toContain('root:');
  });

  it('serves widget bundles to other sites', async () => {
    const res = await server.request('GET', '/widgets/wellrest-widgets.js');
    expect(res.status).toBe(200);
    expect(res.text).toContain('widgets = true');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await server.request('GET', '/widgets/missing.js')).status).toBe(404);
  });
});

describe('readiness without a database', () => {
  it('answers 503 when the database does not respond', async () => {
    const server = await getTestServer();
    try {
      await server.db.destroy();
      const res = await server.request('GET', '/api/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', database: server.engine });
    } finally {
      await server.close();
    }
  });
});

describe('framing the full-page widgets with an embed key (issue 6)', () => {
  let server: TestServer;
  let root: string;
  let key: string;
  let revokedKey: string;
  const partner = 'https://partner.example';
  const clinic = 'https://clinic.example:8443';

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'wellrest-frame-'));
    const staticDir = path.join(root, 'console');
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><div id="root">console</div>');
    server = await getTestServer({ config: { staticDir, widgetsDir: path.join(root, 'widgets') } });
    const admin = await server.loginAs('admin');
    const created = await admin.request<{ key: string; id: number }>('POST', '/api/admin/embed-keys', {
      body: { name: 'Partner clinic', allowedOrigins: [partner, clinic] },
    });
    expect(created.status).toBe(201);
    key = created.body.key;
    const other = await admin.request<{ key: string; id: number }>('POST', '/api/admin/embed-keys', {
      body: { name: 'Former partner', allowedOrigins: ['https://former.example'] },
    });
    revokedKey = other.body.key;
    expect((await admin.request('DELETE', `/api/admin/embed-keys/${other.body.id}`)).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const frameAncestors = (res: { headers: Headers }): string | undefined =>
    res.headers
      .get('content-security-policy')
      ?.split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('frame-ancestors'));

  it("lets only the key's origins frame each widget page, with no X-Frame-Options to contradict", async () => {
    for (const page of ['/widget', '/physician-widget', '/physician-signup-widget']) {
      const res = await server.request('GET', `${page}?key=${encodeURIComponent(key)}&theme=dark`);
      expect(res.status, page).toBe(200);
      expect(res.text).toContain('id="root"');
      expect(frameAncestors(res), page).toBe(`frame-ancestors ${partner} ${clinic}`);
      expect(res.headers.get('x-frame-options'), page).toBeNull();
      // The rest of the policy is the console's own.
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('follows the key when an administrator changes its origins', async () => {
    const admin = await server.loginAs('admin');
    const keys = await admin.request<{ id: number; key: string }[]>('GET', '/api/admin/embed-keys');
    const id = keys.body.find((k) => k.key === key)?.id;
    const moved = 'https://new-home.example';
    expect(
      (await admin.request('PATCH', `/api/admin/embed-keys/${id}`, { body: { allowedOrigins: [moved] } }))
        .status,
    ).toBe(200);
    const res = await server.request('GET', `/widget?key=${encodeURIComponent(key)}`);
    expect(frameAncestors(res)).toBe(`frame-ancestors ${moved}`);
    await admin.request('PATCH', `/api/admin/embed-keys/${id}`, {
      body: { allowedOrigins: [partner, clinic] },
    });
  });

  it('refuses all framing without a key, with an unknown, revoked or repeated key', async () => {
    for (const url of [
      '/widget',
      '/widget?key=',
      '/physician-widget?key=wr_pk_not-a-real-key',
      `/physician-signup-widget?key=${encodeURIComponent(revokedKey)}`,
      `/widget?key=${encodeURIComponent(key)}&key=${encodeURIComponent(key)}`,
      `/widget?key=${'x'.repeat(500)}`,
    ]) {
      const res = await server.request('GET', url);
      expect(res.status, url).toBe(200);
      expect(frameAncestors(res), url).toBe("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), url).toBe('DENY');
    }
  });

  it('never lets a key open framing of any other page or of the API', async () => {
    for (const url of [
      '/',
      '/patients',
      '/widget-embed',
      '/widget/extra',
      '/agreement-form',
      '/api/health',
    ]) {
      const res = await server.request('GET', `${url}?key=${encodeURIComponent(key)}`);
      expect(frameAncestors(res), url).toBe("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), url).toBe('DENY');
    }
  });
});
