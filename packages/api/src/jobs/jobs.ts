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

/** The dead-letter queue of a queue. */
export const deadLetterOf = (name: string): string => `${name}-dead`;

export class Jobs {
  private readonly queues = new Map<string, QueueDefinition<object>>();
  private readonly schedules: Schedule[] = [];
  private readonly workers = new Map<string, string>();
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
      const id = await boss.work<object>(
        queue.name,
        {
          batchSize: 1,
          includeMetadata: true,
          pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2,
        },
        async ([job]) => {
          if (!job) return undefined;
          try {
            return ((await queue.handler(job)) ?? undefined) as object | undefined;
          } catch (error) {
            const err = error as Error & { code?: string };
            this.logger.warn(
              {
                queue: queue.name,
                job: job.id,
                retry: job.retryCount,
                err: { kind: err.name, code: err.code },
              },
              'job failed',
            );
            throw error;
          } finally {
            // A worker that found a job looks for the next one at once: only a look that finds
            // nothing waits for the polling interval. (pg-boss waits after every look unless its
            // worker was notified, which made a backlog drain at one job per interval.)
            const worker = this.workers.get(queue.name);
            if (worker) boss.notifyWorker(worker);
          }
        },
      );
      this.workers.set(queue.name, id);
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
    const worker = this.workers.get(name);
    if (id && worker && !options.db) boss.notifyWorker(worker);
    return id;
  }

  /** Wakes this process's worker of a queue (after a transaction that queued its job commits). */
  notify(name: string): void {
    const worker = this.workers.get(name);
    if (worker && this.starting && !this.stopped)
      void this.starting.then((boss) => boss.notifyWorker(worker));
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
    await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: this.db.engine === 'postgres' });
  }
}
