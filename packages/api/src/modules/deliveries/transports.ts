import nodemailer from 'nodemailer';
import type { MessagingSettings } from './settings.js';

// The two ways out: SMTP through nodemailer, and an SMS provider speaking Twilio's Messages API.
// Each failure is classified: transient ones (connection trouble, 4xx SMTP replies, HTTP 429 and
// 5xx) are retried; permanent ones end the delivery with a code. Codes never carry remote text.

export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    readonly code: string,
    readonly transient: boolean,
    /** The recipient refused the channel (SMS STOP). */
    readonly optedOut = false,
  ) {
    super(code);
  }
}

export interface EmailMessage {
  to: string;
  subject: string;
  html?: string | undefined;
  text?: string | undefined;
  /** Message-ID derived from the delivery's idempotency key. */
  messageId: string;
  idempotencyKey: string;
}

const TIMEOUT_MS = 15_000;

export async function sendEmail(
  settings: MessagingSettings,
  message: EmailMessage,
  options: { requireTls: boolean },
): Promise<{ providerId: string; tls: boolean }> {
  const transport = nodemailer.createTransport({
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecure,
    // With PHI, refuse to send unless the connection is encrypted (STARTTLS when not implicit TLS).
    requireTLS: options.requireTls && !settings.smtpSecure,
    ...(settings.smtpUser ? { auth: { user: settings.smtpUser, pass: settings.smtpPassword } } : {}),
    tls: { minVersion: 'TLSv1.2', ...(settings.smtpCaPem ? { ca: settings.smtpCaPem } : {}) },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    const info = await transport.sendMail({
      from: settings.fromAddress,
      to: message.to,
      subject: message.subject,
      ...(message.html ? { html: message.html } : {}),
      ...(message.text ? { text: message.text } : {}),
      messageId: message.messageId,
      headers: { 'X-Wellrest-Delivery': message.idempotencyKey },
    });
    if (info.rejected && info.rejected.length > 0) throw new DeliveryError('smtp_rejected', false);
    return { providerId: info.messageId, tls: settings.smtpSecure || options.requireTls };
  } catch (error) {
    throw classifySmtpError(error);
  } finally {
    transport.close();
  }
}

function classifySmtpError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const err = error as { code?: string; responseCode?: number; command?: string };
  // STARTTLS required but not offered, or the certificate is not trusted: do not send in clear.
  if (err.code === 'ETLS' || err.command === 'STARTTLS')
    return new DeliveryError('smtp_tls_unavailable', false);
  if (typeof err.responseCode === 'number') {
    if (err.responseCode >= 500) return new DeliveryError(`smtp_${err.responseCode}`, false);
    return new DeliveryError(`smtp_${err.responseCode}`, true);
  }
  if (err.code === 'EAUTH') return new DeliveryError('smtp_auth', true);
  return new DeliveryError(`smtp_${(err.code ?? 'error').toLowerCase()}`, true);
}

export interface SmsMessage {
  to: string;
  body: string;
  /** Asks the provider to post the message's later statuses (delivered, undelivered) here. */
  statusCallbackUrl?: string | undefined;
}

/** Twilio's error for a recipient who replied STOP. */
export const SMS_UNSUBSCRIBED_CODE = 21610;

export async function sendSms(
  settings: MessagingSettings,
  message: SmsMessage,
): Promise<{ providerId: string }> {
  const base = settings.smsBaseUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(settings.smsAccountId)}/Messages.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.smsAccountId}:${settings.smsToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        To: message.to,
        From: settings.smsFrom,
        Body: message.body,
        ...(message.statusCallbackUrl ? { StatusCallback: message.statusCallbackUrl } : {}),
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new DeliveryError('sms_unreachable', true);
  }
  const body = (await response.json().catch(() => ({}))) as { sid?: unknown; code?: unknown };
  if (response.status === 201 || response.status === 200) {
    if (typeof body.sid !== 'string') throw new DeliveryError('sms_bad_response', true);
    return { providerId: body.sid };
  }
  if (response.status === 429) throw new DeliveryError('sms_rate_limited', true);
  if (response.status >= 500) throw new DeliveryError(`sms_${response.status}`, true);
  const code = typeof body.code === 'number' ? body.code : undefined;
  if (code === SMS_UNSUBSCRIBED_CODE) throw new DeliveryError(`sms_${code}`, false, true);
  if (response.status === 401 || response.status === 403)
    throw new DeliveryError(`sms_${response.status}`, true);
  throw new DeliveryError(code ? `sms_${code}` : `sms_${response.status}`, false);
}

/** Digits of a phone number: the form opt-outs are kept in. */
export function phoneKey(phone: string): string {
  return phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
}
