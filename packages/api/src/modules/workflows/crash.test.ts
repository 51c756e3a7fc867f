import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { createLogger } from '../../logger.js';
import { CRASH_ENGINES, CRASH_SECRET, runWorker, sharedDatabase, useSmtp } from '../../test/crash.js';
import { TEST_JOB_OPTIONS } from '../../test/job-options.js';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { testConfig } from '../../test/server.js';
import { type FakeSmtp, startFakeSmtp } from '../../test/smtp-fake.js';
import { insertUser } from '../users/store.js';
import { newWebhookSalt } from './store.js';

// A process killed in the middle of a run: a worker commits the email step of a run (the email is
// queued with its idempotency key, the next step queued) and is killed (SIGKILL) before its job
// completes. Another process takes over: the expired step job finds its step done, the delivery
// is sent once, the run goes on to its end. Exactly one email arrives.

const EXPIRE_SECONDS = 2;

describe.each(CRASH_ENGINES)('a workflow run survives a killed process on %s', (engine) => {
  let smtp: FakeSmtp | undefined;
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await smtp?.close();
  });

  it('resumes after the kill without sending the email twice', async () => {
    smtp = await startFakeSmtp();
    const { open, workerEnv } = await sharedDatabase(engine, cleanups);
    Object.assign(workerEnv, { STEP_EXPIRE_SECONDS: String(EXPIRE_SECONDS), KILL_AFTER_NODE: 'email' });

    // The practice: SMTP set up, an administrator who enabled "booking created → email → notify".
    let db = await open();
    await useSmtp(db.knex, smtp);
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

    const crashed = await runWorker('workflow-worker.ts', workerEnv);
    expect(crashed.output).toContain('committed');
    expect(crashed.signal).toBe('SIGKILL');

    // Another process takes over.
    if (engine === 'pglite') db = await open();
    const app = await createApp({
      config: testConfig({ secret: CRASH_SECRET }),
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
