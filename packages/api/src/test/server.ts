import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type CurrentUser, ROLES, type Role } from '@wellrest/core';
import type { Knex } from 'knex';
import pg from 'pg';
import { type App, createApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { createPglite, type Database, knexForPglite, openDatabase } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { migrationsFingerprint } from '../db/migrations/index.js';
import { DEMO_PASSWORD } from '../db/seed/plan.js';
import type { Jobs } from '../jobs/jobs.js';
import type { JobRuntimeOptions } from '../jobs/runtime.js';
import { createLogger } from '../logger.js';
import type { WorkflowEngine } from '../modules/workflows/engine.js';
import { documentedAnswerCheck } from './documented-answers.js';
import { TEST_JOB_OPTIONS } from './job-options.js';

export { TEST_JOB_OPTIONS };

import { insertUser, toCurrentUser } from '../modules/users/store.js';

// getTestServer(): the real app, on a real HTTP port, over its own freshly migrated database.
// With DATABASE_URL set, every server gets a new PostgreSQL database copied from a template
// migrated once per run; otherwise an embedded database restored from a snapshot migrated once
// per worker. Tests never share data and never mock the database or the API.

export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  /** The raw text of the answer (HTML pages, plain text). */
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is with a JSON content type (e.g. to send malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** A `name=value` cookie header. */
  cookie?: string;
}

export type RequestFn = <T = Record<string, unknown>>(
  method: string,
  path: string,
  options?: RequestOptions,
) => Promise<TestResponse<T>>;

export interface TestUser extends CurrentUser {
  password: string;
}

/** A signed-in client: every request carries its session cookie. */
export interface Agent {
  user: CurrentUser;
  /** The session cookie as sent (`wellrest_session=...`). */
  cookie: string;
  request: RequestFn;
}

export interface TestServer {
  url: string;
  db: Knex;
  /** Where the statements kept on their generic plan run (db/connect.ts); `db` on the embedded database. */
  genericPlans: Knex;
  engine: Database['engine'];
  config: Config;
  request: RequestFn;
  loginAs(usernameOrRole: string): Promise<Agent>;
  createUser(input: { role: Role; username?: string; email?: string; password?: string }): Promise<TestUser>;
  /** The server's job queue. */
  jobs: Jobs;
  /** The server's workflow engine (its scan is the periodic job's tick). */
  workflows: WorkflowEngine;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Overrides of the test configuration (e.g. a short idle timeout or a static directory). */
  config?: Partial<Config>;
  /** Receives the log lines (JSON, one per line) instead of discarding them. */
  logLines?: string[];
  /** Adds middleware or routes after the app's own, before it starts listening. */
  extend?: (app: App) => void;
  /** Starts the job queue with these timings (otherwise it starts on first use, with them too). */
  jobs?: JobRuntimeOptions & { start?: boolean };
}

const TEST_PASSWORD = 'test-password-123';

let pgliteSnapshot: Promise<Blob> | undefined;

/** An embedded database migrated once per worker, kept as a snapshot to restore for each server. */
function migratedPgliteSnapshot(): Promise<Blob> {
  pgliteSnapshot ??= (async () => {
    const pglite = createPglite({ dataDir: 'memory' });
    // Wait for initdb here: on a busy machine it can outlast Knex's wait for a connection.
    await pglite.waitReady;
    const knex = knexForPglite(pglite);
    try {
      await migrate(knex);
      return await pglite.dumpDataDir('none');
    } finally {
      await knex.destroy();
    }
  })();
  return pgliteSnapshot;
}

export function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdminClient<T>(baseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const TEMPLATE_PREFIX = 'wellrest_test_template_';
/**
 * Templates are named per checkout, so test runs of two checkouts sharing one server (a second
 * working copy, CI beside a developer) never drop each other's template as stale.
 */
const CHECKOUT_TAG = createHash('sha256')
  .update(path.resolve(import.meta.dirname, '../../../..'))
  .digest('hex')
  .slice(0, 8);
// An arbitrary constant naming the advisory lock that serialises template preparation.
const TEMPLATE_LOCK_KEY = 72_011_001;

let postgresTemplate: Promise<string> | undefined;

/**
 * A database migrated to the current migrations, named after their fingerprint. Prepared once
 * per run (under an advisory lock, so parallel workers wait for one another), then copied.
 */
function migratedPostgresTemplate(baseUrl: string): Promise<string> {
  postgresTemplate ??= withAdminClient(baseUrl, async (client) => {
    const name = `${TEMPLATE_PREFIX}${CHECKOUT_TAG}_${migrationsFingerprint()}`;
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        // Templates of this checkout's earlier migration sets are obsolete.
        const stale = await client.query<{ datname: string }>(
          'SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2',
          [`${TEMPLATE_PREFIX}${CHECKOUT_TAG}_%`, name],
        );
        for (const { datname } of stale.rows)
          await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
        // Build under a temporary name and rename when complete: a half-built template is never used.
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        await client.query(`CREATE DATABASE "${building}"`);
        const db = await openDatabase({ databaseUrl: databaseUrlFor(baseUrl, building), poolMax: 1 });
        try {
          await migrate(db.knex);
        } finally {
          await db.close();
        }
        await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
    return name;
  });
  return postgresTemplate;
}

/** A fresh PostgreSQL database copied from the template; dropped again by the returned close(). */
async function freshPostgresDatabase(
  baseUrl: string,
): Promise<{ db: Database; url: string; drop: () => Promise<void> }> {
  const template = await migratedPostgresTemplate(baseUrl);
  const name = `wellrest_t_${randomBytes(6).toString('hex')}`;
  await withAdminClient(baseUrl, async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        // Copies of one template are serialised by the server; retry when another copy is running.
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  const url = databaseUrlFor(baseUrl, name);
  const db = await openDatabase({ databaseUrl: url, poolMax: 4 });
  return {
    db,
    url,
    drop: () =>
      withAdminClient(baseUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => {}),
  };
}

/**
 * A fresh, migrated, empty database: on the PostgreSQL server of DATABASE_URL when set (or when
 * asked for 'postgres'), else embedded. `dispose()` closes it and drops it.
 */
export async function freshDatabase(
  engine: Database['engine'] = process.env.DATABASE_URL ? 'postgres' : 'pglite',
): Promise<{ db: Database; dispose: () => Promise<void>; url?: string }> {
  if (engine === 'postgres') {
    const baseUrl = process.env.DATABASE_URL;
    if (!baseUrl) throw new Error('a PostgreSQL test database needs DATABASE_URL');
    const { db, url, drop } = await freshPostgresDatabase(baseUrl);
    return {
      db,
      url,
      dispose: async () => {
        await db.close();
        await drop();
      },
    };
  }
  const db = await openDatabase({ dataDir: 'memory', loadDataDir: await migratedPgliteSnapshot() });
  return { db, dispose: () => db.close() };
}

/** The configuration tests run with: silent logs, a random secret, no console build. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    secret: randomBytes(32).toString('hex'),
    staticDir: path.join(os.tmpdir(), 'wellrest-test-no-console'),
    widgetsDir: path.join(os.tmpdir(), 'wellrest-test-no-widgets'),
    ...overrides,
  };
}

function cookieFrom(headers: Headers): string | undefined {
  for (const header of headers.getSetCookie()) {
    const [pair] = header.split(';');
    if (pair?.startsWith('wellrest_session=')) return pair;
  }
  return undefined;
}

/** Checks one answer against the API description; throws when it does not match. */
type AnswerCheck = ReturnType<typeof documentedAnswerCheck>;

function requester(
  baseUrl: string,
  defaults: () => { cookie?: string | undefined },
  check?: AnswerCheck,
): RequestFn {
  return async <T>(method: string, urlPath: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const cookie = options.cookie ?? defaults().cookie;
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${baseUrl}${urlPath}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    // JSON and its suffixed kinds (application/fhir+json).
    if (/^application\/([\w.-]+\+)?json\b/.test(response.headers.get('content-type') ?? '') && text !== '')
      parsed = JSON.parse(text);
    check?.(
      method.toUpperCase(),
      response.url || `${baseUrl}${urlPath}`,
      response.status,
      response.headers,
      parsed,
    );
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  };
}

export async function getTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const config = testConfig(options.config);
  const { db, dispose } = await freshDatabase();
  const logLines = options.logLines;
  const logger = logLines
    ? createLogger('debug', { write: (line: string) => void logLines.push(line) })
    : createLogger(config.logLevel);
  const { start: startJobs, ...jobOptions } = options.jobs ?? {};
  const app = await createApp({ config, db, logger, jobs: { ...TEST_JOB_OPTIONS, ...jobOptions } });
  const { jobs } = app.context.services;
  if (startJobs) await jobs.start();
  options.extend?.(app);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Every answer a test receives is checked against the API description.
  const request = requester(url, () => ({}), documentedAnswerCheck());
  const passwords = new Map<string, string>();

  const createUser: TestServer['createUser'] = async (input) => {
    const username = input.username ?? `${input.role.replaceAll('_', '-')}-${randomUUID().slice(0, 8)}`;
    const password = input.password ?? TEST_PASSWORD;
    const row = await insertUser(db.knex, {
      username,
      email: input.email ?? `${username}@wellrest.test`,
      role: input.role,
      password,
    });
    passwords.set(username.toLowerCase(), password);
    return { ...toCurrentUser(row), password };
  };

  const loginAs: TestServer['loginAs'] = async (usernameOrRole) => {
    const isRole = (ROLES as readonly string[]).includes(usernameOrRole);
    const username = isRole ? (await createUser({ role: usernameOrRole as Role })).username : usernameOrRole;
    const password = passwords.get(username.toLowerCase()) ?? DEMO_PASSWORD;
    const response = await request<{ success: boolean; user: CurrentUser }>('POST', '/api/auth/login', {
      body: { username, password },
    });
    const cookie = cookieFrom(response.headers);
    if (response.status !== 200 || !cookie) {
      throw new Error(`login as ${username} failed with status ${response.status}`);
    }
    const agent: Agent = {
      user: response.body.user,
      cookie,
      request: async <T>(method: string, urlPath: string, requestOptions?: RequestOptions) => {
        const answer = await request<T>(method, urlPath, { cookie: agent.cookie, ...requestOptions });
        const renewed = cookieFrom(answer.headers);
        if (renewed !== undefined) agent.cookie = renewed;
        return answer;
      },
    };
    return agent;
  };

  return {
    url,
    db: db.knex,
    genericPlans: db.genericPlans ?? db.knex,
    engine: db.engine,
    config,
    request,
    loginAs,
    createUser,
    jobs,
    workflows: app.context.services.workflows,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobs.stop(2000);
      await dispose();
    },
  };
}
