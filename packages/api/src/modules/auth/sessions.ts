import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import sql, { raw, type Sql } from 'sql-template-tag';
import { DATA_VERSION_SQL, type DataVersion, type DataVersions } from '../../http/data-versions.js';
import type { UserRow } from '../users/store.js';

/** A session ends this long after sign-in even when it is kept busy. */
export const SESSION_MAX_HOURS = 12;

export interface SessionRow {
  id: string;
  user_id: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  ip: string | null;
  user_agent: string | null;
}

export async function createSession(
  db: Knex,
  input: { userId: number; ip: string | null; userAgent: string | null },
): Promise<SessionRow> {
  const [row] = await db<SessionRow>('sessions')
    .insert({
      id: randomUUID(),
      user_id: input.userId,
      expires_at: db.raw(`now() + make_interval(hours => ${SESSION_MAX_HOURS})`) as unknown as Date,
      ip: input.ip,
      user_agent: input.userAgent,
    })
    .returning('*');
  if (!row) throw new Error('insert into sessions returned no row');
  return row;
}

/** The columns of a user row, named: a prepared statement keeps its columns as they were. */
const USER_COLUMNS = [
  'id',
  'username',
  'email',
  'display_name',
  'role',
  'password_hash',
  'password_changed_at',
  'must_change_password',
  'is_active',
  'failed_login_count',
  'locked_until',
  'totp_secret',
  'totp_enabled',
  'totp_last_step',
  'recovery_codes',
  'physician_id',
  'created_at',
  'updated_at',
  'last_login_at',
] as const satisfies readonly (keyof UserRow)[];

const SESSION_COLUMNS = [
  'id',
  'user_id',
  'created_at',
  'last_seen_at',
  'expires_at',
  'revoked_at',
  'ip',
  'user_agent',
] as const satisfies readonly (keyof SessionRow)[];

/**
 * A digest of the whole user row: any change to the account (its role, password, second factor,
 * activity, a sign-in elsewhere) changes it. Lets a later statement confirm that the row a
 * request was authorised with still stands (sessionHolds).
 */
const USER_DIGEST_SQL = 'md5(users::text)';

/** The columns `resumeSession` reads, with the data versions or without them. */
const RESUME_SESSION = (() => {
  const columns = [
    ...USER_COLUMNS.map((column) => `users.${column}`),
    ...SESSION_COLUMNS.map((column) => `sessions.${column} AS session_${column}`),
    'extract(epoch from (sessions.last_seen_at - now())) * 1000 AS seen_offset_ms',
    `${USER_DIGEST_SQL} AS user_digest`,
  ];
  const withVersion = (version: DataVersion) =>
    raw(`SELECT ${[...columns, `${DATA_VERSION_SQL[version]} AS version`].join(', ')}`);
  return {
    alone: raw(`SELECT ${columns.join(', ')}`),
    availability: withVersion('availability'),
    search: withVersion('search'),
  };
})();

export type SessionLookup =
  | {
      status: 'active';
      session: SessionRow;
      user: UserRow;
      /** Milliseconds until the session ends if left idle, on the database clock. */
      idleRemainingMs: number;
      /** The data versions at this moment, read in the same statement when asked for. */
      versions?: DataVersions;
      /** The user row's digest (USER_DIGEST_SQL), for sessionHolds. */
      userDigest: string;
    }
  | { status: 'idle'; session: SessionRow }
  | { status: 'invalid' };

/**
 * Using a session slides its idle window, but last_seen_at is written at most once in this many
 * seconds: a burst of requests costs one write, not one each. The idle check reads the stored
 * value, so a session is never kept past its idle timeout; it may end up to this long early,
 * which keeps the automatic logoff exact to the minute (a quarter of the timeout when that is
 * shorter: see touchSeconds).
 */
export const SESSION_TOUCH_SECONDS = 60;

/** Seconds between writes of last_seen_at: at most a quarter of the idle timeout (15 s for 1 minute). */
export function touchSeconds(idleMinutes: number): number {
  return Math.min(SESSION_TOUCH_SECONDS, Math.floor((idleMinutes * 60) / 4));
}

/** The session row named, for this user, while it is neither revoked nor past its absolute expiry. */
function liveSession(sessionId: string, userId: number): Sql {
  return sql`sessions.id = ${sessionId} AND sessions.user_id = ${userId}
    AND sessions.revoked_at IS NULL AND sessions.expires_at > now()`;
}

/** Whether the session was used within the touch interval: then it is not idle, and not due a touch. */
function usedWithinTouch(idleMinutes: number): Sql {
  return sql`sessions.last_seen_at > now() - make_interval(secs => ${touchSeconds(idleMinutes)})`;
}

/**
 * Resolves a session id to its user. A session counts only while it is not revoked, not past
 * its absolute expiry, its user is active, and it was used within the idle timeout; using it
 * slides the idle window (see SESSION_TOUCH_SECONDS). An idle session is revoked for good
 * (automatic logoff). Times are compared on the database clock, the one every API process shares.
 */
export async function resumeSession(
  db: Knex,
  sessionId: string,
  userId: number,
  idleMinutes: number,
  options: { version?: DataVersion | undefined } = {},
): Promise<SessionLookup> {
  // The session, its active user and, when asked for, the data versions in one statement: every
  // signed-in API request starts with it. Its text is written once (RESUME_SESSION), not
  // compiled by the query builder per request, and it is prepared once per connection: planning
  // the join cost more than running it.
  const { version } = options;
  const statement = sql`${RESUME_SESSION[version ?? 'alone']},
      sessions.last_seen_at <= now() - make_interval(mins => ${idleMinutes}) AS idle,
      NOT (${usedWithinTouch(idleMinutes)}) AS stale
    FROM sessions LEFT JOIN users ON users.id = sessions.user_id AND users.is_active
    WHERE ${liveSession(sessionId, userId)}`;
  const found = (
    await db
      .raw(statement.sql, statement.values as Knex.RawBinding[])
      .options({ name: version ? `wellrest-resume-session-${version}` : 'wellrest-resume-session' })
  ).rows[0] as
    | (Record<string, unknown> & {
        idle: boolean;
        stale: boolean;
        seen_offset_ms: number | string;
        version?: string;
        user_digest: string;
      })
    | undefined;
  if (!found) return { status: 'invalid' };
  const { idle, stale, seen_offset_ms: seenOffsetMs } = found;
  const versions: DataVersions | undefined =
    version && found.version !== undefined ? { [version]: found.version } : undefined;
  const session = Object.fromEntries(
    SESSION_COLUMNS.map((column) => [column, found[`session_${column}`]]),
  ) as unknown as SessionRow;
  if (idle) {
    await revokeSession(db, session.id);
    return { status: 'idle', session };
  }
  if (found.id === null || found.id === undefined) return { status: 'invalid' };
  const user = Object.fromEntries(
    USER_COLUMNS.map((column) => [column, found[column]]),
  ) as unknown as UserRow;
  if (stale) await db('sessions').where({ id: sessionId }).update({ last_seen_at: db.fn.now() });
  // The idle window runs from the stored activity time: now when just written, else a little earlier.
  const idleRemainingMs = idleMinutes * 60_000 + (stale ? 0 : Math.min(0, Number(seenOffsetMs)));
  return {
    status: 'active',
    session,
    user,
    idleRemainingMs,
    userDigest: found.user_digest,
    ...(versions ? { versions } : {}),
  };
}

/** A session resumed earlier, as a later statement confirms it still stands (sessionHolds). */
export interface SessionToConfirm {
  sessionId: string;
  userId: number;
  userDigest: string;
  idleMinutes: number;
}

/**
 * SQL that is true while the session still counts exactly as resumeSession would find it, with
 * nothing to write: not revoked, not past its expiry, used within the touch interval (so neither
 * idle nor due a new last_seen_at), and its user active with the very row it was resumed with.
 * A statement that reads what a request shows can carry this and show nothing when it is false,
 * which spares the request its own session round trip (http/session.ts, resumed from memory).
 */
export function sessionHolds(session: SessionToConfirm): Sql {
  return sql`EXISTS (SELECT 1 FROM sessions JOIN users ON users.id = sessions.user_id AND users.is_active
    WHERE ${liveSession(session.sessionId, session.userId)} AND ${usedWithinTouch(session.idleMinutes)}
      AND ${raw(USER_DIGEST_SQL)} = ${session.userDigest})`;
}

export async function revokeSession(db: Knex, sessionId: string): Promise<void> {
  await db('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
