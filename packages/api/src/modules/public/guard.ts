import { randomUUID } from 'node:crypto';
import { isOrigin, PUBLIC_FORM_MIN_FILL_MS, publicFormsMessages } from '@wellrest/core';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import { audit } from '../../audit/audit.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { findActiveEmbedKey, markEmbedKeyUsed } from '../embed-keys/store.js';
import { withinDeadline } from './deadline.js';

// What every /api/public call passes before its handler: the embed key and origin check (which
// also answers CORS), the anti-bot checks, idempotency and rate limits. Submissions are counted in
// `public_submissions`, so several API processes share the limits and nothing lives in memory.

export const EMBED_KEY_HEADER_NAME = 'x-wellrest-embed-key';

/** Submissions allowed per window, per client address and per embed key. */
export const PUBLIC_RATE_LIMITS = { windowMinutes: 10, perIp: 20, perKey: 200 } as const;

export interface PublicState extends AppState {
  /** The embed key a cross-site request came with; absent for the Wellrest origin itself. */
  embedKeyId?: number | null;
}
export type PublicContext = AppContext & { state: PublicState };

const CORS_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': `content-type, ${EMBED_KEY_HEADER_NAME}, idempotency-key`,
  'Access-Control-Max-Age': '600',
} as const;

/** True when the request comes from the Wellrest origin itself, or from no browser at all. */
function isOwnOrigin(ctx: AppContext): boolean {
  const origin = ctx.get('origin');
  if (!origin) return true;
  const fetchSite = ctx.get('sec-fetch-site').toLowerCase();
  if (fetchSite === 'same-origin') return true;
  const ownOrigin = `${ctx.protocol}://${ctx.host}`;
  return origin === ownOrigin || origin === ctx.services.config.publicUrl;
}

/** CORS for this one origin; a header value that is no origin is never echoed back. */
function allowOrigin(ctx: AppContext, origin: string): void {
  if (!isOrigin(origin)) return;
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.vary('Origin');
}

/**
 * A refusal the calling page can read: CORS for the requesting origin only (so the widget tells
 * "not set up for this website" apart from an outage), and a body that names no key or origin.
 */
function refuse(ctx: AppContext, origin: string): HttpError {
  allowOrigin(ctx, origin);
  return new HttpError(403, publicFormsMessages.embedKeyRefused);
}

/**
 * Cross-site calls must name an embed key whose allowed origins include the caller's origin;
 * the answer then carries CORS headers for that origin only. Calls from the Wellrest origin (the
 * full-page public routes) need no key.
 */
export const embedAccess: Middleware<PublicState, AppContextExtension> = async (ctx, next) => {
  ctx.vary('Origin');
  if (isOwnOrigin(ctx)) {
    ctx.state.embedKeyId = null;
    return next();
  }
  const origin = ctx.get('origin');
  const key = ctx.get(EMBED_KEY_HEADER_NAME);
  let embedKey: Awaited<ReturnType<typeof findActiveEmbedKey>>;
  try {
    embedKey = key ? await withinDeadline(findActiveEmbedKey(dbOf(ctx), key)) : undefined;
  } catch {
    // The database is unreachable: an outage the page can read, never a refusal.
    allowOrigin(ctx, origin);
    throw new HttpError(503, publicFormsMessages.unavailable);
  }
  if (!embedKey?.allowedOrigins.includes(origin)) throw refuse(ctx, origin);
  allowOrigin(ctx, origin);
  ctx.state.embedKeyId = embedKey.id;
  await markEmbedKeyUsed(dbOf(ctx), embedKey.id);
  await next();
};

/**
 * A preflight carries no custom header, so it cannot name its key: it is answered for any origin,
 * without a database look-up. It only lets the browser send the real request, which is checked
 * against its own key and origin (no cookies are ever allowed), and whose refusal the page can
 * then read instead of seeing a CORS failure.
 */
export const preflight: Middleware<PublicState, AppContextExtension> = async (ctx) => {
  const origin = ctx.get('origin');
  if (origin && !isOwnOrigin(ctx)) {
    allowOrigin(ctx, origin);
    for (const [name, value] of Object.entries(CORS_HEADERS)) ctx.set(name, value);
  }
  ctx.status = 204;
};

interface AntiBotFields {
  startedAt: number;
}

/** Refuses forms submitted faster than a person could fill them in. The honeypot is in the schema. */
export const minimumFillTime: Middleware<
  PublicState & { input: AntiBotFields },
  AppContextExtension
> = async (ctx, next) => {
  if (Date.now() - ctx.state.input.startedAt < PUBLIC_FORM_MIN_FILL_MS) {
    await audit(dbOf(ctx), ctx, {
      action: 'public.refused',
      outcome: 'denied',
      details: { reason: 'too_fast' },
    });
    throw badRequest(publicFormsMessages.tooFast, { fields: { startedAt: publicFormsMessages.tooFast } });
  }
  await next();
};

/** The address a submission is counted under; a request without one shares a single count. */
function clientAddress(ctx: AppContext): string {
  return ctx.ip || 'unknown';
}

/**
 * Answers 429 once the caller's address or embed key has used up its submissions for the window.
 * Requests from the Wellrest origin itself (or sent with no Origin header at all) count together
 * as one more key, so leaving the header out never skips the per-key limit.
 */
export const submissionRateLimit: Middleware<PublicState, AppContextExtension> = async (ctx, next) => {
  const db = dbOf(ctx);
  const since = new Date(Date.now() - PUBLIC_RATE_LIMITS.windowMinutes * 60_000);
  const count = async (column: 'ip' | 'embed_key_id', value: string | number | null) => {
    const query = db('public_submissions').where('created_at', '>', since);
    if (value === null) query.whereNull(column);
    else query.where(column, value);
    const [row] = await query.count<{ count: string | number }[]>('id as count');
    return Number(row?.count ?? 0);
  };
  const overIp = (await count('ip', clientAddress(ctx))) >= PUBLIC_RATE_LIMITS.perIp;
  const overKey =
    !overIp && (await count('embed_key_id', ctx.state.embedKeyId ?? null)) >= PUBLIC_RATE_LIMITS.perKey;
  if (overIp || overKey) {
    ctx.set('Retry-After', String(PUBLIC_RATE_LIMITS.windowMinutes * 60));
    throw new HttpError(429, publicFormsMessages.rateLimited);
  }
  await next();
};

export type SubmissionKind = 'booking_request' | 'referral' | 'physician_signup' | 'dropoff';

/**
 * Claims an idempotency key for a submission inside the request's transaction. Returns the new
 * request id, or `{ repeated }` with the first answer's id when the key was already used (a
 * concurrent first use waits on the unique index, then is seen as a repeat).
 */
export async function claimSubmission(
  db: Knex,
  ctx: PublicContext,
  kind: SubmissionKind,
  idempotencyKey: string,
): Promise<{ requestId: string; repeated: boolean }> {
  const requestId = randomUUID();
  const inserted = await db('public_submissions')
    .insert({
      kind,
      idempotency_key: idempotencyKey,
      request_id: requestId,
      embed_key_id: ctx.state.embedKeyId ?? null,
      ip: clientAddress(ctx),
    })
    .onConflict(['kind', 'idempotency_key'])
    .ignore()
    .returning('id');
  if (inserted.length > 0) return { requestId, repeated: false };
  const first = await db('public_submissions')
    .where({ kind, idempotency_key: idempotencyKey })
    .first<{ request_id: string }>('request_id');
  if (!first) throw new HttpError(409, publicFormsMessages.idempotencyKeyInvalid);
  return { requestId: first.request_id, repeated: true };
}

/** The first answer to an idempotency key, when there was one: lets a repeat skip the rate limit. */
export async function earlierSubmission(
  db: Knex,
  kind: SubmissionKind,
  idempotencyKey: string,
): Promise<string | undefined> {
  const row = await db('public_submissions')
    .where({ kind, idempotency_key: idempotencyKey })
    .first<{ request_id: string } | undefined>('request_id');
  return row?.request_id;
}

/** Answers a repeated idempotency key with the first answer before the rate limit counts it. */
export function replayRepeats(
  kind: SubmissionKind,
): Middleware<PublicState & { input: { idempotencyKey: string } }, AppContextExtension> {
  return async (ctx, next) => {
    const requestId = await earlierSubmission(dbOf(ctx), kind, ctx.state.input.idempotencyKey);
    if (requestId) {
      ctx.status = 200;
      ctx.body = { requestId };
      return;
    }
    await next();
  };
}
