import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPglite } from '../db/connect.js';
import { sourceServerArgs } from '../test/source-server.js';
import { LOCK_FILE } from './data-dir-lock.js';

// The server as an operator starts it: a real process, from the sources, on a real data directory.
// Each server process compiles the sources as it starts, which takes seconds: generous timeouts.
vi.setConfig({ testTimeout: 180_000 });

interface Started {
  child: ChildProcess;
  /** Resolves with the port once the server logs that it listens, or with the exit when it stops first. */
  outcome: Promise<{ listening: number } | { exit: number | null; stderr: string }>;
  output(): string;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-startup-'));
  dirs.push(dir);
  return dir;
}

function startServer(env: Record<string, string | undefined>): Started {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, sourceServerArgs(), {
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WELLREST_SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const outcome = new Promise<{ listening: number } | { exit: number | null; stderr: string }>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /"port":(\d+)[^\n]*Wellrest is listening/.exec(stdout);
      if (match) resolve({ listening: Number(match[1]) });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => resolve({ exit: code, stderr }));
  });
  return { child, outcome, output: () => stdout + stderr };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  child.kill(signal);
  await exited(child);
}

/** The tables of an embedded database directory (none when nothing was migrated). */
async function tablesIn(dataDir: string): Promise<string[]> {
  const pglite = createPglite({ dataDir });
  try {
    const result = await pglite.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by 1",
    );
    return result.rows.map((row) => row.tablename);
  } finally {
    await pglite.close();
  }
}

function occupiedPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('one process per embedded data directory', () => {
  it('refuses a second process on the same directory, naming the directory and the holder', async () => {
    const dataDir = tempDir();
    const first = startServer({ WELLREST_DATA_DIR: dataDir });
    expect(await first.outcome).toHaveProperty('listening');

    const second = startServer({ WELLREST_DATA_DIR: dataDir });
    const outcome = await second.outcome;
    expect(outcome).toMatchObject({ exit: 2 });
    const line = (outcome as { stderr: string }).stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain(dataDir);
    expect(line).toContain(`process ${first.child.pid}`);
    expect(line).toContain('DATABASE_URL');

    await stop(first.child);
    // A clean stop releases the lock.
    expect(() => readFileSync(path.join(dataDir, LOCK_FILE))).toThrow();
  });

  it('takes over the lock a killed process left behind', async () => {
    const dataDir = tempDir();
    const first = startServer({ WELLREST_DATA_DIR: dataDir });
    expect(await first.outcome).toHaveProperty('listening');
    await stop(first.child, 'SIGKILL');
    expect(JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: first.child.pid,
    });

    const second = startServer({ WELLREST_DATA_DIR: dataDir });
    expect(await second.outcome).toHaveProperty('listening');
    expect(JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: second.child.pid,
    });
    await stop(second.child);
  });

  it('names a data directory that cannot be written', async () => {
    const parent = tempDir();
    writeFileSync(path.join(parent, 'not-a-directory'), '');
    const dataDir = path.join(parent, 'not-a-directory', 'data');
    const outcome = await startServer({ WELLREST_DATA_DIR: dataDir }).outcome;
    expect(outcome).toMatchObject({ exit: 2 });
    const line = (outcome as { stderr: string }).stderr.trim();
    expect(line).toMatch(
      /^Wellrest failed to start: WELLREST_DATA_DIR: the data directory .* cannot be written/,
    );
    expect(line).toContain(dataDir);
    expect(line).not.toContain('    at ');
  });
});

describe('a server that cannot listen changes nothing', () => {
  it('stops on a port in use before migrating or seeding a new database', async () => {
    const dataDir = tempDir();
    const { server, port } = await occupiedPort();
    try {
      const outcome = await startServer({
        WELLREST_DATA_DIR: dataDir,
        PORT: String(port),
        WELLREST_SEED_DEMO: 'auto',
      }).outcome;
      expect(outcome).toMatchObject({ exit: 4 });
      const line = (outcome as { stderr: string }).stderr.trim();
      expect(line).toBe(
        `Wellrest failed to start: PORT: port ${port} on 127.0.0.1 is already in use (EADDRINUSE). Stop the other server or set PORT to a free port.`,
      );
    } finally {
      server.close();
    }
    expect(await tablesIn(dataDir)).toEqual([]);
  });

  it('stops on a HOST that is no address of this machine, leaving an existing database as it was', async () => {
    const dataDir = tempDir();
    const first = startServer({ WELLREST_DATA_DIR: dataDir });
    expect(await first.outcome).toHaveProperty('listening');
    await stop(first.child);
    const before = await tablesIn(dataDir);
    expect(before).toContain('users');

    const outcome = await startServer({
      WELLREST_DATA_DIR: dataDir,
      HOST: '256.1.1.1',
      WELLREST_SEED_DEMO: 'true',
    }).outcome;
    expect(outcome).toMatchObject({ exit: 4 });
    expect((outcome as { stderr: string }).stderr).toMatch(
      /^Wellrest failed to start: HOST: cannot listen on 256\.1\.1\.1 /,
    );
    const pglite = createPglite({ dataDir });
    try {
      const users = await pglite.query<{ count: number }>('select count(*)::int as count from users');
      expect(users.rows[0]?.count).toBe(0);
    } finally {
      await pglite.close();
    }
  });
});

describe('database settings that cannot work', () => {
  it.each([
    [
      'refused',
      'postgres://wellrest:secret-pw@127.0.0.1:1/wellrest',
      /connection was refused\b.*\(ECONNREFUSED\)/,
    ],
  ])(
    'names DATABASE_URL in one line when the connection is %s, password masked',
    async (_case, url, cause) => {
      const outcome = await startServer({ DATABASE_URL: url }).outcome;
      expect(outcome).toMatchObject({ exit: 3 });
      const line = (outcome as { stderr: string }).stderr.trim();
      expect(line.split('\n')).toHaveLength(1);
      expect(line).toMatch(
        /^Wellrest failed to start: DATABASE_URL: cannot use postgres:\/\/wellrest:\*\*\*\*@127\.0\.0\.1:1\/wellrest: /,
      );
      expect(line).toMatch(cause);
      expect(line).not.toContain('secret-pw');
    },
  );

  const serverUrl = process.env.DATABASE_URL;
  it.runIf(serverUrl)('names a missing database and an unknown user in one line each', async () => {
    const missing = new URL(serverUrl ?? 'postgres://localhost');
    missing.pathname = '/wellrest_no_such_database';
    const noDatabase = await startServer({ DATABASE_URL: missing.toString() }).outcome;
    expect(noDatabase).toMatchObject({ exit: 3 });
    expect((noDatabase as { stderr: string }).stderr.trim()).toMatch(
      /the database does not exist.*\(3D000\)\.$/,
    );

    const stranger = new URL(serverUrl ?? 'postgres://localhost');
    stranger.username = 'wellrest_no_such_user';
    stranger.password = 'a-password';
    const noUser = await startServer({ DATABASE_URL: stranger.toString() }).outcome;
    expect(noUser).toMatchObject({ exit: 3 });
    const line = (noUser as { stderr: string }).stderr.trim();
    expect(line).toMatch(/\((28000|28P01)\)\.$/);
    expect(line).not.toContain('a-password');
  });
});

describe('.env', () => {
  it('is read at start, and the environment wins over it', async () => {
    const dataDir = tempDir();
    const envDir = tempDir();
    const envFile = path.join(envDir, '.env');
    writeFileSync(envFile, `WELLREST_DATA_DIR=${dataDir}\nPRACTICE_TIME_ZONE=Mars/Base\n`);
    const { loadConfig, loadDotEnv } = await import('../config.js');
    const saved = { ...process.env };
    try {
      delete process.env.WELLREST_DATA_DIR;
      process.env.PRACTICE_TIME_ZONE = 'America/Chicago';
      expect(loadDotEnv(envFile)).toBe(envFile);
      const config = loadConfig();
      expect(config.dataDir).toBe(dataDir);
      expect(config.practiceTimeZone).toBe('America/Chicago');
    } finally {
      process.env = saved;
    }
  });
});
