import { afterEach, describe, expect, it } from 'vitest';
import { createJobRuntime } from '../../jobs/runtime.js';
import { createLogger } from '../../logger.js';
import { CRASH_ENGINES, CRASH_SECRET, runWorker, sharedDatabase, useSmtp } from '../../test/crash.js';
import { TEST_JOB_OPTIONS } from '../../test/job-options.js';
import { type FakeSmtp, startFakeSmtp } from '../../test/smtp-fake.js';
import { DELIVERY_QUEUE, requestDelivery } from './service.js';

// Idempotency under a killed worker: a worker process records a delivery as sent and is killed
// (SIGKILL) before its job completes. The job expires and is retried by another process, which
// finds the delivery sent and does not send it again: exactly one message arrives.

const EXPIRE_SECONDS = 2;

describe.each(CRASH_ENGINES)('delivery idempotency under a killed worker on %s', (engine) => {
  let smtp: FakeSmtp | undefined;
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await smtp?.close();
  });

  it('sends exactly one message when the worker dies between "sent" and "job completed"', async () => {
    smtp = await startFakeSmtp();
    // The database the two processes share: a server database, or an embedded one on disk.
    const { open, workerEnv } = await sharedDatabase(engine, cleanups);
    workerEnv.DELIVERY_EXPIRE_SECONDS = String(EXPIRE_SECONDS);

    let db = await open();
    await useSmtp(db.knex, smtp);
    const { id } = await db.knex.transaction((trx) =>
      requestDelivery(trx, {
        channel: 'email',
        recipient: 'once@example.test',
        content: { subject: 'Exactly once', text: 'One copy only.' },
        containsPhi: false,
        idempotencyKey: 'crash-test-key',
      }),
    );
    // The embedded engine is one process's at a time: hand it to the worker.
    if (engine === 'pglite') await db.close();

    const crashed = await runWorker('delivery-worker.ts', workerEnv);
    expect(crashed.output).toContain(`sent ${id}`);
    expect(crashed.signal).toBe('SIGKILL');
    expect(smtp.received).toHaveLength(1);

    // Another process takes over: the job it finds active expires, is retried, and sends nothing.
    if (engine === 'pglite') db = await open();
    const runtime = createJobRuntime(
      { db, logger: createLogger('silent'), secret: CRASH_SECRET, timeZone: 'America/New_York' },
      { ...TEST_JOB_OPTIONS, deliveryExpireInSeconds: EXPIRE_SECONDS },
    );
    cleanups.push(async () => {
      await runtime.jobs.stop(1000);
      if (engine === 'pglite') await db.close();
    });
    const boss = await runtime.jobs.start();
    const deadline = Date.now() + 60_000;
    let states: string[] = [];
    for (;;) {
      const jobs = await db.knex.raw(`SELECT state, retry_count FROM pgboss.job WHERE name = ?`, [
        DELIVERY_QUEUE,
      ]);
      states = (jobs.rows as { state: string }[]).map((j) => j.state);
      if (states.includes('completed') || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(states).toEqual(['completed']);
    const job = (
      await db.knex.raw(`SELECT id, output, retry_count FROM pgboss.job WHERE name = ?`, [DELIVERY_QUEUE])
    ).rows[0] as { id: string; output: unknown; retry_count: number };
    expect(job.retry_count).toBe(1);
    expect(job.output).toEqual({ skipped: 'sent' });
    expect(boss).toBeDefined();
    // Give a stray second send every chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.parsed.subject).toBe('Exactly once');
    const row = await db.knex('deliveries').where({ id }).first('status', 'attempts');
    expect(row).toEqual({ status: 'sent', attempts: 1 });
  }, 420_000);
});
