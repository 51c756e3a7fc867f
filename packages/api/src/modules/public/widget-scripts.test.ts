import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestServer, type TestServer } from '../../test/server.js';

// The widget scripts partner sites load by script tag: a short cache on the stable name, a
// year-long immutable cache on the content-hashed copy, and loadable from any origin.

describe('widget scripts', () => {
  let server: TestServer;
  let widgetsDir: string;
  const script = 'customElements.define("wellrest-booking", class extends HTMLElement {});\n';
  const hash = createHash('sha256').update(script).digest('hex').slice(0, 10);

  beforeAll(async () => {
    widgetsDir = await mkdtemp(path.join(os.tmpdir(), 'wellrest-widgets-'));
    await writeFile(path.join(widgetsDir, 'wellrest-booking.js'), script);
    server = await getTestServer({ config: { widgetsDir } });
  });
  afterAll(async () => {
    await server.close();
    await rm(widgetsDir, { recursive: true, force: true });
  });

  it('serves the stable name with a short cache and points to the hashed copy', async () => {
    const res = await server.request('GET', '/widgets/wellrest-booking.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe(script);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('link')).toBe(`</widgets/wellrest-booking.${hash}.js>; rel="alternate"`);
  });

  it('serves the hashed copy as immutable, and no copy under a stale hash', async () => {
    const res = await server.request('GET', `/widgets/wellrest-booking.${hash}.js`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(script);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await server.request('GET', '/widgets/wellrest-booking.0000000000.js')).status).toBe(404);
  });
});
