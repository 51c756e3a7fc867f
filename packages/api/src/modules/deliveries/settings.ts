import type { MessagingSettingsPatch } from '@wellrest/core';
import type { Knex } from 'knex';
import { decryptSecret, deriveSecretKey, encryptSecret } from '../../security/secrets.js';
import { getSetting, putSetting } from '../settings/store.js';

// How email and SMS leave the building. Kept as one settings row; the SMTP password and the SMS
// token are sealed (AES-GCM) and never sent back to a client.

export const MESSAGING_SETTINGS_KEY = 'messaging';

export interface MessagingSettings {
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUser: string;
  smtpPassword: string;
  smtpCaPem: string;
  fromAddress: string;
  smsBaseUrl: string;
  smsAccountId: string;
  smsToken: string;
  smsFrom: string;
}

export type PublicMessagingSettings = Omit<MessagingSettings, 'smtpPassword' | 'smsToken'> & {
  smtpPasswordSet: boolean;
  smsTokenSet: boolean;
};

type Stored = Omit<MessagingSettings, 'smtpPassword' | 'smsToken'> & {
  smtpPasswordSealed: string;
  smsTokenSealed: string;
};

const DEFAULTS: Stored = {
  smtpHost: '',
  smtpPort: 587,
  smtpSecure: false,
  smtpUser: '',
  smtpPasswordSealed: '',
  smtpCaPem: '',
  fromAddress: '',
  smsBaseUrl: '',
  smsAccountId: '',
  smsTokenSealed: '',
  smsFrom: '',
};

const keyFor = (serverSecret: string) => deriveSecretKey(serverSecret, 'messaging-settings');

async function readStored(db: Knex): Promise<Stored> {
  return { ...DEFAULTS, ...((await getSetting<Partial<Stored>>(db, MESSAGING_SETTINGS_KEY)) ?? {}) };
}

export async function readMessagingSettings(db: Knex, serverSecret: string): Promise<MessagingSettings> {
  const { smtpPasswordSealed, smsTokenSealed, ...rest } = await readStored(db);
  const key = keyFor(serverSecret);
  return {
    ...rest,
    smtpPassword: smtpPasswordSealed ? decryptSecret(smtpPasswordSealed, key) : '',
    smsToken: smsTokenSealed ? decryptSecret(smsTokenSealed, key) : '',
  };
}

export async function readPublicMessagingSettings(db: Knex): Promise<PublicMessagingSettings> {
  const { smtpPasswordSealed, smsTokenSealed, ...rest } = await readStored(db);
  return { ...rest, smtpPasswordSet: smtpPasswordSealed !== '', smsTokenSet: smsTokenSealed !== '' };
}

/** Applies a patch; returns the names of the settings that changed (never their values). */
export async function updateMessagingSettings(
  db: Knex,
  serverSecret: string,
  patch: MessagingSettingsPatch,
  updatedBy: number | null,
): Promise<string[]> {
  const stored = await readStored(db);
  const key = keyFor(serverSecret);
  const next: Stored = { ...stored };
  const changed: string[] = [];
  for (const [name, value] of Object.entries(patch) as [keyof MessagingSettingsPatch, unknown][]) {
    if (value === undefined) continue;
    if (name === 'smtpPassword') {
      next.smtpPasswordSealed = value === '' ? '' : encryptSecret(value as string, key);
    } else if (name === 'smsToken') {
      next.smsTokenSealed = value === '' ? '' : encryptSecret(value as string, key);
    } else {
      if ((stored as Record<string, unknown>)[name] === value) continue;
      (next as Record<string, unknown>)[name] = value;
    }
    changed.push(name);
  }
  if (changed.length > 0) await putSetting(db, MESSAGING_SETTINGS_KEY, next, updatedBy);
  return changed;
}

export const emailConfigured = (s: MessagingSettings) => s.smtpHost !== '' && s.fromAddress !== '';
export const smsConfigured = (s: MessagingSettings) =>
  s.smsBaseUrl !== '' && s.smsAccountId !== '' && s.smsToken !== '' && s.smsFrom !== '';
