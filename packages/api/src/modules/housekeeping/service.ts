import {
  HOUSEKEEPING_RETENTION_DEFAULTS,
  HOUSEKEEPING_TASKS,
  type HousekeepingPatch,
  type HousekeepingTask,
  type HousekeepingTaskStatus,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import { JOB_SCHEMA } from '../../db/migrations/0750_job_queue.js';
import { getSetting, putSetting } from '../settings/store.js';

// Purges rows that stopped mattering: each task deletes what expired, was used or finished more
// than its retention ago, in batches (short transactions, no long locks on busy tables), and
// records when it ran and how many rows it removed. Audit events are never purged.

export const HOUSEKEEPING_QUEUE = 'housekeeping';
/** Every night at 03:30 practice time (after the 02:00 overdue-return scan). */
export const HOUSEKEEPING_CRON = '30 3 * * *';
export const HOUSEKEEPING_SETTING = 'housekeeping_retention';

const BATCH = 5000;

type Retention = Record<HousekeepingTask, number>;

interface Purge {
  /** The table (schema-qualified where it is not ours). */
  table: string;
  /** The key a batch is selected by. */
  key: string;
  /** The rows to purge, given `:cutoff` (a timestamp). */
  where: string;
}

const PURGES: Record<HousekeepingTask, Purge[]> = {
  sessions: [{ table: 'sessions', key: 'id', where: 'expires_at < :cutoff OR revoked_at < :cutoff' }],
  trustedDevices: [
    { table: 'trusted_devices', key: 'id', where: 'expires_at < :cutoff OR revoked_at < :cutoff' },
  ],
  passwordTokens: [
    { table: 'password_tokens', key: 'id', where: 'expires_at < :cutoff OR used_at < :cutoff' },
  ],
  // A name still locked is kept whatever its age, so purging never lifts a lock early.
  loginFailures: [
    {
      table: 'login_failures',
      key: 'name_hash',
      where: 'updated_at < :cutoff AND (locked_until IS NULL OR locked_until < now())',
    },
  ],
  publicSubmissions: [{ table: 'public_submissions', key: 'id', where: 'created_at < :cutoff' }],
  dispatchedEvents: [{ table: 'outbox_events', key: 'id', where: 'dispatched_at < :cutoff' }],
  // pg-boss moves finished jobs to its archive; jobs still waiting (dead letters included) stay.
  finishedJobs: [
    {
      table: `${JOB_SCHEMA}.archive`,
      key: '(name, id)',
      where: 'coalesce(completed_on, archived_on) < :cutoff',
    },
    {
      table: `${JOB_SCHEMA}.job`,
      key: '(name, id)',
      where: "state IN ('completed', 'cancelled', 'failed') AND completed_on < :cutoff",
    },
  ],
};

export async function readRetention(db: Knex): Promise<Retention> {
  const stored = (await getSetting<Partial<Retention>>(db, HOUSEKEEPING_SETTING)) ?? {};
  return { ...HOUSEKEEPING_RETENTION_DEFAULTS, ...stored };
}

export async function updateRetention(
  db: Knex,
  patch: HousekeepingPatch,
  updatedBy: number | null,
): Promise<Array<HousekeepingTask>> {
  const current = await readRetention(db);
  const changed = HOUSEKEEPING_TASKS.filter(
    (task) => patch[task] !== undefined && patch[task] !== current[task],
  );
  if (changed.length > 0) await putSetting(db, HOUSEKEEPING_SETTING, { ...current, ...patch }, updatedBy);
  return changed;
}

async function purge(db: Knex, { table, key, where }: Purge, cutoff: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db.raw(
      `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key.replace(/[()]/g, '')} FROM ${table} WHERE ${where} LIMIT ${BATCH}) RETURNING 1`,
      { cutoff },
    );
    const count = (result as { rows: unknown[] }).rows.length;
    removed += count;
    if (count < BATCH) return removed;
  }
}

/** Runs every task once; returns the rows each removed. */
export async function runHousekeeping(
  db: Knex,
  now: Date = new Date(),
  actor: { id: number | null; username: string | null } = { id: null, username: null },
): Promise<Record<HousekeepingTask, number>> {
  const retention = await readRetention(db);
  const removed = {} as Record<HousekeepingTask, number>;
  for (const task of HOUSEKEEPING_TASKS) {
    const cutoff = new Date(now.getTime() - retention[task] * 24 * 60 * 60 * 1000);
    let count = 0;
    for (const step of PURGES[task]) count += await purge(db, step, cutoff);
    removed[task] = count;
    await db('housekeeping_state')
      .insert({ task, last_run_at: now, last_removed: count, total_removed: count })
      .onConflict('task')
      .merge({
        last_run_at: now,
        last_removed: count,
        total_removed: db.raw('housekeeping_state.total_removed + ?', [count]),
      });
  }
  await audit(db, undefined, {
    action: 'housekeeping.run',
    outcome: 'success',
    entityType: 'setting',
    actor,
    details: removed,
  });
  return removed;
}

export async function housekeepingStatus(db: Knex): Promise<HousekeepingTaskStatus[]> {
  const retention = await readRetention(db);
  const rows = await db('housekeeping_state').select('task', 'last_run_at', 'last_removed', 'total_removed');
  const byTask = new Map(rows.map((r) => [r.task as string, r]));
  return HOUSEKEEPING_TASKS.map((task) => {
    const row = byTask.get(task);
    return {
      task,
      retentionDays: retention[task],
      lastRunAt: row?.last_run_at ? new Date(row.last_run_at).toISOString() : null,
      lastRemoved: row ? Number(row.last_removed) : null,
      totalRemoved: row ? Number(row.total_removed) : 0,
    };
  });
}
