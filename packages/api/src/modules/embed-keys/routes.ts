import Router from '@koa/router';
import { CreateEmbedKeyInput, UpdateEmbedKeyInput } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { type EmbedKeyRow, newEmbedKey, toEmbedKey } from './store.js';

// Administrators name the partner sites (origins) allowed to embed the widgets with each key.

async function listEmbedKeys(ctx: AppContext): Promise<void> {
  const rows = await dbOf(ctx)<EmbedKeyRow>('embed_keys').orderBy('id');
  ctx.body = rows.map(toEmbedKey);
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
  return router;
}
