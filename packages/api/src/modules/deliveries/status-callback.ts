import { createHmac, timingSafeEqual } from 'node:crypto';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { messages } from '@wellrest/core';
import { z } from 'zod';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { HttpError, notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { readMessagingSettings } from './settings.js';

// Delivery receipts from the SMS provider. Twilio-compatible APIs POST the message's later
// statuses to the StatusCallback URL given when it was sent (form-encoded MessageSid,
// MessageStatus, ErrorCode...), signed in X-Twilio-Signature: base64 HMAC-SHA1, keyed with the
// auth token, of the URL followed by every POST parameter's name and value sorted by name.

export const SMS_STATUS_PATH = '/api/public/sms/status';

/** The StatusCallback URL sent with each text, when the practice's public address is known. */
export function smsStatusCallbackUrl(publicUrl: string | undefined): string | undefined {
  return publicUrl ? new URL(SMS_STATUS_PATH, publicUrl).toString() : undefined;
}

export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((signed, name) => signed + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The provider's statuses that change what the delivery log shows; the others are steps. */
const FINAL_STATUSES = { delivered: 'delivered', undelivered: 'failed', failed: 'failed' } as const;

export const SmsStatusReport = z.object({
  MessageSid: z.string().regex(/^[A-Za-z0-9]{2,64}$/),
  MessageStatus: z.string().min(1).max(32),
  ErrorCode: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
});

/** The receipts' body parser (the app's JSON parser hands this path over to it). */
export const parseSmsStatusForm = bodyParser({ enableTypes: ['form'], formLimit: '16kb' });

async function receiveStatus(ctx: AppContext & { state: { input: z.infer<typeof SmsStatusReport> } }) {
  const { services } = ctx;
  const url = smsStatusCallbackUrl(services.config.publicUrl);
  const settings = await readMessagingSettings(services.db.knex, services.config.secret);
  // Receipts are only asked for when the public address and the provider are configured.
  if (!url || !settings.smsToken) throw notFound(messages.common.notFound);
  const params = Object.fromEntries(
    Object.entries((ctx.request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
  const given = ctx.get('x-twilio-signature');
  if (!given || !sameSignature(twilioSignature(settings.smsToken, url, params), given))
    throw new HttpError(403, messages.common.forbidden);

  const { MessageSid, MessageStatus, ErrorCode } = ctx.state.input;
  const status = FINAL_STATUSES[MessageStatus as keyof typeof FINAL_STATUSES];
  if (status) {
    // Only a message the provider accepted moves on; a receipt never reopens a later state.
    const updated = await services.db
      .knex('deliveries')
      .where({ channel: 'sms', provider_id: MessageSid, status: 'sent' })
      .update({
        status,
        error_code: status === 'failed' ? `sms_${ErrorCode ?? MessageStatus}` : null,
        updated_at: services.db.knex.fn.now(),
      });
    if (updated > 0)
      services.logger.info({ providerStatus: MessageStatus, deliveryStatus: status }, 'SMS receipt recorded');
  }
  ctx.status = 204;
}

export function smsStatusRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post(SMS_STATUS_PATH, validate(SmsStatusReport), receiveStatus);
  return router;
}
