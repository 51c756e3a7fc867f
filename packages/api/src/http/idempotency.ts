import { createHash } from 'node:crypto';
import {
  frontDeskMessages,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  IDEMPOTENCY_TTL_HOURS,
} from '@wellrest/core';
import type { Middleware } from 'koa';
import type { AppContextExtension, AppState } from './context.js';
import { HttpError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface KeyRow {
  request_hash: string;
  response_status: number;
  response_body: unknown;
}

/** What makes two requests "the same": method, route and body. */
function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * Makes a create safe to repeat. A request carrying an `Idempotency-Key` (a UUID the client
 * makes once per submission) is answered, for 24 hours, with the first answer given to that key,
 * and writes nothing more.
 *
 * It runs inside the request's transaction (after `inTransaction`) and claims the key with an
 * insert in that transaction. A concurrent request with the same key blocks on that insert until
 * the first one ends: when the first commits, its answer is committed with it (in the same
 * transaction as the change) and is replayed; when it rolls back, the key is free and the waiting
 * request runs as if it were first. So a key is honoured by every API process sharing the
 * database, and a crash can never leave a change without its answer or an answer without its
 * change. Failed requests (4xx, 5xx) keep nothing: correcting and resending them works.
 */
export const idempotent: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  const key = ctx.get(IDEMPOTENCY_HEADER);
  const { trx, user } = ctx.state;
  if (!key || !user) return next();
  if (!trx) throw new Error('idempotent must run inside inTransaction');
  if (!UUID.test(key)) {
    throw new HttpError(400, frontDeskMessages.idempotencyKeyInvalid, {
      fields: { [IDEMPOTENCY_HEADER]: frontDeskMessages.idempotencyKeyInvalid },
    });
  }
  const hash = requestHash(ctx.method, ctx.path, ctx.request.body);
  // A key older than the replay window is free again: the expired row is taken over in place.
  const claimed = await trx.raw(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status)
     VALUES (?, ?, ?, 0)
     ON CONFLICT (user_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, response_status = 0, response_body = NULL, created_at = now()
       WHERE idempotency_keys.created_at < now() - make_interval(hours => ?)
     RETURNING user_id`,
    [user.id, key.toLowerCase(), hash, IDEMPOTENCY_TTL_HOURS],
  );
  if ((claimed.rows as unknown[]).length === 0) {
    const row = (await trx('idempotency_keys')
      .where({ user_id: user.id, key: key.toLowerCase() })
      .first('request_hash', 'response_status', 'response_body')) as KeyRow | undefined;
    if (!row) throw new Error('idempotency key vanished after a conflict');
    if (row.request_hash !== hash) throw new HttpError(422, frontDeskMessages.idempotencyKeyReused);
    ctx.status = row.response_status;
    ctx.body = row.response_body;
    ctx.set(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    return;
  }
  await next();
  await trx('idempotency_keys')
    .where({ user_id: user.id, key: key.toLowerCase() })
    .update({ response_status: ctx.status, response_body: JSON.stringify(ctx.body ?? null) });
  // The caller's own expired keys go as new ones come: the table holds about a day of creates.
  await trx('idempotency_keys')
    .where('user_id', user.id)
    .where('created_at', '<', trx.raw('now() - make_interval(hours => ?)', [IDEMPOTENCY_TTL_HOURS]))
    .delete();
};
