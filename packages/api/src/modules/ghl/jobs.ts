import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';

// A small job queue in PostgreSQL. Any API process may enqueue; a process drains the queue when
// it enqueues (and on any later poke), claiming one job at a time with FOR UPDATE SKIP LOCKED,
// so several processes share the work and each job runs once. A job left running by a process
// that died is claimed again after STALE_AFTER_MINUTES.

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  status: JobStatus;
  dedupe_key: string | null;
  attempts: number;
  result: Record<string, unknown> | null;
  /** A short code (never remote text or patient data). */
  error: string | null;
  created_by: number | null;
}

/** Runs one job; what it returns is stored as the job's result. */
export type JobHandler = (job: JobRow) => Promise<Record<string, unknown>>;

/** Thrown by a handler to fail its job with a code the caller can turn into a message. */
export class JobFailure extends Error {
  override name = 'JobFailure';
  constructor(readonly code: string) {
    super(code);
  }
}

const STALE_AFTER_MINUTES = 15;
const POLL_MS = 100;

export class JobQueue {
  private draining: Promise<void> | undefined;

  constructor(
    private readonly db: Knex,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    private readonly logger: Logger,
  ) {}

  /**
   * Queues a job, unless one with the same dedupe key is queued or running: then that one is
   * returned, so two clicks start one sync.
   */
  async enqueue(
    kind: string,
    options: {
      payload?: Record<string, unknown>;
      dedupeKey?: string;
      createdBy?: number | null;
      /** Not before then (e.g. when a spent daily budget is renewed). */
      runAt?: Date;
    } = {},
  ): Promise<number> {
    const inserted = await this.db.raw(
      `INSERT INTO jobs (kind, payload, dedupe_key, created_by, run_at) VALUES (?, ?::jsonb, ?, ?, coalesce(?::timestamptz, now()))
       ON CONFLICT (dedupe_key) WHERE status IN ('queued', 'running') DO NOTHING
       RETURNING id`,
      [
        kind,
        JSON.stringify(options.payload ?? {}),
        options.dedupeKey ?? null,
        options.createdBy ?? null,
        options.runAt?.toISOString() ?? null,
      ],
    );
    const id = (inserted.rows as { id: number }[])[0]?.id;
    if (id !== undefined) return id;
    const active = await this.db<JobRow>('jobs')
      .where({ dedupe_key: options.dedupeKey ?? null })
      .whereIn('status', ['queued', 'running'])
      .first('id');
    // The active job finished between the insert and this read: queue a new one.
    return active ? active.id : this.enqueue(kind, options);
  }

  /** Starts draining the queue in this process, unless it already is. */
  poke(): void {
    this.draining ??= this.drain()
      .catch((error: unknown) => {
        this.logger.error({ err: { kind: (error as Error)?.name } }, 'job queue drain failed');
      })
      .finally(() => {
        this.draining = undefined;
      });
  }

  /**
   * Drains the queue again at `when` (a job queued for later); the timer does not keep the
   * process alive, and any later poke runs the job as well once it is due.
   */
  pokeAt(when: Date): void {
    const delay = Math.min(Math.max(0, when.getTime() - Date.now()), 2 ** 31 - 1);
    setTimeout(() => this.poke(), delay).unref();
  }

  /** Claims and runs jobs until none of the kinds this process handles is waiting. */
  async drain(): Promise<void> {
    for (;;) {
      const job = await this.claim();
      if (!job) return;
      await this.run(job);
    }
  }

  private async claim(): Promise<JobRow | undefined> {
    const kinds = Object.keys(this.handlers);
    if (kinds.length === 0) return undefined;
    const claimed = await this.db.raw(
      `UPDATE jobs SET status = 'running', locked_at = now(), attempts = attempts + 1
       WHERE id = (
         SELECT id FROM jobs
         WHERE kind IN (${kinds.map(() => '?').join(', ')})
           AND ((status = 'queued' AND run_at <= now())
             OR (status = 'running' AND locked_at < now() - make_interval(mins => ?)))
         ORDER BY id
         FOR UPDATE SKIP LOCKED
         LIMIT 1
       )
       RETURNING *`,
      [...kinds, STALE_AFTER_MINUTES],
    );
    return (claimed.rows as JobRow[])[0];
  }

  private async run(job: JobRow): Promise<void> {
    const handler = this.handlers[job.kind];
    try {
      if (!handler) throw new JobFailure('no_handler');
      const result = await handler(job);
      await this.db('jobs')
        .where({ id: job.id })
        .update({
          status: 'done',
          result: JSON.stringify(result),
          error: null,
          finished_at: this.db.fn.now(),
        });
    } catch (error) {
      const code = error instanceof JobFailure ? error.code : 'internal';
      if (code === 'internal') {
        this.logger.error(
          { err: { kind: (error as Error)?.name }, job: job.id, jobKind: job.kind },
          'job failed',
        );
      }
      await this.db('jobs')
        .where({ id: job.id })
        .update({ status: 'failed', error: code, finished_at: this.db.fn.now() });
    }
  }

  /** The job once it has finished, or as it stands after `timeoutMs`. */
  async waitFor(id: number, timeoutMs: number): Promise<JobRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.db<JobRow>('jobs').where({ id }).first();
      if (!job) throw new Error(`job ${id} vanished`);
      if (job.status === 'done' || job.status === 'failed' || Date.now() >= deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
