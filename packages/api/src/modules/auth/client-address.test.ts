import { LOCKOUT_THRESHOLD } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { requestFrom } from '../../test/from-address.js';
import { type HopProxy, startHopProxy } from '../../test/hop-proxy.js';
import { getTestServer, type TestServer } from '../../test/server.js';

// The client address behind trusted proxies: the one the outermost trusted proxy appended to
// X-Forwarded-For, never what the client wrote there itself. Two real proxy hops stand in front
// of the API (client -> outer -> inner -> API), as with a load balancer before nginx.

describe('client address behind two proxies', () => {
  let server: TestServer;
  let outer: HopProxy;
  let inner: HopProxy;
  const client = '127.0.2.7';

  beforeAll(async () => {
    server = await getTestServer({ config: { trustProxy: true, proxyHops: 2 } });
    inner = await startHopProxy(server.url, '127.0.2.200');
    outer = await startHopProxy(inner.url, '127.0.2.100');
  });
  afterAll(async () => {
    await outer.close();
    await inner.close();
    await server.close();
  });

  it('throttles a client rotating forged X-Forwarded-For, and audits its real address', async () => {
    const user = await server.createUser({ role: 'admin' });
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 25; i++) {
      const res = await requestFrom(outer.url, client, 'POST', '/api/auth/login', {
        headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.${i}` },
        body: { username: user.username, password: 'wrong-password-typed' },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LOCKOUT_THRESHOLD)).toEqual(Array(LOCKOUT_THRESHOLD).fill(401));
    // From the threshold on, each attempt from this address waits twice as long as the one before
    // (1 s, 2 s, 4 s, ...), whatever it writes in X-Forwarded-For. A slow machine may let an attempt
    // through once a wait is over, but never more of them than the waits that fit in the time taken.
    const after = statuses.slice(LOCKOUT_THRESHOLD);
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(after[0]).toBe(429);
    expect(after.every((status) => status === 429 || status === 401)).toBe(true);
    expect(after.filter((status) => status === 401).length).toBeLessThanOrEqual(
      Math.floor(Math.log2(1 + elapsedSeconds)),
    );

    const rows = await server.db('audit_events').where({ action: 'auth.login' }).distinct('ip');
    expect(rows.map((row) => row.ip)).toEqual([client]);
  });
});

describe('TRUST_PROXY', () => {
  it('reads false, true (one proxy) or a number of proxies', () => {
    expect(loadConfig({})).toMatchObject({ trustProxy: false, proxyHops: 0 });
    expect(loadConfig({ TRUST_PROXY: 'true' })).toMatchObject({ trustProxy: true, proxyHops: 1 });
    expect(loadConfig({ TRUST_PROXY: '2' })).toMatchObject({ trustProxy: true, proxyHops: 2 });
    expect(loadConfig({ TRUST_PROXY: '0' })).toMatchObject({ trustProxy: false, proxyHops: 0 });
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });

  it('with one proxy, takes the address it appended, not the leftmost', async () => {
    const server = await getTestServer({ config: { trustProxy: true, proxyHops: 1 } });
    const proxy = await startHopProxy(server.url, '127.0.2.201');
    try {
      const user = await server.createUser({ role: 'staff' });
      await requestFrom(proxy.url, '127.0.2.9', 'POST', '/api/auth/login', {
        headers: { 'x-forwarded-for': '192.0.2.55' },
        body: { username: user.username, password: 'wrong-password-typed' },
      });
      const row = await server.db('audit_events').where({ action: 'auth.login' }).first('ip');
      expect(row.ip).toBe('127.0.2.9');
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('without a proxy setting, ignores X-Forwarded-For altogether', async () => {
    const server = await getTestServer();
    try {
      const user = await server.createUser({ role: 'staff' });
      await requestFrom(server.url, '127.0.2.10', 'POST', '/api/auth/login', {
        headers: { 'x-forwarded-for': '192.0.2.55' },
        body: { username: user.username, password: 'wrong-password-typed' },
      });
      const row = await server.db('audit_events').where({ action: 'auth.login' }).first('ip');
      expect(row.ip).toBe('127.0.2.10');
    } finally {
      await server.close();
    }
  });
});
