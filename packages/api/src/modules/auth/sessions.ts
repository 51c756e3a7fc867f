import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
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

export type SessionLookup =
  | { status: 'active'; session: SessionRow; user: UserRow }
  | { status: 'idle'; session: SessionRow }
  | { status: 'invalid' };

/**
 * Resolves a session id to its user. A session counts only while it is not revoked, not past
 * its absolute expiry, its user is active, and it was used within the idle timeout; using it
 * slides the idle window. An idle session is revoked for good (automatic logoff).
 * Times are compared on the database clock, the one every API process shares.
 */
export async function resumeSession(
  db: Knex,
  sessionId: string,
  userId: number,
  idleMinutes: number,
): Promise<SessionLookup> {
  const found = await db('sessions')
    .where({ id: sessionId, user_id: userId })
    .whereNull('revoked_at')
    .andWhereRaw('expires_at > now()')
    .first(
      db.raw('sessions.*'),
      db.raw('last_seen_at <= now() - make_interval(mins => ?) AS idle', [idleMinutes]),
    );
  if (!found) return { status: 'invalid' };
  const { idle, ...session } = found as SessionRow & { idle: boolean };
  if (idle) {
    await revokeSession(db, session.id);
    return { status: 'idle', session };
  }
  const user = await db<UserRow>('users').where({ id: userId, is_active: true }).first();
  if (!user) return { status: 'invalid' };
  await db('sessions').where({ id: sessionId }).update({ last_seen_at: db.fn.now() });
  return { status: 'active', session, user };
}

export async function revokeSession(db: Knex, sessionId: string): Promise<void> {
  await db('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
