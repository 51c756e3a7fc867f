import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

export const SESSION_SECRET_KEY = 'session_secret';

export async function getSetting<T>(db: Knex, key: string): Promise<T | undefined> {
  const row = await db('settings').where({ key }).first('value');
  return row ? (row.value as T) : undefined;
}

export async function putSetting(
  db: Knex,
  key: string,
  value: unknown,
  updatedBy?: number | null,
): Promise<void> {
  await db('settings')
    .insert({ key, value: JSON.stringify(value), updated_at: db.fn.now(), updated_by: updatedBy ?? null })
    .onConflict('key')
    .merge();
}

/**
 * The secret that signs session tokens. Generated on first use and kept in the database, so
 * every API process sharing the database accepts the same sessions; the first writer wins.
 */
export async function ensureSessionSecret(db: Knex): Promise<string> {
  await db('settings')
    .insert({ key: SESSION_SECRET_KEY, value: JSON.stringify(randomBytes(48).toString('base64url')) })
    .onConflict('key')
    .ignore();
  const secret = await getSetting<string>(db, SESSION_SECRET_KEY);
  if (typeof secret !== 'string' || secret.length < 32) throw new Error('stored session secret is invalid');
  return secret;
}
