import PgBoss from 'pg-boss';
import type { Database } from '../db/connect.js';
import { JOB_SCHEMA } from '../db/migrations/0750_job_queue.js';
import type { Logger } from '../logger.js';
import { knexSql } from './sql.js';

// The durable job queue: one pg-boss per API process, on the app's database (its own pool on a
// PostgreSQL server; the app's single connection on the embedded engine). Jobs survive restarts,
// several processes share them and each job runs once; failed jobs retry with exponential
// backoff and, once out of retries, are copied to the queue's dead-letter queue.

export type Job<T extends object = Record<string, unknown>> = PgBoss.JobWithMetadata<T>;

export interface QueueDefinition<T extends object = Record<string, unknown>> {
  name: string;
  /** Retries after the first failure (default 5). */
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time (default 10). */
  retryDelay?: number;
  /** How long one run may take before it counts as failed (default 15 min). */
  expireInSeconds?: number;
  /** `singleton`: at most one job of the queue waiting at a time; `stately`: one waiting and one active. */
  policy?: PgBoss.QueuePolicy;
  /**
   * Jobs a worker takes in one statement (default 1), run one after the other: for quick handlers
   * only, as the ones taken wait while the others run, and their time to expire runs meanwhile.
   */
  fetchBatch?: number;
  handler(job: Job<T>): Promise<unknown>;
}

export interface JobsOptions {
  /** The practice time zone: cron schedules run on its clock. */
  timeZone: string;
  /** How often idle workers look for jobs (seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** How often expired jobs are retried and old ones archived (seconds). */
  maintenanceIntervalSeconds?: number;
  /** Connections of the queue's own pool on a PostgreSQL server. */
  poolMax?: number;
}

interface Schedule {
  name: string;
  cron: string;
  data: object;
}

/** pg-boss's queue of cron jobs that fell due, and how often it is looked at (its default). */
export const CRON_QUEUE = '__pgboss__send-it';
const CRON_POLLING_SECONDS = 5;

/** The dead-letter queue of a queue. */
export const deadLetterOf = (name: string): string => `${name}-dead`;

export class Jobs {
  private readonly queues = new Map<string, QueueDefinition<object>>();
  private readonly schedules: Schedule[] = [];
  private readonly workers = new Map<string, Worker>();
  private readonly startListeners: Array<() => void> = [];
  private readonly stopListeners: Array<() => Promise<void> | void> = [];
  private starting: Promise<PgBoss> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: JobsOptions,
  ) {}

  /** Declares a queue and the handler that works it. Before `start()`. */
  define<T extends object>(definition: QueueDefinition<T>): void {
    if (this.starting) throw new Error(`queue ${definition.name} defined after the job queue started`);
    this.queues.set(definition.name, definition as unknown as QueueDefinition<object>);
  }

  /** Runs a queue's job on a cron schedule in the practice time zone. Before `start()`. */
  schedule(name: string, cron: string, data: object = {}): void {
    this.schedules.push({ name, cron, data });
  }

  /** Runs `listener` once the queue has started (e.g. the outbox dispatcher's timer). */
  onStart(listener: () => void, stop?: () => Promise<void> | void): void {
    this.startListeners.push(listener);
    if (stop) this.stopListeners.push(stop);
  }

  get started(): boolean {
    return this.starting !== undefined && !this.stopped;
  }

  /** Starts the queue in this process: workers, schedules and maintenance. Idempotent. */
  start(): Promise<PgBoss> {
    this.starting ??= this.boot();
    return this.starting;
  }

  private async boot(): Promise<PgBoss> {
    const common = {
      schema: JOB_SCHEMA,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 60,
      monitorStateIntervalSeconds: 600,
    };
    const boss =
      this.db.engine === 'postgres' && this.db.url
        ? new PgBoss({
            ...common,
            connectionString: this.db.url,
            max: this.options.poolMax ?? 4,
            application_name: 'wellrest-jobs',
          })
        : new PgBoss({ ...common, db: knexSql(this.db.knex) });
    boss.on('error', (error: Error & { code?: string }) => {
      // Codes and kinds only: a job's data may name a patient.
      this.logger.error({ err: { kind: error.name, code: error.code } }, 'job queue error');
    });
    await boss.start();
    // pg-boss's cron puts each job that falls due on a queue of its own, worked by pg-boss's
    // worker, which has the fault described at `Worker`: that queue is worked by one of ours.
    await boss.offWork(CRON_QUEUE);
    const cron = new Worker(
      boss,
      { name: CRON_QUEUE, fetchBatch: 50, handler: (job) => boss.insert([job.data as PgBoss.JobInsert]) },
      this.logger,
      CRON_POLLING_SECONDS * 1000,
    );
    this.workers.set(CRON_QUEUE, cron);
    cron.start();
    for (const queue of this.queues.values()) {
      const dead = deadLetterOf(queue.name);
      await this.ensureQueue(boss, dead, { name: dead, retryLimit: 0 });
      await this.ensureQueue(boss, queue.name, {
        name: queue.name,
        policy: queue.policy ?? 'standard',
        retryLimit: queue.retryLimit ?? 5,
        retryDelay: queue.retryDelay ?? 10,
        retryBackoff: true,
        expireInSeconds: queue.expireInSeconds ?? 15 * 60,
        deadLetter: dead,
      });
      const worker = new Worker(boss, queue, this.logger, (this.options.pollingIntervalSeconds ?? 2) * 1000);
      this.workers.set(queue.name, worker);
      worker.start();
    }
    for (const { name, cron, data } of this.schedules)
      await boss.schedule(name, cron, data, { tz: this.options.timeZone });
    for (const listener of this.startListeners) listener();
    this.logger.info({ queues: [...this.queues.keys()] }, 'job queue started');
    return boss;
  }

  /** Creates or updates a queue. Processes starting together may collide: then it tries again. */
  private async ensureQueue(boss: PgBoss, name: string, options: PgBoss.Queue): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (await boss.getQueue(name)) await boss.updateQueue(name, options);
        else await boss.createQueue(name, options);
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        // 40P01 deadlock, 23505 created meanwhile, 42P07 its table created meanwhile.
        if (attempt >= 5 || !['40P01', '23505', '42P07'].includes(code ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
      }
    }
  }

  /**
   * Queues a job; starts the queue first when this process has not yet. Returns the job id, or
   * null when the queue's policy or `singletonKey` says an equal job is already waiting.
   */
  async send(name: string, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const boss = await this.start();
    const id = await boss.send(name, data, options);
    // Wake this process's worker rather than wait for its next poll (when not in a transaction,
    // the job is visible now).
    if (id && !options.db) this.workers.get(name)?.notify();
    return id;
  }

  /**
   * Queues several jobs in one statement (each with its queue's settings); with `db`, in that
   * transaction, whose commit is then followed by `notify` of their queues.
   */
  async insert(jobs: { name: string; data: object }[], options: { db?: PgBoss.Db } = {}): Promise<void> {
    if (jobs.length === 0) return;
    const boss = await this.start();
    await boss.insert(jobs, options);
    if (!options.db) for (const name of new Set(jobs.map((job) => job.name))) this.notify(name);
  }

  /** Wakes this process's worker of a queue (after a transaction that queued its job commits). */
  notify(name: string): void {
    if (!this.stopped) this.workers.get(name)?.notify();
  }

  async getJob<T extends object>(name: string, id: string): Promise<Job<T> | null> {
    const boss = await this.start();
    return boss.getJobById<T>(name, id, { includeArchive: true });
  }

  /**
   * The id of the job of `name` with this singleton key that is waiting (preferred: it has not
   * started, so it covers a request made now) or running, if any.
   */
  async waitingOrActive(name: string, singletonKey: string): Promise<string | null> {
    await this.start();
    const row = await this.db.knex
      .withSchema(JOB_SCHEMA)
      .from('job')
      .where({ name, singleton_key: singletonKey })
      .whereIn('state', ['created', 'retry', 'active'])
      .orderByRaw("CASE WHEN state = 'active' THEN 1 ELSE 0 END, created_on DESC")
      .first('id');
    return (row as { id: string } | undefined)?.id ?? null;
  }

  /** The job once it has completed, failed or been cancelled, or as it stands after `timeoutMs`. */
  async waitFor<T extends object>(name: string, id: string, timeoutMs: number): Promise<Job<T> | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.getJob<T>(name, id);
      if (!job || ['completed', 'failed', 'cancelled'].includes(job.state) || Date.now() >= deadline)
        return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops workers (letting running jobs finish for up to `timeoutMs`) and timers. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.starting || this.stopped) return;
    this.stopped = true;
    for (const listener of this.stopListeners) await listener();
    const boss = await this.starting.catch(() => undefined);
    if (!boss) return;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop(timeoutMs)));
    await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: this.db.engine === 'postgres' });
  }
}

/**
 * One queue's worker in this process: it takes a job (or up to `fetchBatch` in one statement),
 * runs them one at a time, marks each completed or failed, and waits for the polling interval
 * only when it found none. (pg-boss 10's
 * own worker marks a finished job without awaiting the statement, so a database going away just
 * then left a rejected promise nobody held, and Node stopped the process. Here every statement
 * is awaited: a database out of reach is logged and tried again at the next poll, and a job it
 * could not mark stays active until pg-boss's maintenance expires and retries it.)
 */
class Worker {
  private stopping = false;
  private notified = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  /** The jobs taken and not yet marked completed or failed. */
  private readonly held = new Set<string>();

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: QueueDefinition<object>,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for a job now rather than at the next poll. */
  notify(): void {
    this.notified = true;
    this.wake?.();
  }

  /**
   * Lets the jobs taken finish for up to `timeoutMs`; any not finished then is marked failed, so
   * it is retried (by this process when it starts again, or by another), as pg-boss does.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.wake?.();
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      this.loop?.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (finished) return;
    for (const id of this.held)
      await this.boss
        .fail(this.queue.name, id, { message: 'the process stopped before the job ended' })
        .catch((error: unknown) => this.queueError(error));
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.notified = false;
      let found = false;
      try {
        found = await this.runTaken();
      } catch (error) {
        this.queueError(error);
      }
      if (!found && !this.notified && !this.stopping) await this.sleep();
    }
  }

  /** Takes the next jobs of the queue and runs them one by one; says whether there were any. */
  private async runTaken(): Promise<boolean> {
    const { name, fetchBatch = 1 } = this.queue;
    const jobs = await this.boss.fetch<object>(name, { batchSize: fetchBatch, includeMetadata: true });
    for (const job of jobs) this.held.add(job.id);
    try {
      for (const job of jobs) await this.runOne(job);
    } finally {
      // A job not marked (the database out of reach) expires and is retried by pg-boss.
      this.held.clear();
    }
    return jobs.length > 0;
  }

  private async runOne(job: Job<object>): Promise<void> {
    const { name } = this.queue;
    let output: unknown;
    try {
      output = await withinSeconds(this.queue.handler(job), job.expireInSeconds);
    } catch (error) {
      const err = error as Error & { code?: string };
      this.logger.warn(
        { queue: name, job: job.id, retry: job.retryCount, err: { kind: err.name, code: err.code } },
        'job failed',
      );
      await this.boss.fail(name, job.id, error as object);
      this.held.delete(job.id);
      return;
    }
    await this.boss.complete(name, job.id, (output ?? undefined) as object | undefined);
    this.held.delete(job.id);
  }

  private queueError(error: unknown): void {
    const err = error as Error & { code?: string };
    // Codes and kinds only: a job's data may name a patient.
    this.logger.error({ queue: this.queue.name, err: { kind: err.name, code: err.code } }, 'job queue error');
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), this.intervalMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}

/** The handler's answer, or a failure once the job has run for longer than it may. */
async function withinSeconds<T>(work: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the job ran for longer than ${seconds} s`)),
          seconds * 1000,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
