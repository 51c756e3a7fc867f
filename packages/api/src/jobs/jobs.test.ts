import type { Knex } from 'knex';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Database, Engine } from '../db/connect.js';
import { JOB_SCHEMA } from '../db/migrations/0750_job_queue.js';
import { createLogger } from '../logger.js';
import { freshDatabase } from '../test/server.js';
import { CRON_QUEUE, deadLetterOf, type Job, Jobs } from './jobs.js';
import { Outbox, type OutboxJobData, writeOutbox } from './outbox.js';

// The job queue on both engines: retries with backoff, dead letters, singletons, delayed jobs,
// restarts, several processes sharing one queue, and the outbox.
const engines: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const logger = createLogger('silent');
const FAST = {
  timeZone: 'America/New_York',
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
  poolMax: 2,
};

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(engines)('job queue on %s', (engine) => {
  let db: Database;
  let dispose: () => Promise<void>;
  let url: string | undefined;
  const running: Jobs[] = [];

  beforeEach(async () => {
    ({ db, dispose, url } = await freshDatabase(engine));
  });
  afterEach(async () => {
    for (const jobs of running.splice(0)) await jobs.stop(1000);
    await dispose();
  });

  const queue = (options = {}) => {
    const jobs = new Jobs(db, logger, { ...FAST, ...options });
    running.push(jobs);
    return jobs;
  };

  /** Queues `count` jobs `{ i }` on `name` while no process works that queue; their ids. */
  const queueWhileNoneWorks = async (name: string, count: number): Promise<string[]> => {
    const first = queue();
    first.define({ name: 'other', handler: async () => undefined });
    const boss = await first.start();
    await boss.createQueue(name, { name });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await boss.send(name, { i })) as string);
    await first.stop(1000);
    return ids;
  };

  it('retries a failing job with growing delays, then succeeds', async () => {
    const runs: number[] = [];
    const jobs = queue();
    jobs.define({
      name: 'flaky',
      retryLimit: 3,
      retryDelay: 1,
      handler: async () => {
        runs.push(Date.now());
        if (runs.length < 3) throw new Error('not yet');
        return { ok: true };
      },
    });
    const id = await jobs.send('flaky', {});
    const job = await until(
      () => jobs.getJob('flaky', id as string),
      (j) => j?.state === 'completed',
    );
    expect(job?.state).toBe('completed');
    expect(job?.output).toEqual({ ok: true });
    expect(runs).toHaveLength(3);
    // Exponential backoff: base 1 s doubled (with jitter between half and the full delay).
    const [first = 0, second = 0, third = 0] = runs;
    expect(second - first).toBeGreaterThanOrEqual(900);
    expect(third - second).toBeGreaterThanOrEqual(1900);
  }, 120_000);

  it('copies a job that fails every retry to its dead-letter queue', async () => {
    const jobs = queue();
    jobs.define({
      name: 'doomed',
      retryLimit: 1,
      retryDelay: 0,
      handler: async () => {
        throw new Error('always');
      },
    });
    const id = await jobs.send('doomed', { bookingId: 7 });
    const failed = await until(
      () => jobs.getJob('doomed', id as string),
      (j) => j?.state === 'failed',
    );
    expect(failed?.state).toBe('failed');
    expect(failed?.retryCount).toBe(1);
    const boss = await jobs.start();
    const dead = await until(
      () => boss.fetch<{ bookingId: number }>(deadLetterOf('doomed')),
      (found) => found.length > 0,
    );
    expect(dead.map((j) => j.data)).toEqual([{ bookingId: 7 }]);
  }, 120_000);

  it('keeps one waiting job per singletonKey and holds a delayed job until its start time', async () => {
    const ran: string[] = [];
    const jobs = queue();
    jobs.define<{ tag: string }>({
      name: 'later',
      // At most one waiting and one running job per singletonKey.
      policy: 'stately',
      handler: async (job) => {
        ran.push(job.data.tag);
      },
    });
    const startAfter = new Date(Date.now() + 8000);
    const first = await jobs.send('later', { tag: 'a' }, { singletonKey: 'booking-1', startAfter });
    const second = await jobs.send('later', { tag: 'b' }, { singletonKey: 'booking-1', startAfter });
    const otherKey = await jobs.send('later', { tag: 'c' }, { singletonKey: 'booking-2', startAfter });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(otherKey).not.toBeNull();
    // Until shortly before its start time, nothing has run.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, startAfter.getTime() - Date.now() - 1500)),
    );
    expect(ran).toEqual([]);
    const done = await until(
      () => jobs.getJob('later', first as string),
      (j) => j?.state === 'completed',
    );
    expect(done?.state).toBe('completed');
    await until(
      async () => ran.length,
      (n) => n >= 2,
    );
    expect(ran.sort()).toEqual(['a', 'c']);
    expect(Date.now()).toBeGreaterThanOrEqual(startAfter.getTime());
  }, 120_000);

  it('keeps jobs across a restart, and two processes share a queue running each job once', async () => {
    // "Process" one queues work but does not work that queue, and stops.
    const ids = await queueWhileNoneWorks('shared', 12);

    // Two more start on the same database and work the queue together.
    const seen: Array<{ worker: string; i: number }> = [];
    const workers = ['one', 'two'].map((worker) => {
      const jobs = queue();
      jobs.define<{ i: number }>({
        name: 'shared',
        handler: async (job) => {
          seen.push({ worker, i: job.data.i });
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
      });
      return jobs;
    });
    await Promise.all(workers.map((w) => w.start()));
    await until(
      async () => seen.length,
      (n) => n >= 12,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(seen.map((s) => s.i).sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    const [one] = workers;
    for (const id of ids) expect((await one?.getJob('shared', id))?.state).toBe('completed');
  }, 40_000);

  it('works off a backlog job after job, waiting for the polling interval only when none is left', async () => {
    // Thirty jobs queued while no worker runs (a burst of changes, or a restart), and a polling
    // interval far longer than the whole test: a worker that waited for it after each job would
    // have worked one of them.
    await queueWhileNoneWorks('backlog', 30);

    const done: number[] = [];
    const jobs = queue({ pollingIntervalSeconds: 120 });
    jobs.define<{ i: number }>({ name: 'backlog', handler: async (job) => void done.push(job.data.i) });
    await jobs.start();
    await until(
      async () => done.length,
      (n) => n >= 30,
      30_000,
    );
    expect(done.sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
  }, 60_000);

  it("takes a quick queue's jobs several at a time, and fails the ones a stop leaves unfinished", async () => {
    await queueWhileNoneWorks('quick', 5);

    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ran: number[] = [];
    const jobs = queue({ pollingIntervalSeconds: 120 });
    jobs.define<{ i: number }>({
      name: 'quick',
      fetchBatch: 5,
      retryLimit: 3,
      handler: async (job) => {
        ran.push(job.data.i);
        if (ran.length === 2) await gate;
      },
    });
    await jobs.start();
    await until(
      async () => ran.length,
      (n) => n >= 2,
    );
    const states = async () =>
      Object.fromEntries(
        (
          (await db.knex
            .withSchema(JOB_SCHEMA)
            .from('job')
            .where({ name: 'quick' })
            .groupBy('state')
            .select('state', db.knex.raw('count(*)::int AS n'))) as { state: string; n: number }[]
        ).map((row) => [row.state, row.n]),
      );
    // The five were taken in one statement: the first is done, the other four are the worker's.
    expect(await states()).toEqual({ completed: 1, active: 4 });
    // The second never ends before the stop's time is up: it and the three not started are
    // failed, to be retried, rather than left active until they expire.
    await jobs.stop(500);
    release();
    expect(await states()).toEqual({ completed: 1, retry: 4 });
  });

  it.runIf(engine === 'postgres')(
    'keeps working when the database goes away as a job finishes, and runs that job again',
    async () => {
      // The handler finishes just as the queue's connections are cut and no new one is let in
      // (as while PostgreSQL shuts down): marking the job fails, and the process must go on.
      const database = new URL(url as string).pathname.slice(1);
      // A database's own connections cannot shut it: this runs on the server's first database.
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      onTestFinished(() => admin.end());
      const cut = async (allow: boolean) => {
        await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS ${allow}`);
        if (!allow)
          await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'wellrest-jobs' AND datname = $1",
            [database],
          );
      };
      const runs: string[] = [];
      const jobs = queue();
      jobs.define<{ n: number }>({
        name: 'cut-off',
        expireInSeconds: 2,
        handler: async (job) => {
          runs.push(`${job.data.n}:${job.retryCount}`);
          if (runs.length === 1) await cut(false);
          return { n: job.data.n };
        },
      });
      const first = await jobs.send('cut-off', { n: 1 });
      await until(
        async () => runs.length,
        (n) => n >= 1,
      );
      // Out of reach for a few polls, then back.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await cut(true);
      const second = await jobs.send('cut-off', { n: 2 });
      const [one, two] = await Promise.all(
        [first, second].map((id) =>
          until(
            () => jobs.getJob('cut-off', id as string),
            (job) => job?.state === 'completed',
          ),
        ),
      );
      expect(two?.output).toEqual({ n: 2 });
      // The first job could not be marked: it expired and ran again.
      expect(one?.output).toEqual({ n: 1 });
      expect(runs).toContain('2:0');
      expect(runs.filter((run) => run.startsWith('1:')).length).toBeGreaterThanOrEqual(2);
    },
    60_000,
  );

  it('schedules cron jobs in the practice time zone, and queues each one that falls due', async () => {
    const jobs = queue({ timeZone: 'America/Chicago' });
    const ran: unknown[] = [];
    jobs.define({ name: 'nightly', handler: async (job) => void ran.push(job.data) });
    jobs.schedule('nightly', '0 2 * * *');
    const boss = await jobs.start();
    const schedules = await boss.getSchedules();
    expect(schedules).toEqual([
      expect.objectContaining({
        name: 'nightly',
        cron: '0 2 * * *',
        options: expect.objectContaining({ tz: 'America/Chicago' }),
      }),
    ]);
    // At 2 a.m. pg-boss's cron puts the job on its queue of jobs that fell due, as here.
    await jobs.send(CRON_QUEUE, { name: 'nightly', data: { at: '02:00' } });
    await until(
      async () => ran.length,
      (n) => n >= 1,
      20_000,
    );
    expect(ran).toEqual([{ at: '02:00' }]);
  });

  it('dispatches an outbox event once when its transaction commits, never when it rolls back', async () => {
    const knex: Knex = db.knex;
    const jobs = queue();
    const received: OutboxJobData[] = [];
    jobs.define<OutboxJobData>({
      name: 'on-kit-returned',
      handler: async (job: Job<OutboxJobData>) => {
        received.push(job.data);
      },
    });
    const outbox = new Outbox(knex, jobs, logger, 100);
    outbox.subscribe('kit.returned', 'on-kit-returned');
    await jobs.start();

    await knex
      .transaction(async (trx) => {
        await writeOutbox(trx, 'kit.returned', { kitId: 1 });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    const committed = await knex.transaction((trx) => writeOutbox(trx, 'kit.returned', { kitId: 2 }));
    await until(
      async () => received.length,
      (n) => n >= 1,
    );
    // Two more dispatch passes find nothing new.
    await outbox.dispatchPending();
    await outbox.dispatchPending();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(received).toEqual([{ eventId: committed, topic: 'kit.returned', payload: { kitId: 2 } }]);
    const pending = await knex('outbox_events').whereNull('dispatched_at').count({ n: '*' });
    expect(Number(pending[0]?.n)).toBe(0);
  }, 120_000);
});
