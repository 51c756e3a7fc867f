import { z } from 'zod';
import { TEMPLATE_CATEGORIES, TEMPLATE_CHANNELS, TEMPLATE_TRIGGERS } from './variables.js';

export const DELIVERY_STATUSES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'failed',
  'bounced',
  'outbox',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Where a message ends up once it leaves the queue: a provider, or the built-in outbox. */
export const RETRYABLE_DELIVERY_STATUSES: readonly DeliveryStatus[] = ['failed', 'bounced'];

const text = (max: number) => z.string().max(max);

export const TemplateInput = z.object({
  name: z.string().trim().min(1).max(120),
  channel: z.enum(TEMPLATE_CHANNELS),
  category: z.enum(TEMPLATE_CATEGORIES),
  trigger: z.enum(TEMPLATE_TRIGGERS),
  active: z.boolean().default(true),
  subject: text(300).optional(),
  html: text(100_000).optional(),
  text: text(20_000).optional(),
  body: text(1600).optional(),
});
export type TemplateInput = z.infer<typeof TemplateInput>;

/** A new version: the content, and optionally the name, category and active flag. */
export const TemplateUpdate = TemplateInput.omit({ channel: true, trigger: true }).partial({
  name: true,
  category: true,
  active: true,
});
export type TemplateUpdate = z.infer<typeof TemplateUpdate>;

export const TemplatePreviewInput = TemplateInput.pick({
  channel: true,
  trigger: true,
  subject: true,
  html: true,
  text: true,
  body: true,
});
export type TemplatePreviewInput = z.infer<typeof TemplatePreviewInput>;

export const TestSendInput = z.object({ to: z.string().trim().min(3).max(320) });

export const DeliveryFilters = z.object({
  channel: z.enum(TEMPLATE_CHANNELS).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DeliveryFilters = z.infer<typeof DeliveryFilters>;

export const MessagingSettingsPatch = z.object({
  smtpHost: z.string().trim().max(255).optional(),
  smtpPort: z.number().int().min(1).max(65_535).optional(),
  /** Implicit TLS (port 465) when true; otherwise STARTTLS is required for messages with PHI. */
  smtpSecure: z.boolean().optional(),
  smtpUser: z.string().max(255).optional(),
  smtpPassword: z.string().max(1024).optional(),
  /** A CA certificate (PEM) to trust for a relay with a private certificate authority. */
  smtpCaPem: z
    .union([z.string().trim().startsWith('-----BEGIN CERTIFICATE-----').max(20_000), z.literal('')])
    .optional(),
  fromAddress: z.union([z.email().max(320), z.literal('')]).optional(),
  smsBaseUrl: z.union([z.url({ protocol: /^https?$/ }).max(500), z.literal('')]).optional(),
  smsAccountId: z.string().trim().max(100).optional(),
  smsToken: z.string().max(500).optional(),
  smsFrom: z.string().trim().max(40).optional(),
});
export type MessagingSettingsPatch = z.infer<typeof MessagingSettingsPatch>;

/** Replaces every character of a recipient but enough to recognise it in a list. */
export function maskRecipient(recipient: string): string {
  const at = recipient.indexOf('@');
  if (at > 0) {
    const local = recipient.slice(0, at);
    return `${local.slice(0, 1)}${'*'.repeat(Math.max(2, local.length - 1))}${recipient.slice(at)}`;
  }
  const digits = recipient.replace(/\D/g, '');
  return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
