import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SET_PASSWORD_LINK_HOURS, SET_PASSWORD_PATH } from '@wellrest/core';
import type { Knex } from 'knex';

// One-time links to set a password: after an administrator approves an access request or resets
// a password. The link carries a random token; only its hash is stored. A new link replaces any
// unused one of the same user.

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface PasswordLink {
  /** A console path: `/set-password?token=...`. */
  setPasswordUrl: string;
  expiresAt: string;
}

export async function createPasswordLink(
  db: Knex,
  input: { userId: number; purpose: 'registration' | 'reset'; createdBy: number | null },
): Promise<PasswordLink> {
  await db('password_tokens')
    .where({ user_id: input.userId })
    .whereNull('used_at')
    .andWhereRaw('expires_at > now()')
    .update({ expires_at: db.fn.now() });
  const token = randomBytes(32).toString('base64url');
  const [row] = await db('password_tokens')
    .insert({
      id: randomUUID(),
      user_id: input.userId,
      token_hash: tokenHash(token),
      purpose: input.purpose,
      expires_at: db.raw('now() + make_interval(hours => ?)', [SET_PASSWORD_LINK_HOURS]),
      created_by: input.createdBy,
    })
    .returning(['expires_at']);
  return {
    setPasswordUrl: `${SET_PASSWORD_PATH}?token=${token}`,
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/** Uses up a live link: the user it was made for, or undefined when it is unknown, used or expired. */
export async function consumePasswordLink(db: Knex, token: string): Promise<{ userId: number } | undefined> {
  const [row] = await db('password_tokens')
    .where({ token_hash: tokenHash(token) })
    .whereNull('used_at')
    .andWhereRaw('expires_at > now()')
    .update({ used_at: db.fn.now() })
    .returning(['user_id']);
  return row ? { userId: row.user_id } : undefined;
}
