import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { type Database, type Engine, openDatabase } from '../../db/connect.js';
import { migrate } from '../../db/migrate.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { createLogger } from '../../logger.js';
import { TEST_JOB_OPTIONS } from '../../test/job-options.js';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { freshDatabase, testConfig } from '../../test/server.js';
import { type FakeSmtp, startFakeSmtp } from '../../test/smtp-fake.js';
import { updateMessagingSettings } from '../deliveries/settings.js';
import { insertUser } from '../users/store.js';
import { newWebhookSalt } from './store.js';

// A process killed in the middle of a run: a worker commits the email step of a run (the email is
// queued with its idempotency key, the next step queued) and is killed (SIGKILL) before its job
// completes. Another process takes over: the expired step job finds its step done, the delivery
// is sent once, the run goes on to its end. Exactly one email arrives.

const engines: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const here = path.dirname(fileURLToPath(import.meta.url));
const WORKER = path.join(here, '../../test/workflow-worker.ts');
const TSCONFIG = path.join(here, '../../test/tsconfig.worker.json');
const SECRET = randomBytes(32).toString('hex');
const EXPIRE_SECONDS = 2;

function runWorker(env: Record<string, string>): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      env: { ...process.env, ...env, TSX_TSCONFIG_PATH: TSCONFIG, WELLREST_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, output });
    });
  });
}

describe.each(engines)('a workflow run survives a killed process on %s', (engine) => {
  let smtp: FakeSmtp | undefined;
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await smtp?.close();
  });

  it('resumes after the kill without sending the email twice', async () => {
    smtp = await startFakeSmtp();
    let open: () => Promise<Database>;
    let workerEnv: Record<string, string>;
    if (engine === 'postgres') {
      const fresh = await freshDatabase('postgres');
      cleanups.push(fresh.dispose);
      open = async () => fresh.db;
      workerEnv = { DATABASE_URL: fresh.url as string };
    } else {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-wf-crash-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const prepared = await openDatabase({ dataDir: dir });
      await migrate(prepared.knex);
      await prepared.close();
      open = () => openDatabase({ dataDir: dir });
      workerEnv = { DATABASE_URL: '', WELLREST_DATA_DIR: dir };
    }
    Object.assign(workerEnv, { STEP_EXPIRE_SECONDS: String(EXPIRE_SECONDS), KILL_AFTER_NODE: 'email' });

    // The practice: SMTP set up, an administrator who enabled "booking created → email → notify".
    let db = await open();
    await updateMessagingSettings(
      db.knex,
      SECRET,
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
    const admin = await insertUser(db.knex, {
      username: 'crash-admin',
      email: 'crash-admin@wellrest.test',
      role: 'admin',
      password: 'crash-password-123',
    });
    const template = await db.knex('message_templates').where({ key: 'pickup-reminder-email' }).first('id');
    const graph = {
      nodes: [
        { id: 't', type: 'trigger', position: { x: 0, y: 0 }, trigger: { kind: 'booking.created' } },
        {
          id: 'email',
          type: 'action',
          position: { x: 0, y: 0 },
          action: { kind: 'send_email', templateId: template.id, to: 'patient', address: '' },
        },
        {
          id: 'done',
          type: 'action',
          position: { x: 0, y: 0 },
          action: {
            kind: 'notify',
            to: 'role',
            role: 'scheduler',
            userId: null,
            title: 'Reminder sent',
            body: '',
          },
        },
      ],
      edges: [
        { id: 'e1', source: 't', target: 'email', sourceHandle: null },
        { id: 'e2', source: 'email', target: 'done', sourceHandle: null },
      ],
    };
    const [workflow] = await db
      .knex('workflows')
      .insert({
        name: 'Remind once',
        status: 'enabled',
        graph: JSON.stringify(graph),
        trigger_kind: 'booking.created',
        version: 1,
        webhook_salt: newWebhookSalt(),
        enabled_by: admin.id,
        enabled_at: db.knex.fn.now(),
      })
      .returning('id');
    await db.knex('workflow_versions').insert({
      workflow_id: workflow.id,
      version: 1,
      graph: JSON.stringify(graph),
      trigger_kind: 'booking.created',
    });
    const [kit] = await insertKits(db.knex, 'Somfit', 1);
    const patient = await insertPatient(db.knex, { name: 'Jordan Rivera', email: 'jordan@example.test' });
    await db.knex.transaction(async (trx) => {
      const bookingId = await insertBooking(trx, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(0),
      });
      await writeOutbox(trx, 'booking.created', { bookingId, from: null, to: 'confirmed' });
    });
    if (engine === 'pglite') await db.close();

    const crashed = await runWorker(workerEnv);
    expect(crashed.output).toContain('committed');
    expect(crashed.signal).toBe('SIGKILL');

    // Another process takes over.
    if (engine === 'pglite') db = await open();
    const app = await createApp({
      config: testConfig({ secret: SECRET }),
      db,
      logger: createLogger('silent'),
      jobs: { ...TEST_JOB_OPTIONS, workflows: { stepExpireInSeconds: EXPIRE_SECONDS, stepRetryDelay: 1 } },
    });
    const { jobs } = app.context.services;
    cleanups.push(async () => {
      await jobs.stop(1000);
      if (engine === 'pglite') await db.close();
    });
    await jobs.start();
    const deadline = Date.now() + 90_000;
    let run: { id: number; status: string } | undefined;
    for (;;) {
      run = await db.knex('workflow_runs').where({ workflow_id: workflow.id }).first('id', 'status');
      const stepJobs = await db.knex.raw(
        `SELECT state FROM pgboss.job WHERE name = 'workflow-step' AND state NOT IN ('completed')`,
      );
      if (
        (run?.status === 'completed' && stepJobs.rows.length === 0 && smtp.received.length > 0) ||
        Date.now() > deadline
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(run?.status).toBe('completed');
    // Give a stray second send every chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.to).toEqual(['jordan@example.test']);
    const steps = await db
      .knex('workflow_run_steps')
      .where({ run_id: run?.id })
      .orderBy('id')
      .select('node_id', 'status', 'attempts');
    expect(steps).toEqual([
      { node_id: 'email', status: 'completed', attempts: 1 },
      { node_id: 'done', status: 'completed', attempts: 1 },
    ]);
    const deliveries = await db
      .knex('deliveries')
      .where({ idempotency_key: `workflow-run:${run?.id}:email` });
    expect(deliveries.map((d) => d.status)).toEqual(['sent']);
    // The email step's job was the one cut short: it expired, was retried, and found its work done.
    const emailJobs = await db.knex.raw(
      `SELECT retry_count, output FROM pgboss.job WHERE name = 'workflow-step' AND retry_count > 0`,
    );
    expect(emailJobs.rows).toEqual([{ retry_count: 1, output: { skipped: 'completed' } }]);
  }, 420_000);
});
