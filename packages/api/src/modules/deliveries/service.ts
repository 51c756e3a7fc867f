import { randomUUID } from 'node:crypto';
import { messagingMessages, type RenderedMessage, type TemplateChannel } from '@wellrest/core';
import type { Knex } from 'knex';
import type { Job } from '../../jobs/jobs.js';
import { type OutboxJobData, writeOutbox } from '../../jobs/outbox.js';
import type { Logger } from '../../logger.js';
import { notify } from '../notifications/store.js';
import { emailConfigured, readMessagingSettings, smsConfigured } from './settings.js';
import { DeliveryError, phoneKey, sendEmail, sendSms } from './transports.js';

// Every email and text is a `deliveries` row first (queued, with its rendered content and an
// idempotency key), written in the transaction that asks for it together with an outbox event;
// the delivery job then sends it once. The row is marked `sending` before the provider is called
// and `sent` right after, so a job retried after a crash finds what happened: `sent` is not sent
// again, and `sending` (the outcome unknown) fails visibly instead of risking a second message.

export const DELIVERY_TOPIC = 'delivery.requested';
export const DELIVERY_QUEUE = 'delivery-send';

export interface DeliveryRequest {
  channel: TemplateChannel;
  recipient: string;
  content: RenderedMessage;
  templateId?: number | null;
  templateVersion?: number | null;
  patientId?: number | null;
  containsPhi: boolean;
  /** Names this send; the same key again returns the first delivery. */
  idempotencyKey?: string;
  createdBy?: number | null;
}

/** Queues a delivery. Pass the transaction of the change it belongs to. */
export async function requestDelivery(
  db: Knex,
  request: DeliveryRequest,
): Promise<{ id: number; created: boolean }> {
  const idempotencyKey = request.idempotencyKey ?? randomUUID();
  const [row] = await db('deliveries')
    .insert({
      channel: request.channel,
      recipient: request.recipient,
      content: JSON.stringify(request.content),
      template_id: request.templateId ?? null,
      template_version: request.templateVersion ?? null,
      patient_id: request.patientId ?? null,
      contains_phi: request.containsPhi,
      idempotency_key: idempotencyKey,
      created_by: request.createdBy ?? null,
    })
    .onConflict('idempotency_key')
    .ignore()
    .returning('id');
  if (row) {
    await writeOutbox(db, DELIVERY_TOPIC, { deliveryId: (row as { id: number }).id });
    return { id: (row as { id: number }).id, created: true };
  }
  const existing = await db('deliveries').where({ idempotency_key: idempotencyKey }).first('id');
  return { id: Number(existing.id), created: false };
}

/** Sends a failed or bounced delivery again (same row, same key). False when it is not retryable. */
export async function retryDelivery(db: Knex, id: number): Promise<boolean> {
  const updated = await db('deliveries')
    .where({ id })
    .whereIn('status', ['failed', 'bounced'])
    .update({ status: 'queued', error_code: null, updated_at: db.fn.now() });
  if (updated === 0) return false;
  await writeOutbox(db, DELIVERY_TOPIC, { deliveryId: id });
  return true;
}

export interface DeliveryHooks {
  /** Called once a delivery is recorded as sent, before its job completes. */
  afterSent?(deliveryId: number): void | Promise<void>;
}

interface DeliveryRow {
  id: number;
  channel: TemplateChannel;
  recipient: string;
  content: RenderedMessage;
  contains_phi: boolean;
  status: string;
  idempotency_key: string;
}

export interface DeliveryWorkerDeps {
  knex: Knex;
  secret: string;
  logger: Logger;
  hooks?: DeliveryHooks | undefined;
  /** Where the SMS provider posts delivery receipts (none without a public address). */
  statusCallbackUrl?: string | undefined;
}

/** The delivery job's handler. */
export function deliveryHandler(deps: DeliveryWorkerDeps) {
  const { knex } = deps;
  const finish = (id: number, changes: Record<string, unknown>) =>
    knex('deliveries')
      .where({ id })
      .update({ ...changes, updated_at: knex.fn.now() });

  return async (job: Job<OutboxJobData>): Promise<object> => {
    const id = Number(job.data.payload.deliveryId);
    const row = await knex<DeliveryRow>('deliveries').where({ id }).first();
    if (!row) return { skipped: 'missing' };
    if (row.status === 'sending') {
      // An earlier run stopped between calling the provider and recording the outcome.
      await finish(id, { status: 'failed', error_code: 'interrupted' });
      return { skipped: 'interrupted' };
    }
    if (row.status !== 'queued') return { skipped: row.status };
    const claimed = await knex('deliveries')
      .where({ id, status: 'queued' })
      .update({ status: 'sending', attempts: knex.raw('attempts + 1'), updated_at: knex.fn.now() });
    if (claimed === 0) return { skipped: 'claimed' };

    try {
      const settings = await readMessagingSettings(knex, deps.secret);
      let providerId: string;
      let transport: string;
      if (row.channel === 'email') {
        if (!emailConfigured(settings)) {
          await finish(id, { status: 'outbox', transport: 'outbox', error_code: null });
          return { outbox: true };
        }
        const sent = await sendEmail(
          settings,
          {
            to: row.recipient,
            subject: row.content.subject ?? '',
            html: row.content.html,
            text: row.content.text,
            messageId: `<${row.idempotency_key}@wellrest.delivery>`,
            idempotencyKey: row.idempotency_key,
          },
          { requireTls: row.contains_phi },
        );
        providerId = sent.providerId;
        transport = 'smtp';
      } else {
        const optedOut = await knex('sms_opt_outs')
          .where({ phone: phoneKey(row.recipient) })
          .first('phone');
        if (optedOut) {
          await finish(id, { status: 'failed', error_code: 'opted_out' });
          return { optedOut: true };
        }
        if (!smsConfigured(settings)) {
          await finish(id, { status: 'outbox', transport: 'outbox', error_code: null });
          return { outbox: true };
        }
        providerId = (
          await sendSms(settings, {
            to: row.recipient,
            body: row.content.body ?? '',
            statusCallbackUrl: deps.statusCallbackUrl,
          })
        ).providerId;
        transport = 'sms';
      }
      await finish(id, {
        status: 'sent',
        provider_id: providerId,
        transport,
        error_code: null,
        sent_at: knex.fn.now(),
      });
      await deps.hooks?.afterSent?.(id);
      return { sent: true };
    } catch (error) {
      if (!(error instanceof DeliveryError)) {
        await finish(id, { status: 'queued' });
        throw error;
      }
      if (error.optedOut) {
        await knex('sms_opt_outs')
          .insert({ phone: phoneKey(row.recipient), source: 'provider' })
          .onConflict('phone')
          .ignore();
        await finish(id, { status: 'failed', error_code: 'opted_out' });
        return { optedOut: true };
      }
      if (error.transient && job.retryCount < job.retryLimit) {
        // Stays queued: the queue retries it with exponential backoff.
        await finish(id, { status: 'queued', error_code: error.code });
        throw error;
      }
      const status = !error.transient && /^smtp_5\d\d$/.test(error.code) ? 'bounced' : 'failed';
      await knex.transaction(async (trx) => {
        await trx('deliveries')
          .where({ id })
          .update({ status, error_code: error.code, updated_at: trx.fn.now() });
        // Those who read the delivery log hear of it, and can send it again from there.
        for (const role of ['scheduler', 'admin'] as const)
          await notify(trx, {
            role,
            kind: 'delivery.failed',
            title: messagingMessages.notifications.deliveryFailed(row.channel),
            body: messagingMessages.notifications.deliveryFailedBody,
            link: '/notifications',
          });
      });
      // Out of retries: the job goes to the dead-letter queue, the delivery can be retried by staff.
      if (error.transient) throw error;
      return { failed: error.code };
    }
  };
}
