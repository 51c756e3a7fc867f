import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { type Database, type Engine, openDatabase } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { updateMessagingSettings } from '../modules/deliveries/settings.js';
import { freshDatabase } from './server.js';
import type { FakeSmtp } from './smtp-fake.js';

// What the tests of a worker process killed mid-job share: the engines, a database two
// processes can open one after the other, the worker process itself, and mail settings.

/** The embedded engine always; a PostgreSQL server as well when DATABASE_URL names one. */
export const CRASH_ENGINES: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** The secret the test and its worker process share (sealed settings). */
export const CRASH_SECRET = randomBytes(32).toString('hex');

const here = path.dirname(fileURLToPath(import.meta.url));
const TSCONFIG = path.join(here, 'tsconfig.worker.json');

type Cleanups = Array<() => Promise<void> | void>;

/**
 * A database the test and a worker process share: a fresh server database, or an embedded one
 * on disk (migrated, then closed: the embedded engine is one process's at a time). `open` gives
 * the test its handle; `workerEnv` points a worker at the same database.
 */
export async function sharedDatabase(
  engine: Engine,
  cleanups: Cleanups,
): Promise<{ open: () => Promise<Database>; workerEnv: Record<string, string> }> {
  if (engine === 'postgres') {
    const fresh = await freshDatabase('postgres');
    cleanups.push(fresh.dispose);
    return { open: async () => fresh.db, workerEnv: { DATABASE_URL: fresh.url as string } };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-crash-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const prepared = await openDatabase({ dataDir: dir });
  await migrate(prepared.knex);
  await prepared.close();
  return {
    open: () => openDatabase({ dataDir: dir }),
    workerEnv: { DATABASE_URL: '', WELLREST_DATA_DIR: dir },
  };
}

/** Runs `worker` (a file under src/test) to its end or its kill, with what it printed. */
export function runWorker(
  worker: string,
  env: Record<string, string>,
): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, worker)], {
      env: { ...process.env, ...env, TSX_TSCONFIG_PATH: TSCONFIG, WELLREST_SECRET: CRASH_SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, output });
    });
  });
}

/** The practice's outgoing mail set to the local SMTP server. */
export async function useSmtp(db: Knex, smtp: FakeSmtp): Promise<void> {
  await updateMessagingSettings(
    db,
    CRASH_SECRET,
    {
      smtpHost: smtp.host,
      smtpPort: smtp.port,
      smtpUser: smtp.user,
      smtpPassword: smtp.password,
      smtpCaPem: smtp.cert,
      fromAddress: 'care@wellrest.example',
    },
    null,
  );
}
