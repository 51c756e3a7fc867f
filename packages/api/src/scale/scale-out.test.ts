import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertUser } from '../modules/users/store.js';
import { insertKits, insertPatient, wednesdayAhead } from '../test/operations-fixtures.js';
import { freshDatabase } from '../test/server.js';
import { startFakeSmtp } from '../test/smtp-fake.js';
import { sourceServerArgs } from '../test/source-server.js';

// Several API processes on one PostgreSQL behind nginx, configured exactly as deploy/nginx.conf
// (the README's "Deploying") with only the addresses changed: what one process knows, all know.
// Needs a PostgreSQL server (DATABASE_URL) and nginx (CI installs Debian's nginx-light).

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

function hasNginx(): boolean {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const runs = Boolean(process.env.DATABASE_URL) && hasNginx();
const root = path.resolve(import.meta.dirname, '../../../..');
const PASSWORD = 'scale-out-password-1';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  body: Record<string, unknown> & unknown[];
  cookie?: string | undefined;
}

/** One request, over TLS through nginx (`via: 'nginx'`) or in plain HTTP straight to one process. */
function send(
  target: { tls: true; port: number } | { tls: false; port: number },
  method: string,
  urlPath: string,
  options: { body?: unknown; cookie?: string | undefined; origin?: string } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  const request = target.tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: target.port,
        method,
        path: urlPath,
        headers: { ...headers, host: `localhost:${target.port}` },
        rejectUnauthorized: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const setCookie = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('wellrest_session='));
          resolve({
            status: res.statusCode ?? 0,
            body: (text && res.headers['content-type']?.includes('json')
              ? JSON.parse(text)
              : {}) as Answer['body'],
            cookie: setCookie?.split(';')[0],
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function waitReady(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`API process on ${port} exited with ${child.exitCode}`);
    try {
      if ((await send({ tls: false, port }, 'GET', '/api/ready')).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`API process on ${port} did not become ready`);
}

describe.runIf(runs)('three API processes behind nginx', () => {
  const children: ChildProcess[] = [];
  let work: string;
  let dispose: () => Promise<void> = async () => {};
  let apiPorts: number[] = [];
  let tlsPort = 0;
  let origin = '';
  let db: Awaited<ReturnType<typeof freshDatabase>>['db'];
  const nginx = () => ({ tls: true as const, port: tlsPort });
  const direct = (i: number) => ({ tls: false as const, port: apiPorts[i] as number });

  beforeAll(async () => {
    const fresh = await freshDatabase('postgres');
    db = fresh.db;
    dispose = fresh.dispose;
    await insertUser(db.knex, {
      username: 'scale-admin',
      email: 'scale-admin@wellrest.test',
      role: 'admin',
      password: PASSWORD,
    });
    await insertUser(db.knex, {
      username: 'scale-locked',
      email: 'scale-locked@wellrest.test',
      role: 'staff',
      password: PASSWORD,
    });
    await insertKits(db.knex, 'Somfit', 2);

    work = mkdtempSync(path.join(os.tmpdir(), 'wellrest-scale-'));
    apiPorts = [await freePort(), await freePort(), await freePort()];
    tlsPort = await freePort();
    const httpPort = await freePort();
    origin = `https://localhost:${tlsPort}`;
    const secret = randomBytes(32).toString('hex');
    for (const port of apiPorts) {
      const { DATABASE_URL: _server, ...inherited } = process.env;
      const child = spawn(process.execPath, sourceServerArgs(), {
        env: {
          ...inherited,
          DATABASE_URL: fresh.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          WELLREST_SECRET: secret,
          TRUST_PROXY: 'true',
          PUBLIC_URL: origin,
          LOG_LEVEL: 'warn',
          NODE_ENV: 'test',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
    }

    // The documented configuration, with this run's addresses and a throwaway certificate.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        path.join(work, 'key.pem'),
        '-out',
        path.join(work, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const site = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8')
      .replace(/server 127\.0\.0\.1:300\d[^;]*;\n/g, '')
      .replace(
        'keepalive 32;',
        `${apiPorts.map((p) => `server 127.0.0.1:${p};`).join('\n    ')}\n    keepalive 32;`,
      )
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`)
      .replaceAll('ops.example-clinic.com', 'localhost')
      .replace('/etc/ssl/wellrest/fullchain.pem', path.join(work, 'cert.pem'))
      .replace('/etc/ssl/wellrest/privkey.pem', path.join(work, 'key.pem'));
    writeFileSync(path.join(work, 'wellrest.conf'), site);
    writeFileSync(
      path.join(work, 'nginx.conf'),
      [
        'user root;',
        'daemon off;',
        'worker_processes 1;',
        `pid ${work}/nginx.pid;`,
        `error_log ${work}/error.log warn;`,
        'events {}',
        'http {',
        '  access_log off;',
        `  client_body_temp_path ${work}/body;`,
        `  proxy_temp_path ${work}/proxy;`,
        `  include ${work}/wellrest.conf;`,
        '}',
      ].join('\n'),
    );
    children.push(spawn('nginx', ['-c', path.join(work, 'nginx.conf'), '-p', work], { stdio: 'inherit' }));
    await Promise.all(apiPorts.map((port, i) => waitReady(port, children[i] as ChildProcess)));
    for (
      let i = 0;
      i < 60 && (await send(nginx(), 'GET', '/api/health').catch(() => ({ status: 0 }))).status !== 200;
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 250));
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)),
      ),
    );
    await dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function signIn(username: string): Promise<string> {
    const res = await send(nginx(), 'POST', '/api/auth/login', {
      body: { username, password: PASSWORD },
      origin,
    });
    expect(res.status).toBe(200);
    expect(res.cookie).toBeDefined();
    return res.cookie as string;
  }

  it('keeps a session made through nginx valid on every process, and ends it everywhere at logout', async () => {
    const cookie = await signIn('scale-admin');
    for (let i = 0; i < 3; i++)
      expect((await send(direct(i), 'GET', '/api/auth/me', { cookie })).status).toBe(200);
    for (let i = 0; i < 6; i++)
      expect((await send(nginx(), 'GET', '/api/auth/me', { cookie })).status).toBe(200);

    expect(
      (await send(direct(0), 'POST', '/api/auth/logout', { cookie, origin, body: {} })).status,
    ).toBeLessThan(300);
    expect((await send(direct(1), 'GET', '/api/auth/me', { cookie })).status).toBe(401);
    expect((await send(direct(2), 'GET', '/api/auth/me', { cookie })).status).toBe(401);
  });

  it('answers searches and availability that are current on every process right after a write on one', async () => {
    const cookie = await signIn('scale-admin');
    // Warm each process's kept answers first (the matches of a name, of its beginning and of a
    // slip), so stale copies would show.
    const queries = ['Quillfeather', 'Quillfea', 'Qiullfeather'];
    for (let i = 0; i < 3; i++) {
      for (const query of queries)
        await send(direct(i), 'POST', '/api/search', { cookie, origin, body: { query, limit: 10 } });
      await send(direct(i), 'GET', '/api/dashboard/daily-availability', { cookie });
    }
    const created = await send(direct(0), 'POST', '/api/patients', {
      cookie,
      origin,
      body: { name: 'Avery Quillfeather', email: 'avery.quillfeather@example.test', phone: '555-0142' },
    });
    expect(created.status).toBe(201);
    for (const i of [1, 2]) {
      for (const query of queries) {
        const found = await send(direct(i), 'POST', '/api/search', {
          cookie,
          origin,
          body: { query, limit: 10 },
        });
        expect(found.status).toBe(200);
        expect(
          (found.body as unknown as { title: string }[]).map((r) => r.title),
          query,
        ).toContain('Avery Quillfeather');
      }
    }

    const patient = await insertPatient(db.knex, { name: 'Rowan Scaleout' });
    const startDate = wednesdayAhead(0);
    const booked = await send(direct(1), 'POST', '/api/bookings', {
      cookie,
      origin,
      body: { patientId: patient.id, testType: '2-day', kitType: 'Somfit', startDate },
    });
    expect(booked.status).toBe(201);
    for (const i of [0, 2]) {
      const days = await send(direct(i), 'GET', '/api/dashboard/daily-availability', { cookie });
      const day = (days.body as unknown as { date: string; pickups: { patientId: number }[] }[]).find(
        (d) => d.date === startDate,
      );
      expect(day?.pickups.map((p) => p.patientId)).toContain(patient.id);
    }
  });

  it('keeps search results correct on every process while patients are created, renamed and deleted', async () => {
    const cookie = await signIn('scale-admin');
    const titles = async (i: number, query: string) => {
      const found = await send(direct(i), 'POST', '/api/search', {
        cookie,
        origin,
        body: { query, limit: 10 },
      });
      expect(found.status).toBe(200);
      return (found.body as unknown as { type: string; title: string }[])
        .filter((r) => r.type === 'patient')
        .map((r) => r.title);
    };
    const everywhere = async (query: string, expected: string[]) => {
      for (let i = 0; i < 3; i++)
        expect(await titles(i, query), `${query} on process ${i}`).toEqual(expected);
    };
    const ids: number[] = [];
    // Created on one process, alternately, and at once found (typos too) on all of them.
    for (let n = 0; n < 4; n++) {
      const created = await send(direct(n % 3), 'POST', '/api/patients', {
        cookie,
        origin,
        body: {
          name: `Marigold Wrenfield${'abcd'[n]}`,
          email: `m${n}@wrenfield.test`,
          phone: `555-77${n}-0000`,
        },
      });
      expect(created.status).toBe(201);
      ids.push((created.body as unknown as { id: number }).id);
      // Equal matches come newest first.
      await everywhere('Marigold', ids.map((_, k) => `Marigold Wrenfield${'abcd'[k]}`).reverse());
    }
    // Two typos allowed in ten letters: the other three are one letter away from "wrenfieldc".
    await everywhere('Mraigold Wrenfieldc', [
      'Marigold Wrenfieldc',
      'Marigold Wrenfieldd',
      'Marigold Wrenfieldb',
      'Marigold Wrenfielda',
    ]);
    await everywhere('wrenfield.test', [
      'Marigold Wrenfieldd',
      'Marigold Wrenfieldc',
      'Marigold Wrenfieldb',
      'Marigold Wrenfielda',
    ]);

    // Renamed on another process: the new name is found everywhere, the old one nowhere.
    const renamed = await send(direct(1), 'PATCH', `/api/patients/${ids[0]}`, {
      cookie,
      origin,
      body: { name: 'Juniper Ashcombe' },
    });
    expect(renamed.status).toBe(200);
    await everywhere('Ashcombe', ['Juniper Ashcombe']);
    await everywhere('Ashcmobe', ['Juniper Ashcombe']);
    await everywhere('Marigold', ['Marigold Wrenfieldd', 'Marigold Wrenfieldc', 'Marigold Wrenfieldb']);

    // Deleted (by another writer, straight in the database): gone at once, nothing reloaded.
    await db.knex('patients').where({ id: ids[1] }).delete();
    await everywhere('Marigold', ['Marigold Wrenfieldd', 'Marigold Wrenfieldc']);
    await everywhere('wrenfield.test', ['Marigold Wrenfieldd', 'Marigold Wrenfieldc', 'Juniper Ashcombe']);
    const left = await db
      .knex('search_entries')
      .where({ kind: 'patient', record_id: ids[1] })
      .count('* as n');
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('runs each queued job once: test emails sent through nginx arrive once each', async () => {
    const smtp = await startFakeSmtp();
    try {
      const cookie = await signIn('scale-admin');
      const configured = await send(nginx(), 'PATCH', '/api/messaging/settings', {
        cookie,
        origin,
        body: {
          smtpHost: smtp.host,
          smtpPort: smtp.port,
          smtpSecure: false,
          smtpUser: smtp.user,
          smtpPassword: smtp.password,
          smtpCaPem: smtp.cert,
          fromAddress: 'care@wellrest.example',
        },
      });
      expect(configured.status).toBe(200);
      const template = await db.knex('message_templates').where({ key: 'overdue-return' }).first('id');
      // Spread by nginx over the three processes, each of which works the same queue.
      const ids: number[] = [];
      for (let i = 0; i < 24; i++) {
        const res = await send(nginx(), 'POST', `/api/templates/${template.id}/test`, {
          cookie,
          origin,
          body: { to: `once-${i}@example.test` },
        });
        expect(res.status).toBe(202);
        ids.push((res.body as unknown as { deliveryId: number }).deliveryId);
      }
      const deadline = Date.now() + 60_000;
      let rows: { status: string; attempts: number }[] = [];
      while (Date.now() < deadline) {
        rows = await db.knex('deliveries').whereIn('id', ids).select('status', 'attempts');
        if (rows.every((row) => row.status === 'sent')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(rows.map((row) => [row.status, row.attempts])).toEqual(ids.map(() => ['sent', 1]));
      // A moment more: a second run of any job would deliver a second copy now.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(smtp.received).toHaveLength(24);
      expect(new Set(smtp.received.map((mail) => mail.to[0])).size).toBe(24);
    } finally {
      await smtp.close();
    }
  });

  it('counts failed sign-ins across processes', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await send(nginx(), 'POST', '/api/auth/login', {
        body: { username: 'scale-locked', password: 'not-the-password' },
        origin,
      });
      answers.push(res.status);
    }
    expect(answers.every((status) => [401, 423, 429].includes(status))).toBe(true);
    // Spread over three processes, the failures still add up to a refusal of the right password.
    const right = await send(nginx(), 'POST', '/api/auth/login', {
      body: { username: 'scale-locked', password: PASSWORD },
      origin,
    });
    expect([423, 429]).toContain(right.status);
  });
});
