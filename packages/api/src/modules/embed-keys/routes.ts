import Router from '@koa/router';
import {
  CreateEmbedKeyInput,
  EMBED_KEY_USAGE_DAYS,
  type EmbedDefaults,
  type EmbedKeySummary,
  publicFormsMessages,
  UpdateEmbedKeyInput,
} from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { widgetScripts } from './scripts.js';
import { type EmbedKeyRow, newEmbedKey, toEmbedKey } from './store.js';

// Administrators name the partner sites (origins) allowed to embed the widgets with each key.

/** Every key, with the submissions it brought in the last 30 days (what revoking it would stop). */
async function listEmbedKeys(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const since = new Date(Date.now() - EMBED_KEY_USAGE_DAYS * 24 * 60 * 60_000);
  const counts = db('public_submissions')
    .select('embed_key_id')
    .count('id as submissions')
    .where('created_at', '>', since)
    .whereNotNull('embed_key_id')
    .groupBy('embed_key_id')
    .as('usage');
  const rows = await db<EmbedKeyRow>('embed_keys')
    .leftJoin(counts, 'usage.embed_key_id', 'embed_keys.id')
    .select<(EmbedKeyRow & { submissions: string | number | null })[]>('embed_keys.*', 'usage.submissions')
    .orderBy('embed_keys.id');
  ctx.body = rows.map(
    (row): EmbedKeySummary => ({ ...toEmbedKey(row), submissionsLast30Days: Number(row.submissions ?? 0) }),
  );
}

async function createEmbedKey(ctx: AppContext & { state: { input: CreateEmbedKeyInput } }): Promise<void> {
  const db = dbOf(ctx);
  const { name, allowedOrigins } = ctx.state.input;
  const [row] = await db<EmbedKeyRow>('embed_keys')
    .insert({
      name,
      key: newEmbedKey(),
      allowed_origins: JSON.stringify([...new Set(allowedOrigins)]),
      created_by: ctx.state.user?.id ?? null,
    } as Partial<EmbedKeyRow>)
    .returning('*');
  const key = toEmbedKey(row as EmbedKeyRow);
  await audit(db, ctx, {
    action: 'embed_key.create',
    outcome: 'success',
    entityType: 'embed_key',
    entityId: key.id,
  });
  ctx.status = 201;
  ctx.body = key;
}

async function updateEmbedKey(ctx: AppContext & { state: { input: UpdateEmbedKeyInput } }): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const { name, allowedOrigins } = ctx.state.input;
  const changes: Record<string, unknown> = {};
  if (name !== undefined) changes.name = name;
  if (allowedOrigins !== undefined) changes.allowed_origins = JSON.stringify([...new Set(allowedOrigins)]);
  const query = db<EmbedKeyRow>('embed_keys').where({ id });
  const [row] =
    Object.keys(changes).length > 0 ? await query.update(changes).returning('*') : [await query.first()];
  if (!row) throw notFound();
  await audit(db, ctx, {
    action: 'embed_key.update',
    outcome: 'success',
    entityType: 'embed_key',
    entityId: id,
  });
  ctx.body = toEmbedKey(row);
}

async function revokeEmbedKey(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const [row] = await db<EmbedKeyRow>('embed_keys')
    .where({ id })
    .update({ revoked_at: db.raw('coalesce(revoked_at, now())') } as unknown as Partial<EmbedKeyRow>)
    .returning('*');
  if (!row) throw notFound();
  await audit(db, ctx, {
    action: 'embed_key.revoke',
    outcome: 'success',
    entityType: 'embed_key',
    entityId: id,
  });
  ctx.body = toEmbedKey(row);
}

/** Brings a revoked key back, with the origins it had: the partner pages using it work again. */
async function restoreEmbedKey(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const [row] = await db<EmbedKeyRow>('embed_keys')
    .where({ id })
    .update({ revoked_at: null } as Partial<EmbedKeyRow>)
    .returning('*');
  if (!row) throw notFound();
  await audit(db, ctx, {
    action: 'embed_key.restore',
    outcome: 'success',
    entityType: 'embed_key',
    entityId: id,
  });
  ctx.body = toEmbedKey(row);
}

/**
 * Revokes a key and issues a new one with the same name and origins, in one transaction: for a key
 * that leaked or must change, without retyping its sites. Answers the new key.
 */
async function replaceEmbedKey(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = idParam(ctx);
  const old = await db<EmbedKeyRow>('embed_keys').where({ id }).forUpdate().first();
  if (!old) throw notFound();
  if (old.revoked_at) throw conflict(publicFormsMessages.embedKeyAlreadyRevoked);
  await db<EmbedKeyRow>('embed_keys')
    .where({ id })
    .update({ revoked_at: db.fn.now() } as unknown as Partial<EmbedKeyRow>);
  const [row] = await db<EmbedKeyRow>('embed_keys')
    .insert({
      name: old.name,
      key: newEmbedKey(),
      allowed_origins: JSON.stringify(toEmbedKey(old).allowedOrigins),
      created_by: ctx.state.user?.id ?? null,
    } as Partial<EmbedKeyRow>)
    .returning('*');
  const key = toEmbedKey(row as EmbedKeyRow);
  await audit(db, ctx, {
    action: 'embed_key.replace',
    outcome: 'success',
    entityType: 'embed_key',
    entityId: id,
    details: { replacedBy: key.id },
  });
  ctx.status = 201;
  ctx.body = key;
}

/** The versioned URLs and SRI hashes of the widget scripts this server serves. */
async function listWidgetScripts(ctx: AppContext): Promise<void> {
  ctx.body = await widgetScripts(ctx.services.config.widgetsDir);
}

/** Where a new embed snippet starts: the practice's default widget theme and accent colour. */
async function embedDefaults(ctx: AppContext): Promise<void> {
  const { settings } = ctx.services;
  const answer: EmbedDefaults = {
    theme: await settings.get('embedTheme'),
    accentColor: await settings.get('embedAccentColor'),
  };
  ctx.body = answer;
}

export function embedKeyRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/embed-keys', can('read', 'Widget'), listEmbedKeys);
  router.post(
    '/api/admin/embed-keys',
    can('manage', 'Widget'),
    validate(CreateEmbedKeyInput),
    inTransaction,
    createEmbedKey,
  );
  router.patch(
    '/api/admin/embed-keys/:id',
    can('manage', 'Widget'),
    validate(UpdateEmbedKeyInput),
    inTransaction,
    updateEmbedKey,
  );
  router.delete('/api/admin/embed-keys/:id', can('manage', 'Widget'), inTransaction, revokeEmbedKey);
  router.post('/api/admin/embed-keys/:id/restore', can('manage', 'Widget'), inTransaction, restoreEmbedKey);
  router.post('/api/admin/embed-keys/:id/replace', can('manage', 'Widget'), inTransaction, replaceEmbedKey);
  router.get('/api/admin/widget-scripts', can('read', 'Widget'), listWidgetScripts);
  router.get('/api/admin/embed-defaults', can('read', 'Widget'), embedDefaults);
  return router;
}
