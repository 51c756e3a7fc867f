import { createHmac } from 'node:crypto';
import {
  ACCOUNT_LOCK_FAILURE_FACTOR,
  LOGIN_ADDRESS_LIMIT_FACTOR,
  LOGIN_DELAY_BASE_SECONDS,
  LOGIN_RATE_WINDOW_MINUTES,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { UserRow } from '../users/store.js';

// Brute-force defences of sign-in, none of which lets a stranger shut an account's owner out:
// - per account and address: after `lockoutThreshold` failures, each further attempt from that
//   address on that account waits twice as long as the previous one; and at most
//   `loginRateLimit` failures per LOGIN_RATE_WINDOW_MINUTES (people behind one NAT each keep
//   their own count);
// - per address: a ceiling over all accounts (LOGIN_ADDRESS_LIMIT_FACTOR x the rate limit);
// - per account: a lock once ACCOUNT_LOCK_FAILURE_FACTOR x `lockoutThreshold` failures arrive
//   within `lockoutMinutes` from anywhere. The lock stops a password alone, not the second
//   factor, and an administrator can lift it.
// Names that belong to no account are counted (by a keyed hash, never in clear) and lock exactly
// like real ones, so the answers never reveal which exist.

export interface ThrottlePolicy {
  /** Failures from one address on one account before the delays start. */
  threshold: number;
  /** The window failures are counted in, and how long a lock lasts. */
  minutes: number;
  /** Failures allowed from one address on one account per LOGIN_RATE_WINDOW_MINUTES. */
  rateLimit: number;
}

/** Whose failures a sign-in attempt counts against. */
export type LoginTarget =
  | { kind: 'user'; user: UserRow; key: string }
  | { kind: 'unknown'; nameHash: string; key: string };

export function loginTarget(secret: string, name: string, user: UserRow | undefined): LoginTarget {
  if (user) return { kind: 'user', user, key: `user:${user.id}` };
  const nameHash = createHmac('sha256', secret).update(`login:${name.trim().toLowerCase()}`).digest('hex');
  return { kind: 'unknown', nameHash, key: `name:${nameHash}` };
}

/** The address failures are counted under; a request without one shares a single count. */
export function throttleAddress(ip: string | null): string {
  return ip || 'unknown';
}

async function countFailures(
  db: Knex,
  where: { account_key?: string; ip?: string },
  minutes: number,
): Promise<{ count: number; last: Date | null }> {
  const row = (await db('login_attempt_failures')
    .where(where)
    .andWhereRaw('occurred_at > now() - make_interval(mins => ?)', [minutes])
    .first(db.raw('count(*) as count'), db.raw('max(occurred_at) as last'))) as
    | { count: string | number; last: Date | null }
    | undefined;
  return { count: Number(row?.count ?? 0), last: row?.last ? new Date(row.last) : null };
}

/** The delay owed after `failures` from one address on one account, in seconds (0: none). */
export function delaySeconds(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.threshold) return 0;
  const doublings = Math.min(failures - policy.threshold, 30);
  return Math.min(LOGIN_DELAY_BASE_SECONDS * 2 ** doublings, policy.minutes * 60);
}

/**
 * Whether this address may try this account now; when not, how many seconds to wait (the
 * Retry-After). Checked before the password, so a refused attempt tells nothing and counts nothing.
 */
export async function attemptAllowed(
  db: Knex,
  target: LoginTarget,
  ip: string | null,
  policy: ThrottlePolicy,
): Promise<{ allowed: true } | { allowed: false; retryAfter: number }> {
  const address = throttleAddress(ip);
  const recent = await countFailures(db, { account_key: target.key, ip: address }, policy.minutes);
  const delay = delaySeconds(recent.count, policy);
  if (delay > 0 && recent.last) {
    const waitMs = recent.last.getTime() + delay * 1000 - Date.now();
    if (waitMs > 0) return { allowed: false, retryAfter: Math.ceil(waitMs / 1000) };
  }
  const windowSeconds = LOGIN_RATE_WINDOW_MINUTES * 60;
  const inWindow = await countFailures(
    db,
    { account_key: target.key, ip: address },
    LOGIN_RATE_WINDOW_MINUTES,
  );
  if (inWindow.count >= policy.rateLimit) return { allowed: false, retryAfter: windowSeconds };
  const fromAddress = await countFailures(db, { ip: address }, LOGIN_RATE_WINDOW_MINUTES);
  if (fromAddress.count >= policy.rateLimit * LOGIN_ADDRESS_LIMIT_FACTOR) {
    return { allowed: false, retryAfter: windowSeconds };
  }
  return { allowed: true };
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
 * Records one failure from `ip` against the target. When the failures reaching the account from
 * anywhere within the window reach the lock level, the account is locked for `minutes` (and the
 * answer says so, once per lock).
 */
export async function recordFailure(
  db: Knex,
  target: LoginTarget,
  ip: string | null,
  policy: ThrottlePolicy,
): Promise<{ locked: boolean }> {
  await db('login_attempt_failures')
    .where({ account_key: target.key })
    .andWhereRaw("occurred_at < now() - interval '1 day'")
    .del();
  await db('login_attempt_failures').insert({ account_key: target.key, ip: throttleAddress(ip) });
  if (await isLocked(db, target)) return { locked: false };
  const { count } = await countFailures(db, { account_key: target.key }, policy.minutes);
  if (count < policy.threshold * ACCOUNT_LOCK_FAILURE_FACTOR) return { locked: false };
  const lockedUntil = db.raw('now() + make_interval(mins => ?)', [policy.minutes]);
  if (target.kind === 'user') {
    await db('users').where({ id: target.user.id }).update({ locked_until: lockedUntil });
  } else {
    await db('login_failures')
      .insert({ name_hash: target.nameHash, failed_count: 0, locked_until: lockedUntil })
      .onConflict('name_hash')
      .merge({ locked_until: lockedUntil, updated_at: db.fn.now() });
  }
  // The failures that locked it age out of the window while it is locked, so it does not lock
  // again the moment it ends.
  return { locked: true };
}

/** A successful sign-in from an address ends that address's run of failures on the account. */
export async function clearFailures(db: Knex, userId: number, ip: string | null): Promise<void> {
  await db('login_attempt_failures')
    .where({ account_key: `user:${userId}`, ip: throttleAddress(ip) })
    .del();
  await db('users').where({ id: userId }).update({ failed_login_count: 0 });
}

/** An administrator lifts a lock: the account and every address start afresh. */
export async function unlockAccount(db: Knex, userId: number): Promise<boolean> {
  const updated = await db('users')
    .where({ id: userId })
    .andWhereRaw('locked_until > now()')
    .update({ locked_until: null, failed_login_count: 0 });
  await db('login_attempt_failures')
    .where({ account_key: `user:${userId}` })
    .del();
  return updated > 0;
}
