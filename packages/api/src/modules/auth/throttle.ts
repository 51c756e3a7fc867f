import { createHmac } from 'node:crypto';
import { LOGIN_RATE_WINDOW_MINUTES } from '@wellrest/core';
import type { Knex } from 'knex';
import type { UserRow } from '../users/store.js';

// Brute-force defences of sign-in: a limit on failed attempts per client address, and a lock on
// the account after consecutive failures. Names that belong to no account are tracked (by a keyed
// hash, never in clear) and lock exactly like real ones, so the answers never reveal which exist.

/** Failed sign-ins (guesses) recorded from `ip` within the rate window, read from the audit trail. */
export async function recentFailuresFrom(db: Knex, ip: string | null): Promise<number> {
  if (!ip) return 0;
  const row = await db('audit_events')
    .where({ ip, action: 'auth.login' })
    .whereIn('outcome', ['failure', 'denied'])
    // The right password, too old: not a guess.
    .andWhereRaw("details->>'reason' IS DISTINCT FROM 'password_expired'")
    .andWhereRaw('occurred_at > now() - make_interval(mins => ?)', [LOGIN_RATE_WINDOW_MINUTES])
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** Whose failures a sign-in attempt counts against. */
export type LoginTarget = { kind: 'user'; user: UserRow } | { kind: 'unknown'; nameHash: string };

export function loginTarget(secret: string, name: string, user: UserRow | undefined): LoginTarget {
  if (user) return { kind: 'user', user };
  const nameHash = createHmac('sha256', secret).update(`login:${name.trim().toLowerCase()}`).digest('hex');
  return { kind: 'unknown', nameHash };
}

export async function isLocked(db: Knex, target: LoginTarget): Promise<boolean> {
  const row =
    target.kind === 'user'
      ? await db('users').where({ id: target.user.id }).andWhereRaw('locked_until > now()').first('id')
      : await db('login_failures')
          .where({ name_hash: target.nameHash })
          .andWhereRaw('locked_until > now()')
          .first('name_hash');
  return row !== undefined;
}

/**
 * Counts one more consecutive failure; at `threshold` the target is locked for `minutes` and the
 * count starts again. Answers whether this failure locked it.
 */
export async function recordFailure(
  db: Knex,
  target: LoginTarget,
  policy: { threshold: number; minutes: number },
): Promise<{ locked: boolean }> {
  const { threshold, minutes } = policy;
  if (target.kind === 'user') {
    const [row] = await db('users')
      .where({ id: target.user.id })
      .update({
        failed_login_count: db.raw(
          'CASE WHEN failed_login_count + 1 >= ? THEN 0 ELSE failed_login_count + 1 END',
          [threshold],
        ),
        locked_until: db.raw(
          'CASE WHEN failed_login_count + 1 >= ? THEN now() + make_interval(mins => ?) ELSE locked_until END',
          [threshold, minutes],
        ),
      })
      .returning(['failed_login_count']);
    // The count goes back to 0 exactly when this failure reached the threshold.
    return { locked: row?.failed_login_count === 0 };
  }
  const [row] = await db('login_failures')
    .insert({ name_hash: target.nameHash, failed_count: 1 })
    .onConflict('name_hash')
    .merge({
      failed_count: db.raw(
        'CASE WHEN login_failures.failed_count + 1 >= ? THEN 0 ELSE login_failures.failed_count + 1 END',
        [threshold],
      ),
      locked_until: db.raw(
        'CASE WHEN login_failures.failed_count + 1 >= ? THEN now() + make_interval(mins => ?) ELSE login_failures.locked_until END',
        [threshold, minutes],
      ),
      updated_at: db.fn.now(),
    })
    .returning(['failed_count', 'locked_until']);
  // A first failure inserts a count of 1: it locks only when the threshold is 1.
  if (row && row.failed_count === 1 && threshold <= 1) {
    await db('login_failures')
      .where({ name_hash: target.nameHash })
      .update({ failed_count: 0, locked_until: db.raw('now() + make_interval(mins => ?)', [minutes]) });
    return { locked: true };
  }
  return { locked: row?.failed_count === 0 };
}

/** A successful sign-in ends the run of failures. */
export async function clearFailures(db: Knex, userId: number): Promise<void> {
  await db('users').where({ id: userId }).update({ failed_login_count: 0, locked_until: null });
}
