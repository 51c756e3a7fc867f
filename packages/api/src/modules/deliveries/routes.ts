import Router from '@koa/router';
import {
  DeliveryFilters,
  MessagingSettingsPatch,
  maskRecipient,
  messagingMessages,
  RETRYABLE_DELIVERY_STATUSES,
  type RenderedMessage,
  subject,
} from '@wellrest/core';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { badRequest, notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { retryDelivery } from './service.js';
import { readPublicMessagingSettings, updateMessagingSettings } from './settings.js';

// The delivery log (admins and schedulers): every email and text with its status, recipients
// masked; one message's rendered content on request (audited, PHI only for readers of the
// patient); retry of a failed one. And the delivery settings (administrators).

const m = messagingMessages.deliveries;
const IdParams = z.object({ id: z.coerce.number().int().positive() });

interface DeliveryListRow {
  id: number;
  channel: string;
  recipient: string;
  status: string;
  attempts: number;
  transport: string | null;
  provider_id: string | null;
  error_code: string | null;
  contains_phi: boolean;
  template_id: number | null;
  template_version: number | null;
  template_name: string | null;
  created_at: Date;
  sent_at: Date | null;
}

function listItem(row: DeliveryListRow) {
  return {
    id: Number(row.id),
    channel: row.channel,
    recipient: maskRecipient(row.recipient),
    status: row.status,
    attempts: row.attempts,
    transport: row.transport,
    providerId: row.provider_id,
    errorCode: row.error_code,
    containsPhi: row.contains_phi,
    template:
      row.template_id === null
        ? null
        : { id: row.template_id, name: row.template_name, version: row.template_version },
    createdAt: new Date(row.created_at).toISOString(),
    sentAt: row.sent_at ? new Date(row.sent_at).toISOString() : null,
  };
}

function baseQuery(ctx: AppContext) {
  return ctx.services.db
    .knex('deliveries as d')
    .leftJoin('message_templates as t', 't.id', 'd.template_id')
    .select(
      'd.id',
      'd.channel',
      'd.recipient',
      'd.status',
      'd.attempts',
      'd.transport',
      'd.provider_id',
      'd.error_code',
      'd.contains_phi',
      'd.template_id',
      'd.template_version',
      't.name as template_name',
      'd.created_at',
      'd.sent_at',
      'd.patient_id',
    );
}

async function listDeliveries(ctx: AppContext): Promise<void> {
  const filters = ctx.state.input as DeliveryFilters;
  const tz = await ctx.services.settings.get('practiceTimeZone');
  const query = baseQuery(ctx).orderBy('d.id', 'desc').limit(filters.limit);
  if (filters.channel) query.where('d.channel', filters.channel);
  if (filters.status) query.where('d.status', filters.status);
  // Dates are days in the practice time zone.
  if (filters.from) query.whereRaw(`(d.created_at AT TIME ZONE ?)::date >= ?::date`, [tz, filters.from]);
  if (filters.to) query.whereRaw(`(d.created_at AT TIME ZONE ?)::date <= ?::date`, [tz, filters.to]);
  const rows: DeliveryListRow[] = await query;
  await audit(ctx.services.db.knex, ctx, {
    action: 'delivery.list',
    outcome: 'success',
    entityType: 'delivery',
    details: { count: rows.length },
  });
  ctx.body = { items: rows.map(listItem) };
}

async function viewDelivery(ctx: AppContext): Promise<void> {
  const { id } = ctx.state.input as z.infer<typeof IdParams>;
  const db = ctx.services.db.knex;
  const row = await baseQuery(ctx).select('d.content').where('d.id', id).first();
  if (!row) throw notFound(m.notFound);
  let phiAllowed = true;
  if (row.contains_phi) {
    const patient = row.patient_id
      ? await db('patients').where({ id: row.patient_id }).first('id', 'physician_id')
      : undefined;
    // Clinical content is shown to those who may read the patient (any patient, when none is linked).
    phiAllowed = patient
      ? ctx.state.ability?.can('read', subject('Patient', { physicianId: patient.physician_id ?? null })) ===
        true
      : ctx.state.ability?.can('read', 'Patient') === true;
  }
  await audit(db, ctx, {
    action: 'delivery.view',
    outcome: phiAllowed ? 'success' : 'denied',
    entityType: 'delivery',
    entityId: id,
    details: { patientId: row.patient_id ?? null, containsPhi: row.contains_phi },
  });
  ctx.body = {
    ...listItem(row),
    recipient: phiAllowed ? row.recipient : maskRecipient(row.recipient),
    content: phiAllowed ? (row.content as RenderedMessage) : null,
    phiHidden: !phiAllowed,
  };
}

async function retry(ctx: AppContext): Promise<void> {
  const { id } = ctx.state.input as z.infer<typeof IdParams>;
  const { db, outbox } = ctx.services;
  const retried = await db.knex.transaction(async (trx) => {
    const row = await trx('deliveries').where({ id }).first('status');
    if (!row) throw notFound(m.notFound);
    if (!RETRYABLE_DELIVERY_STATUSES.includes(row.status)) throw badRequest(m.notRetryable);
    await retryDelivery(trx, id);
    await audit(trx, ctx, {
      action: 'delivery.retry',
      outcome: 'success',
      entityType: 'delivery',
      entityId: id,
    });
    return true;
  });
  if (retried) outbox.poke();
  ctx.body = { id, status: 'queued' };
}

async function readSettings(ctx: AppContext): Promise<void> {
  ctx.body = await readPublicMessagingSettings(ctx.services.db.knex);
}

async function patchSettings(ctx: AppContext): Promise<void> {
  const patch = ctx.state.input as MessagingSettingsPatch;
  const { db, config } = ctx.services;
  await db.knex.transaction(async (trx) => {
    const changed = await updateMessagingSettings(trx, config.secret, patch, ctx.state.user?.id ?? null);
    if (changed.length > 0)
      await audit(trx, ctx, {
        action: 'messaging_settings.update',
        outcome: 'success',
        entityType: 'setting',
        details: { keys: changed.join(',') },
      });
  });
  ctx.body = await readPublicMessagingSettings(db.knex);
}

export function deliveryRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/deliveries', can('read', 'Delivery'), validate(DeliveryFilters, 'query'), listDeliveries);
  router.get('/api/deliveries/:id', can('read', 'Delivery'), validate(IdParams, 'params'), viewDelivery);
  router.post('/api/deliveries/:id/retry', can('update', 'Delivery'), validate(IdParams, 'params'), retry);
  router.get('/api/messaging/settings', can('manage', 'Setting'), readSettings);
  router.patch(
    '/api/messaging/settings',
    can('manage', 'Setting'),
    validate(MessagingSettingsPatch),
    patchSettings,
  );
  return router;
}
