import Router from '@koa/router';
import {
  type WebhookDeliveryView,
  type WebhookSignature,
  type WebhookStatus,
  webhookMessages,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { DeniedAuditLimiter } from '../../audit/denied.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest, HttpError, notFound, unauthorized } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import {
  applyGhlEvent,
  checkSignature,
  GHL_SIGNATURE_HEADER,
  GhlWebhookPayload,
  withinReplayWindow,
} from './ghl-inbound.js';

// POST /api/webhooks/ghl receives GoHighLevel's events (see ghl-inbound.ts); /webhook-logs lists
// every delivery and lets an administrator replay one whose signature held.

interface DeliveryRow {
  id: string;
  direction: 'inbound' | 'outbound';
  source: string;
  event: string;
  webhook_id: string | null;
  status: WebhookStatus;
  signature: WebhookSignature;
  reason: string | null;
  attempts: number;
  latency_ms: number | null;
  payload: Record<string, unknown>;
  patient_id: number | null;
  received_at: Date;
  replayed_at: Date | null;
}

/** Fields of a payload that say nothing about a person. */
const NOT_PERSONAL = new Set(['type', 'webhookId', 'timestamp', 'locationId', 'id', 'dateAdded', 'version']);

function masked(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).map(([key, value]) => [key, NOT_PERSONAL.has(key) ? value : '•••']),
  );
}

function toView(row: DeliveryRow, mayReadPatients: boolean): WebhookDeliveryView {
  return {
    id: Number(row.id),
    direction: row.direction,
    source: row.source,
    event: row.event,
    webhookId: row.webhook_id,
    status: row.status,
    signature: row.signature,
    reason: row.reason,
    attempts: row.attempts,
    latencyMs: row.latency_ms,
    patientId: row.patient_id,
    receivedAt: new Date(row.received_at).toISOString(),
    replayedAt: row.replayed_at ? new Date(row.replayed_at).toISOString() : null,
    payload: mayReadPatients ? row.payload : masked(row.payload),
    masked: !mayReadPatients,
  };
}

async function logDelivery(
  db: Knex,
  row: Partial<DeliveryRow> & { status: WebhookStatus; signature: WebhookSignature },
) {
  const [inserted] = await db('webhook_deliveries')
    .insert({ direction: 'inbound', source: 'ghl', ...row, payload: JSON.stringify(row.payload ?? {}) })
    .returning('id');
  return Number((inserted as { id: string }).id);
}

/** Refused deliveries are logged at most this often per sender address: a flood cannot fill the log. */
/** Refused deliveries recorded per caller and minute; each server keeps its own count. */
const REFUSED_LOG_LIMITS = { perCaller: 30, total: 600, windowMs: 60_000 };

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

async function receiveGhl(refusedLog: DeniedAuditLimiter, ctx: AppContext): Promise<void> {
  const started = performance.now();
  const { knex } = ctx.services.db;
  const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const event = typeof body.type === 'string' ? body.type.slice(0, 100) : '';
  const webhookId = typeof body.webhookId === 'string' ? body.webhookId.slice(0, 200) : null;
  const latency = () => Math.round(performance.now() - started);
  const refuse = async (signature: WebhookSignature, reason: string, error: HttpError) => {
    if (!refusedLog.take(`ip:${ctx.ip}`).record) throw error;
    await logDelivery(knex, {
      event,
      webhook_id: webhookId,
      status: 'rejected',
      signature,
      reason,
      latency_ms: latency(),
      payload: body,
    });
    await audit(knex, ctx, {
      action: 'webhook.receive',
      outcome: 'denied',
      entityType: 'webhook',
      details: { source: 'ghl', event, reason },
    });
    throw error;
  };

  const publicKey = await ctx.services.settings.get('ghlWebhookPublicKey');
  const signature = checkSignature(raw, ctx.get(GHL_SIGNATURE_HEADER), publicKey);
  if (signature === 'not_configured')
    await refuse(signature, 'not_configured', new HttpError(404, 'Webhooks are not configured'));
  if (signature !== 'valid')
    await refuse(signature, `signature_${signature}`, unauthorized('Invalid signature'));
  const parsed = GhlWebhookPayload.safeParse(body);
  if (!parsed.success) await refuse(signature, 'malformed', badRequest('Malformed webhook'));
  const payload = parsed.data as GhlWebhookPayload;
  if (!withinReplayWindow(payload.timestamp))
    await refuse(signature, 'outside_replay_window', unauthorized('Stale webhook'));

  const duplicate = async () => {
    await logDelivery(knex, {
      event,
      webhook_id: webhookId,
      status: 'duplicate',
      signature,
      latency_ms: latency(),
      payload: body,
    });
    ctx.body = { status: 'duplicate' };
  };
  const seen = await knex('webhook_deliveries')
    .where({ source: 'ghl', webhook_id: payload.webhookId })
    .whereIn('status', ['processed', 'ignored'])
    .first('id');
  if (seen) return duplicate();
  try {
    const outcome = await knex.transaction(async (trx) => {
      const applied = await applyGhlEvent(trx, payload);
      await logDelivery(trx, {
        event,
        webhook_id: payload.webhookId,
        status: applied.status,
        signature,
        reason: applied.reason,
        latency_ms: latency(),
        payload: body,
        patient_id: applied.patientId,
      });
      await audit(trx, ctx, {
        action: 'webhook.receive',
        outcome: 'success',
        entityType: applied.patientId ? 'patient' : 'webhook',
        entityId: applied.patientId,
        details: {
          source: 'ghl',
          event,
          status: applied.status,
          change: applied.change,
          reason: applied.reason,
        },
      });
      return applied;
    });
    ctx.body = { status: outcome.status };
  } catch (error) {
    // The same webhook delivered twice at once: the second loses the race on the unique index.
    if (isUniqueViolation(error)) return duplicate();
    throw error;
  }
}

const WebhookLogQuery = z.object({
  before: z.coerce
    .number({ error: 'Must be a whole number' })
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .optional(),
  pageSize: z.coerce.number({ error: 'Must be a whole number' }).int().min(1).max(100).default(50),
});
type WebhookLogQuery = z.infer<typeof WebhookLogQuery>;

async function listDeliveries(ctx: AppContext & { state: { input: WebhookLogQuery } }): Promise<void> {
  const db = dbOf(ctx);
  const { before, pageSize } = ctx.state.input;
  const rows = (await db('webhook_deliveries')
    .modify((q) => {
      if (before) q.where('id', '<', before);
    })
    .orderBy('id', 'desc')
    .limit(pageSize + 1)) as DeliveryRow[];
  const mayReadPatients = ctx.state.ability?.can('read', 'Patient') ?? false;
  const page = rows.slice(0, pageSize);
  const patientIds = [...new Set(page.map((r) => r.patient_id).filter((id): id is number => id !== null))];
  await audit(db, ctx, {
    action: 'webhook_log.list',
    outcome: 'success',
    entityType: 'patient',
    entityId: patientIds.length === 1 ? patientIds[0] : null,
    details: { count: patientIds.length, ids: patientIds.join(','), masked: !mayReadPatients },
  });
  ctx.body = {
    items: page.map((row) => toView(row, mayReadPatients)),
    nextBefore: rows.length > pageSize ? Number(page.at(-1)?.id) : null,
  };
}

async function replayDelivery(ctx: AppContext): Promise<void> {
  const id = idParam(ctx);
  const { knex } = ctx.services.db;
  const started = performance.now();
  const result = await knex.transaction(async (trx) => {
    const row = (await trx('webhook_deliveries').where({ id }).forUpdate().first()) as
      | DeliveryRow
      | undefined;
    if (!row) throw notFound();
    const parsed = GhlWebhookPayload.safeParse(row.payload);
    if (row.direction !== 'inbound' || row.signature !== 'valid' || !parsed.success)
      throw badRequest(webhookMessages.notReplayable);
    let applied: Awaited<ReturnType<typeof applyGhlEvent>> | undefined;
    let failure: string | null = null;
    try {
      applied = await trx.transaction((inner) => applyGhlEvent(inner, parsed.data));
    } catch {
      failure = 'apply_failed';
    }
    const [updated] = await trx('webhook_deliveries')
      .where({ id })
      .update({
        attempts: row.attempts + 1,
        replayed_at: trx.fn.now(),
        latency_ms: Math.round(performance.now() - started),
        reason: failure ?? applied?.reason ?? null,
        patient_id: applied?.patientId ?? row.patient_id,
        // A duplicate or refused delivery that is replayed keeps its status: only the change is redone.
        ...(row.status === 'processed' || row.status === 'ignored' || row.status === 'failed'
          ? { status: failure ? 'failed' : (applied?.status ?? row.status) }
          : {}),
      })
      .returning('*');
    await audit(trx, ctx, {
      action: 'webhook_log.replay',
      outcome: failure ? 'failure' : 'success',
      entityType: 'webhook_delivery',
      entityId: id,
      details: { change: applied?.change ?? null, patientId: applied?.patientId ?? null },
    });
    return updated as DeliveryRow;
  });
  ctx.body = toView(result, ctx.state.ability?.can('read', 'Patient') ?? false);
}

export function webhookRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  // Signed by GoHighLevel, not a session: the signature is its access rule.
  const refusedLog = new DeniedAuditLimiter(REFUSED_LOG_LIMITS);
  router.post('/api/webhooks/ghl', (ctx) => receiveGhl(refusedLog, ctx));
  router.get<{ input: WebhookLogQuery }>(
    '/api/webhook-logs',
    can('read', 'WebhookLog'),
    validate(WebhookLogQuery, 'query'),
    listDeliveries,
  );
  router.post('/api/webhook-logs/:id/replay', can('manage', 'WebhookLog'), replayDelivery);
  return router;
}
