// Starts a Wellrest server for the browser tests on a fresh database with the demo data:
// a new database on the PostgreSQL server when DATABASE_URL is set, else a new embedded one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = {
  ...process.env,
  PORT: process.env.E2E_PORT ?? '3100',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};

/** Drops the database made for this run, once the server has stopped (none on the embedded engine). */
let dropDatabase = async () => {};

if (process.env.DATABASE_URL) {
  const name = `wellrest_e2e_${Date.now()}_${process.pid}`;
  const serverUrl = process.env.DATABASE_URL;
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    try {
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch (error) {
      console.error(`could not drop the test database ${name}: ${error.message}`);
    } finally {
      await client.end().catch(() => {});
    }
  };
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  const seed = spawnSync(process.execPath, [join(root, 'packages/api/dist/cli/seed-demo.js')], {
    env,
    stdio: 'inherit',
  });
  if (seed.status !== 0) process.exit(seed.status ?? 1);
} else {
  env.WELLREST_DATA_DIR = mkdtempSync(join(tmpdir(), 'wellrest-e2e-'));
  env.WELLREST_SEED_DEMO = 'true';
}

const server = spawn(process.execPath, [join(root, 'packages/api/dist/server.js')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  void dropDatabase().finally(() => process.exit(code ?? 0));
});
