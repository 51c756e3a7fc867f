import { randomBytes } from 'node:crypto';
import { type EmbedKey, isOrigin } from '@wellrest/core';
import type { Knex } from 'knex';

export interface EmbedKeyRow {
  id: number;
  name: string;
  key: string;
  allowed_origins: string[] | string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

function origins(value: string[] | string): string[] {
  return typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
}

export function toEmbedKey(row: EmbedKeyRow): EmbedKey {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    allowedOrigins: origins(row.allowed_origins),
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  };
}

/** A key is public (it sits in the partner's page source): it names a site, it proves nothing else. */
export function newEmbedKey(): string {
  return `wr_pk_${randomBytes(18).toString('base64url')}`;
}

export async function findActiveEmbedKey(db: Knex, key: string): Promise<EmbedKey | undefined> {
  const row = await db<EmbedKeyRow>('embed_keys').where({ key }).whereNull('revoked_at').first();
  return row ? toEmbedKey(row) : undefined;
}

/** How often a key's last use is written down: at most once in this many minutes. */
const LAST_USE_RESOLUTION_MINUTES = 5;

/** Records that a partner page used the key, at most once per few minutes (one cheap update). */
export async function markEmbedKeyUsed(db: Knex, id: number): Promise<void> {
  await db('embed_keys')
    .where({ id })
    .andWhere((query) =>
      query
        .whereNull('last_used_at')
        .orWhereRaw(`last_used_at < now() - interval '${LAST_USE_RESOLUTION_MINUTES} minutes'`),
    )
    .update({ last_used_at: db.fn.now() });
}

/** Embed keys are short; anything longer is not one and costs no database look-up. */
const EMBED_KEY_MAX_LENGTH = 100;

/**
 * The origins an active embed key allows to frame the full-page widgets, or an empty list when
 * the key is unknown, revoked or malformed. Only well-formed origins are returned, so each is
 * safe to place in a header.
 */
export async function framingOriginsForKey(db: Knex, key: string): Promise<string[]> {
  if (key.length === 0 || key.length > EMBED_KEY_MAX_LENGTH) return [];
  const embedKey = await findActiveEmbedKey(db, key);
  return embedKey ? embedKey.allowedOrigins.filter(isOrigin) : [];
}
