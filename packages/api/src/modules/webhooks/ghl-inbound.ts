import { verify } from 'node:crypto';
import { WEBHOOK_REPLAY_WINDOW_MS, type WebhookSignature, type WebhookStatus } from '@wellrest/core';
import type { Knex } from 'knex';
import { z } from 'zod';
import { contactToPatient } from '../ghl/sync.js';

// GoHighLevel's webhooks (marketplace app events): each is signed with GHL's private key; the
// RSA-SHA256 signature of the raw body, base64, comes in `x-wh-signature`, checked against the
// public key GHL publishes (a setting). A payload carries `webhookId` (duplicates are dropped)
// and `timestamp` (older or newer than the window is refused as a replay). Contact events are
// applied to patients idempotently: create and update set the name, email and phone of the
// patient linked by ghl_id (a new GHL lead when none is); delete unlinks it (the record stays).

export const GHL_SIGNATURE_HEADER = 'x-wh-signature';

export const GhlWebhookPayload = z
  .object({
    type: z.string().trim().min(1).max(100),
    webhookId: z.string().trim().min(1).max(200),
    timestamp: z.string().trim().min(1).max(40),
    locationId: z.string().max(200).optional(),
    id: z.string().trim().min(1).max(200).optional(),
    contactName: z.string().max(300).optional(),
    name: z.string().max(300).optional(),
    firstName: z.string().max(200).optional(),
    lastName: z.string().max(200).optional(),
    email: z.string().max(320).optional(),
    phone: z.string().max(40).optional(),
  })
  .passthrough();
export type GhlWebhookPayload = z.infer<typeof GhlWebhookPayload>;

export function checkSignature(raw: string, signature: string, publicKey: string): WebhookSignature {
  if (publicKey === '') return 'not_configured';
  if (signature === '') return 'missing';
  try {
    return verify('sha256', Buffer.from(raw, 'utf8'), publicKey, Buffer.from(signature, 'base64'))
      ? 'valid'
      : 'invalid';
  } catch {
    return 'invalid';
  }
}

export function withinReplayWindow(timestamp: string, now = Date.now()): boolean {
  const at = Date.parse(timestamp);
  return Number.isFinite(at) && Math.abs(now - at) <= WEBHOOK_REPLAY_WINDOW_MS;
}

export interface Applied {
  status: Extract<WebhookStatus, 'processed' | 'ignored'>;
  reason: string | null;
  patientId: number | null;
  change: 'created' | 'updated' | 'unchanged' | 'unlinked' | null;
}

/** Applies a contact event to the patients; safe to run again with the same payload. */
export async function applyGhlEvent(db: Knex, payload: GhlWebhookPayload): Promise<Applied> {
  const type = payload.type;
  if (type === 'ContactDelete') {
    if (!payload.id) return { status: 'ignored', reason: 'no_contact_id', patientId: null, change: null };
    const [row] = await db('patients')
      .where({ ghl_id: payload.id })
      .update({ ghl_id: null, updated_at: db.fn.now() })
      .returning('id');
    return row
      ? { status: 'processed', reason: null, patientId: (row as { id: number }).id, change: 'unlinked' }
      : { status: 'ignored', reason: 'not_linked', patientId: null, change: null };
  }
  if (type !== 'ContactCreate' && type !== 'ContactUpdate')
    return { status: 'ignored', reason: 'unsupported_event', patientId: null, change: null };
  const contact = contactToPatient({
    id: payload.id ?? '',
    contactName: payload.contactName ?? payload.name ?? null,
    firstName: payload.firstName ?? null,
    lastName: payload.lastName ?? null,
    email: payload.email ?? null,
    phone: payload.phone ?? null,
  } as Parameters<typeof contactToPatient>[0]);
  if (!contact) return { status: 'ignored', reason: 'incomplete_contact', patientId: null, change: null };
  const existing = await db('patients')
    .where({ ghl_id: contact.ghlId })
    .first<{ id: number; name: string; email: string; phone: string } | undefined>(
      'id',
      'name',
      'email',
      'phone',
    );
  if (existing) {
    const changes: Record<string, string> = {};
    if (existing.name !== contact.name) changes.name = contact.name;
    if (contact.email && existing.email !== contact.email) changes.email = contact.email;
    if (contact.phone && existing.phone !== contact.phone) changes.phone = contact.phone;
    if (Object.keys(changes).length === 0)
      return { status: 'processed', reason: null, patientId: existing.id, change: 'unchanged' };
    await db('patients')
      .where({ id: existing.id })
      .update({ ...changes, updated_at: db.fn.now() });
    return { status: 'processed', reason: null, patientId: existing.id, change: 'updated' };
  }
  const [row] = await db('patients')
    .insert({
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      lead_source: 'GHL',
      ghl_id: contact.ghlId,
    })
    .onConflict('ghl_id')
    .ignore()
    .returning('id');
  if (!row) {
    const raced = await db('patients').where({ ghl_id: contact.ghlId }).first<{ id: number }>('id');
    return { status: 'processed', reason: null, patientId: raced?.id ?? null, change: 'unchanged' };
  }
  return { status: 'processed', reason: null, patientId: (row as { id: number }).id, change: 'created' };
}
