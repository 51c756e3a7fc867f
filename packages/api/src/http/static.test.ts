import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { LOGIN_ROUTE } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../modules/auth/tokens.js';
import { getTestServer, type TestServer } from '../test/server.js';
import { widgetsDirProblem } from './static.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that leaves the body as sent (fetch would decompress it and drop Content-Encoding). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

// A script large enough to be worth compressing, and a precompressed one as the console build writes.
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: 'row ${i}' }`).join(', ')}];\n`;
const prebuilt = `export const prebuilt = '${'shell '.repeat(400)}';\n`;
const PREBUILT_BR_MARK = `export const prebuilt = 'from the .br file';\n`;

describe('static files are sent compressed', () => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'wellrest-static-compress-'));
    const staticDir = path.join(root, 'console');
    const widgetsDir = path.join(root, 'widgets');
    mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
    mkdirSync(widgetsDir, { recursive: true });
    writeFileSync(
      path.join(staticDir, 'index.html'),
      `<!doctype html><div id="root">${'<p>x</p>'.repeat(300)}</div>`,
    );
    writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), script);
    writeFileSync(path.join(staticDir, 'assets', 'tiny-abc123.js'), 'export {};\n');
    writeFileSync(path.join(staticDir, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 1));
    writeFileSync(path.join(staticDir, 'assets', 'shell-abc123.js'), prebuilt);
    writeFileSync(path.join(staticDir, 'assets', 'shell-abc123.js.br'), brotliCompressSync(PREBUILT_BR_MARK));
    writeFileSync(path.join(staticDir, 'assets', 'shell-abc123.js.gz'), gzipSync(prebuilt));
    writeFileSync(path.join(widgetsDir, 'wellrest-booking.js'), script);
    server = await getTestServer({ config: { staticDir, widgetsDir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends hashed assets with brotli, keeping their long cache lifetime', async () => {
    const res = await rawGet(`${server.url}/assets/app-abc123.js`, {
      'Accept-Encoding': 'gzip, deflate, br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body.length).toBeLessThan(script.length / 3);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('falls back to gzip, and to the plain file for clients that accept neither', async () => {
    const gzipped = await rawGet(`${server.url}/assets/app-abc123.js`, { 'Accept-Encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(script);

    const plain = await rawGet(`${server.url}/assets/app-abc123.js`, { 'Accept-Encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('compresses the console page served for client-side routes', async () => {
    const res = await rawGet(`${server.url}/patients`, { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).toString()).toContain('id="root"');
  });

  it('prefers the precompressed file the build wrote', async () => {
    const br = await rawGet(`${server.url}/assets/shell-abc123.js`, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(PREBUILT_BR_MARK);
    const gz = await rawGet(`${server.url}/assets/shell-abc123.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(prebuilt);
  });

  it('leaves tiny files and images as they are', async () => {
    const tiny = await rawGet(`${server.url}/assets/tiny-abc123.js`, { 'Accept-Encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
    const image = await rawGet(`${server.url}/assets/logo-abc123.png`, { 'Accept-Encoding': 'br' });
    expect(image.status).toBe(200);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.length).toBe(4096);
  });

  it('compresses widget scripts for partner sites', async () => {
    const res = await rawGet(`${server.url}/widgets/wellrest-booking.js`, { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('answers 404 for missing files whatever the encoding', async () => {
    const res = await rawGet(`${server.url}/assets/missing.js`, { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(404);
  });
});

describe('the pre-rendered first screens', () => {
  let server: TestServer;
  let root: string;
  const page = (screen: string) => `<!doctype html><div id="root" data-prerendered="${screen}"></div>`;
  const SPINNER_PAGE = '<!doctype html><div id="root" aria-busy="true"></div>';
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'wellrest-static-prerendered-'));
    const staticDir = path.join(root, 'console');
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), SPINNER_PAGE);
    writeFileSync(path.join(staticDir, 'login.html'), page('login'));
    writeFileSync(path.join(staticDir, 'dashboard.html'), page('dashboard'));
    server = await getTestServer({ config: { staticDir, widgetsDir: path.join(root, 'widgets') } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends the sign-in screen on /login, whether or not the browser holds a session', async () => {
    const sessions: Record<string, string>[] = [{}, { Cookie: `${SESSION_COOKIE}=anything` }];
    for (const headers of sessions) {
      const res = await rawGet(`${server.url}${LOGIN_ROUTE}`, headers);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.toString()).toBe(page('login'));
    }
  });

  it("sends the dashboard's frame on / only to a browser with a session cookie, varying by cookie", async () => {
    const signedIn = await rawGet(`${server.url}/`, { Cookie: `theme=dark; ${SESSION_COOKIE}=anything` });
    expect(signedIn.body.toString()).toBe(page('dashboard'));
    expect(signedIn.headers.vary).toContain('Cookie');
    expect(signedIn.headers['cache-control']).toBe('no-cache');

    const visitor = await rawGet(`${server.url}/`, { Cookie: 'theme=dark' });
    expect(visitor.body.toString()).toBe(SPINNER_PAGE);
    expect(visitor.headers.vary).toContain('Cookie');
  });

  it('sends the spinner page on every other route, session or not', async () => {
    for (const route of ['/patients', '/login/extra', '/bookings-management']) {
      const res = await rawGet(`${server.url}${route}`, { Cookie: `${SESSION_COOKIE}=anything` });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(SPINNER_PAGE);
    }
  });

  it('answers a form posted to the sign-in page without a server error and without the page', async () => {
    const res = await fetch(`${server.url}${LOGIN_ROUTE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=someone&password=secret',
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('secret');
  });
});

describe('a build without pre-rendered pages', () => {
  it('sends index.html on /login and /', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'wellrest-static-plain-'));
    const staticDir = path.join(root, 'console');
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const server = await getTestServer({ config: { staticDir, widgetsDir: path.join(root, 'widgets') } });
    try {
      for (const route of [LOGIN_ROUTE, '/']) {
        const res = await rawGet(`${server.url}${route}`, { Cookie: `${SESSION_COOKIE}=anything` });
        expect(res.status).toBe(200);
        expect(res.body.toString()).toBe('<!doctype html><div id="root"></div>');
      }
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the widgets directory checked at start', () => {
  it('names a missing or empty directory, and says nothing of a built one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-widgets-dir-'));
    try {
      expect(await widgetsDirProblem(path.join(dir, 'missing'))).toMatch(/does not exist/);
      expect(await widgetsDirProblem(dir)).toMatch(/no widget scripts/);
      writeFileSync(path.join(dir, 'wellrest-widgets.js'), '');
      expect(await widgetsDirProblem(dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
