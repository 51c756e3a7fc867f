import type { AddressInfo } from 'node:net';
import { messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, createApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { createLogger, knexLog } from '../logger.js';
import { insertUser } from '../modules/users/store.js';
import { type BlockableProxy, startBlockableProxy } from '../test/blockable-proxy.js';
import { freshDatabase, TEST_JOB_OPTIONS, testConfig } from '../test/server.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './errors.js';

// A database outage, on PostgreSQL (DATABASE_URL): the API reaches it through a relay the test
// blocks, cutting every connection and refusing new ones. Every answer meanwhile is 503 with
// Retry-After (never 500), every log line is JSON and names the route, and the API answers again
// once the database is back, without a restart.

const PASSWORD = 'outage-password-123';

describe.runIf(Boolean(process.env.DATABASE_URL))('a database outage', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let proxy: BlockableProxy;
  let db: Database;
  let app: App;
  let server: ReturnType<App['listen']>;
  let url: string;
  const lines: string[] = [];

  beforeAll(async () => {
    fresh = await freshDatabase('postgres');
    await insertUser(fresh.db.knex, { username: 'outage-admin', role: 'admin', password: PASSWORD });
    const target = new URL(fresh.url as string);
    proxy = await startBlockableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(fresh.url as string);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    db = await openDatabase({ databaseUrl: viaProxy.toString(), poolMax: 4, log: knexLog(logger) });
    app = await createApp({ config: testConfig(), db, logger, jobs: TEST_JOB_OPTIONS });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await app?.context.services.jobs.stop(2000);
    await db?.close().catch(() => {});
    await proxy?.close();
    await fresh?.dispose();
  });

  it('answers 503 with Retry-After while the database cannot be reached, logs JSON, and recovers', async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'outage-admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';

    const printed = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')];
    await proxy.block();
    const calls: Array<[string, string, Record<string, string>, string?]> = [
      ['GET', '/api/bookings', { cookie }],
      ['GET', '/api/patients', { cookie }],
      [
        'POST',
        '/api/auth/login',
        { 'content-type': 'application/json' },
        JSON.stringify({ username: 'outage-admin', password: PASSWORD }),
      ],
      ['GET', '/api/public/availability?kitType=Somfit&testType=2-day&from=2030-01-02&days=7', {}],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [method, path, headers, body] of calls) {
        const res = await fetch(`${url}${path}`, { method, headers, body });
        expect(res.status, `${method} ${path}`).toBe(503);
        expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
        const answer = (await res.json()) as Record<string, unknown>;
        expect(answer).toEqual({
          error: messages.common.temporarilyUnavailable,
          requestId: expect.any(String),
        });
      }
    }

    // Every line is JSON; the client's connection errors are one line each, without a stack; and
    // each request line names its route, though the session check failed before the router ran.
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = parsed.filter((entry) => entry.msg === 'request' && entry.status === 503);
    expect(requests.map((entry) => entry.route)).toEqual(
      expect.arrayContaining([
        '/api/bookings',
        '/api/patients',
        '/api/auth/login',
        '/api/public/availability',
      ]),
    );
    expect(requests.map((entry) => entry.route)).not.toContain('(unmatched api)');
    const clientLines = parsed.filter((entry) => entry.event === 'database.client');
    for (const entry of clientLines) expect(String(entry.detail)).not.toContain('\n');
    for (const spy of printed) {
      expect(spy.mock.calls.flat().join(' ')).not.toMatch(/Acquire connection error/);
      spy.mockRestore();
    }

    await proxy.unblock();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await fetch(`${url}/api/bookings`, { headers: { cookie } })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });
});
