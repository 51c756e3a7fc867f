import type { Knex } from 'knex';
import type { Logger } from '../logger.js';
import type { Jobs } from './jobs.js';
import { knexSql } from './sql.js';

// The transactional outbox: a change records the domain event it causes in its own transaction
// (so the event exists exactly when the change does), and the dispatcher hands each event to the
// queues subscribed to its topic, in one transaction per batch, so an event is queued once even
// with several API processes dispatching.

/** Records a domain event. Pass the transaction of the change it reports. */
export async function writeOutbox(db: Knex, topic: string, payload: object = {}): Promise<number> {
  const [row] = await outboxInsert(db, topic, payload).returning('id');
  return (row as { id: number }).id;
}

/** {@link writeOutbox}'s insert, not yet run: to be written with the statement a request ends on. */
export function outboxInsert(db: Knex, topic: string, payload: object = {}): Knex.QueryBuilder {
  return db('outbox_events').insert({ topic, payload: JSON.stringify(payload) });
}

interface OutboxRow {
  id: number;
  topic: string;
  payload: Record<string, unknown>;
}

/** The data of a job queued from an outbox event. */
export interface OutboxJobData {
  eventId: number;
  topic: string;
  payload: Record<string, unknown>;
}

const BATCH = 100;

export class Outbox {
  private readonly subscribers = new Map<string, string[]>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly knex: Knex,
    private readonly jobs: Jobs,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {
    jobs.onStart(
      () => {
        this.timer = setInterval(() => this.poke(), this.intervalMs);
        this.timer.unref();
        this.poke();
      },
      async () => {
        if (this.timer) clearInterval(this.timer);
        this.timer = undefined;
        await this.running;
      },
    );
  }

  /** Queues a job on `queue` for every event of `topic`. */
  subscribe(topic: string, queue: string): void {
    const queues = this.subscribers.get(topic) ?? [];
    if (!queues.includes(queue)) queues.push(queue);
    this.subscribers.set(topic, queues);
  }

  /** Dispatches soon (e.g. right after a transaction that wrote an event commits). */
  poke(): void {
    if (!this.jobs.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => {
        this.logger.error({ err: { kind: (error as Error)?.name } }, 'outbox dispatch failed');
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  private async drain(): Promise<void> {
    while ((await this.dispatchPending()) === BATCH) {}
  }

  /** Hands one batch of pending events to their queues; returns how many were dispatched. */
  async dispatchPending(): Promise<number> {
    const woken = new Set<string>();
    const count = await this.knex.transaction(async (trx) => {
      const rows: OutboxRow[] = await trx('outbox_events')
        .whereNull('dispatched_at')
        .orderBy('id')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .select('id', 'topic', 'payload');
      if (rows.length === 0) return 0;
      // The batch's jobs in one statement: a busy practice writes dozens of events a second.
      const queued: { name: string; data: OutboxJobData }[] = [];
      for (const row of rows) {
        for (const queue of this.subscribers.get(row.topic) ?? []) {
          queued.push({ name: queue, data: { eventId: row.id, topic: row.topic, payload: row.payload } });
          woken.add(queue);
        }
      }
      await this.jobs.insert(queued, { db: knexSql(trx) });
      await trx('outbox_events')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .update({ dispatched_at: trx.fn.now(), attempts: trx.raw('attempts + 1') });
      return rows.length;
    });
    for (const queue of woken) this.jobs.notify(queue);
    return count;
  }
}
