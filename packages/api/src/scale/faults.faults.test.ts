import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { insertUser } from '../modules/users/store.js';
import { insertKits, insertPatient, wednesdayAhead } from '../test/operations-fixtures.js';
import { freshDatabase } from '../test/server.js';
import { sourceServerArgs } from '../test/source-server.js';

// Faults a clinic's server meets: the process killed mid-write, the database restarted under load.
// Run on their own (`npm run test:faults -w @wellrest/api`, a CI step), since restarting the
// PostgreSQL server would break any other test running beside them.

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const PASSWORD = 'fault-test-password-1';
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

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

function startApi(env: Record<string, string>): { child: ChildProcess; url: string } {
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const child = spawn(process.execPath, sourceServerArgs(), {
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      WELLREST_SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return { child, url: `http://127.0.0.1:${env.PORT}` };
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/api/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the API did not become ready');
}

async function signIn(url: string, username: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wellrest_session='));
  return (cookie as string).split(';')[0] as string;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

describe('the embedded database after kill -9', () => {
  it('opens again with every acknowledged write', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-kill-'));
    dirs.push(dataDir);
    const setup = await openDatabase({ dataDir });
    await migrate(setup.knex);
    await insertUser(setup.knex, {
      username: 'fault-admin',
      email: 'fault-admin@wellrest.test',
      role: 'admin',
      password: PASSWORD,
    });
    await setup.close();

    const port = String(await freePort());
    const first = startApi({ WELLREST_DATA_DIR: dataDir, PORT: port });
    await untilReady(first.url, first.child);
    const cookie = await signIn(first.url, 'fault-admin');

    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (worker: number) => {
      for (let i = 0; writing; i++) {
        const name = `Killtest Patient ${worker}-${i}`;
        const res = await fetch(`${first.url}/api/patients`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ name, email: `kill-${worker}-${i}@example.test`, phone: '555-0199' }),
        }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(name);
        if (!res) return;
      }
    };
    const writers = Array.from({ length: 10 }, (_, worker) => writer(worker));
    while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 50));
    first.child.kill('SIGKILL');
    writing = false;
    await Promise.all(writers);
    await exited(first.child);

    const second = startApi({ WELLREST_DATA_DIR: dataDir, PORT: port });
    await untilReady(second.url, second.child);
    second.child.kill('SIGTERM');
    await exited(second.child);

    const check = await openDatabase({ dataDir });
    try {
      const names = new Set(await check.knex('patients').pluck('name'));
      const lost = acknowledged.filter((name) => !names.has(name));
      expect(lost).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    } finally {
      await check.close();
    }
  });
});

/** The local server's cluster, when this machine runs one the test may restart. */
function restartablePostgres(): string | undefined {
  if (!process.env.DATABASE_URL || !existsSync('/etc/postgresql')) return undefined;
  // pg_ctlcluster (Debian's postgresql-common) answers `--help` with exit code 1: look it up instead.
  try {
    execFileSync('sh', ['-c', 'command -v pg_ctlcluster'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return readdirSync('/etc/postgresql')[0];
}

const cluster = restartablePostgres();

describe.runIf(cluster)('PostgreSQL restarted and an API process killed under load', () => {
  it('loses no acknowledged booking, half-writes none, and recovers without a restart', async () => {
    const fresh = await freshDatabase('postgres');
    const { knex } = fresh.db;
    await insertUser(knex, {
      username: 'fault-admin',
      email: 'fault-admin@wellrest.test',
      role: 'admin',
      password: PASSWORD,
    });
    await insertKits(knex, 'Somfit', 400);
    const patients: number[] = [];
    for (let i = 0; i < 400; i++)
      patients.push((await insertPatient(knex, { name: `Fault Patient ${i}` })).id);
    await fresh.db.close();

    const secret = randomBytes(32).toString('hex');
    const [portA, portB] = [String(await freePort()), String(await freePort())];
    const a = startApi({ DATABASE_URL: fresh.url as string, PORT: portA, WELLREST_SECRET: secret });
    const b = startApi({ DATABASE_URL: fresh.url as string, PORT: portB, WELLREST_SECRET: secret });
    await Promise.all([untilReady(a.url, a.child), untilReady(b.url, b.child)]);
    const cookie = await signIn(b.url, 'fault-admin');

    type Outcome = { patientId: number; status: number | 'network'; bookingId?: number };
    const outcomes: Outcome[] = [];
    const readiness: number[] = [];
    let next = 0;
    let aAlive = true;
    const worker = async (index: number) => {
      while (next < patients.length) {
        const patientId = patients[next++] as number;
        const url = index % 2 === 0 && aAlive ? a.url : b.url;
        const res = await fetch(`${url}/api/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({
            patientId,
            testType: '2-day',
            kitType: 'Somfit',
            startDate: wednesdayAhead(1),
          }),
        }).catch(() => undefined);
        if (!res) {
          outcomes.push({ patientId, status: 'network' });
          continue;
        }
        const body = (await res.json().catch(() => ({}))) as { id?: number };
        outcomes.push({ patientId, status: res.status, ...(body.id ? { bookingId: body.id } : {}) });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const load = Promise.all(Array.from({ length: 10 }, (_, i) => worker(i)));
    const probe = (async () => {
      while (next < patients.length) {
        readiness.push(
          await fetch(`${b.url}/api/ready`).then(
            (r) => r.status,
            () => 0,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    while (outcomes.length < 40) await new Promise((resolve) => setTimeout(resolve, 50));
    // The server is down until the survivor has said it is not ready (at most 20 s), then back.
    const pgctl = (action: 'stop' | 'start') =>
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster as string, 'main', action], {
        stdio: 'ignore',
      });
    pgctl('stop');
    try {
      const downSince = Date.now();
      while (!readiness.includes(503) && Date.now() - downSince < 20_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      pgctl('start');
    }
    while (outcomes.length < 120) await new Promise((resolve) => setTimeout(resolve, 50));
    aAlive = false;
    a.child.kill('SIGKILL');
    await Promise.all([load, probe]);

    // The survivor answers again without being restarted.
    expect(b.child.exitCode).toBeNull();
    expect((await fetch(`${b.url}/api/ready`)).status).toBe(200);
    expect(readiness).toContain(503);
    expect(readiness.at(-1)).toBe(200);

    const check = await openDatabase({ databaseUrl: fresh.url as string, poolMax: 1 });
    try {
      const rows = await check.knex('bookings').select('id', 'patient_id');
      const byPatient = new Map(rows.map((r: { id: number; patient_id: number }) => [r.patient_id, r.id]));
      const lost = outcomes.filter((o) => o.status === 201 && byPatient.get(o.patientId) !== o.bookingId);
      const halfWritten = outcomes.filter(
        (o) => typeof o.status === 'number' && o.status >= 500 && byPatient.has(o.patientId),
      );
      expect(lost).toEqual([]);
      expect(halfWritten).toEqual([]);
      expect(outcomes.filter((o) => o.status === 201).length).toBeGreaterThan(100);
      process.stdout.write(
        `faults: ${outcomes.length} booking requests, ${outcomes.filter((o) => o.status === 201).length} acknowledged, ${outcomes.filter((o) => typeof o.status === 'number' && o.status >= 500).length} refused with 5xx, ${outcomes.filter((o) => o.status === 'network').length} cut off; every acknowledged one is stored, no refused one is\n`,
      );
    } finally {
      await check.close();
      b.child.kill('SIGTERM');
      await exited(b.child);
      await fresh.dispose();
    }
  });
});
