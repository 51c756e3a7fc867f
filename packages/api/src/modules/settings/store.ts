import { randomBytes } from 'node:crypto';
import {
  DEFAULT_GHL_BASE_URL,
  DEFAULT_PRACTICE_NAME,
  DEFAULT_PRIVACY_OFFICER_EMAIL,
  DEFAULT_PRIVACY_OFFICER_PHONE,
  DEFAULT_PRIVACY_POLICY_VERSION,
  LOCKOUT_MINUTES,
  LOCKOUT_THRESHOLD,
  LOGIN_RATE_LIMIT_DEFAULT,
  PASSWORD_EXPIRY_DAYS_DEFAULT,
  type PublicSettings,
  type SettingKey,
  type Settings,
  SettingsPatch,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { decryptSecret, encryptSecret, SecretDecryptionError } from '../../security/secrets.js';

export const SESSION_SECRET_KEY = 'session_secret';

export async function getSetting<T>(db: Knex, key: string): Promise<T | undefined> {
  const row = await db('settings').where({ key }).first('value');
  return row ? (row.value as T) : undefined;
}

export async function putSetting(
  db: Knex,
  key: string,
  value: unknown,
  updatedBy?: number | null,
): Promise<void> {
  await db('settings')
    .insert({ key, value: JSON.stringify(value), updated_at: db.fn.now(), updated_by: updatedBy ?? null })
    .onConflict('key')
    .merge();
}

/**
 * The secret that signs session tokens. Generated on first use and kept in the database, so
 * every API process sharing the database accepts the same sessions; the first writer wins.
 */
export async function ensureSessionSecret(db: Knex): Promise<string> {
  await db('settings')
    .insert({ key: SESSION_SECRET_KEY, value: JSON.stringify(randomBytes(48).toString('base64url')) })
    .onConflict('key')
    .ignore();
  const secret = await getSetting<string>(db, SESSION_SECRET_KEY);
  if (typeof secret !== 'string' || secret.length < 32) throw new Error('stored session secret is invalid');
  return secret;
}

/**
 * Settings never sent to a client, not even to an administrator. They are stored sealed
 * (AES-256-GCM, packages/api/src/security) under a key derived from the server secret.
 */
const WRITE_ONLY: ReadonlySet<SettingKey> = new Set(['ghlToken']);

export const SETTING_KEYS = Object.keys(SettingsPatch.shape) as SettingKey[];

/** What applies until an administrator says otherwise. Two come from the environment. */
export function defaultSettings(env: { sessionIdleMinutes: number; practiceTimeZone: string }): Settings {
  return {
    sessionIdleMinutes: env.sessionIdleMinutes,
    passwordExpiryDays: PASSWORD_EXPIRY_DAYS_DEFAULT,
    lockoutThreshold: LOCKOUT_THRESHOLD,
    lockoutMinutes: LOCKOUT_MINUTES,
    loginRateLimit: LOGIN_RATE_LIMIT_DEFAULT,
    privacyPolicyVersion: DEFAULT_PRIVACY_POLICY_VERSION,
    privacyOfficerEmail: DEFAULT_PRIVACY_OFFICER_EMAIL,
    privacyOfficerPhone: DEFAULT_PRIVACY_OFFICER_PHONE,
    practiceTimeZone: env.practiceTimeZone,
    practiceName: DEFAULT_PRACTICE_NAME,
    practiceAddress: '',
    practicePhone: '',
    ghlBaseUrl: DEFAULT_GHL_BASE_URL,
    ghlLocationId: '',
    ghlWebhookPublicKey: '',
    ghlToken: '',
    letterheadLogo: '',
    twoFactorRequiredRoles: [],
    embedTheme: 'light',
    embedAccentColor: '',
  };
}

/** Settings as an administrator reads them: write-only values replaced by whether they are set. */
export function publicSettings(settings: Settings): PublicSettings {
  const { ghlToken, ...rest } = settings;
  return { ...rest, ghlTokenSet: ghlToken !== '' };
}

/** How long a process trusts its copy; another process's change shows up within this time. */
const CACHE_MS = 5000;

/**
 * The one way to read and write the administrator's settings: stored values over defaults,
 * each validated (a stored value that no longer validates falls back to its default), cached
 * briefly in the process and dropped on every write.
 */
export class SettingsStore {
  private cached: { values: Settings; at: number } | undefined;

  constructor(
    private readonly knex: Knex,
    private readonly defaults: Settings,
    /** The key write-only settings are sealed with (deriveSecretKey(secret, 'settings-at-rest')). */
    private readonly secretKey: Buffer,
  ) {}

  /** A stored write-only value opened; one stored before sealing existed is taken as it is. */
  private open(value: unknown): unknown {
    if (typeof value !== 'string' || !value.startsWith('v1.')) return value;
    try {
      return decryptSecret(value, this.secretKey);
    } catch (error) {
      // Sealed under another server secret: unusable, so treated as not set.
      if (error instanceof SecretDecryptionError) return undefined;
      throw error;
    }
  }

  /** Seals write-only values stored in the clear (before sealing existed). Run at start-up. */
  async sealStoredSecrets(db: Knex = this.knex): Promise<void> {
    const rows: { key: string; value: unknown }[] = await db('settings')
      .whereIn('key', [...WRITE_ONLY])
      .select('key', 'value');
    for (const { key, value } of rows) {
      if (typeof value === 'string' && value !== '' && !value.startsWith('v1.'))
        await db('settings')
          .where({ key })
          .update({ value: JSON.stringify(encryptSecret(value, this.secretKey)) });
    }
    this.invalidate();
  }

  /** All settings. Pass the request's transaction as `db` inside one. */
  async all(db: Knex = this.knex): Promise<Settings> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.values;
    const rows: { key: string; value: unknown }[] = await db('settings')
      .whereIn('key', SETTING_KEYS)
      .select('key', 'value');
    const values: Settings = { ...this.defaults };
    for (const { key, value: stored } of rows) {
      const schema = SettingsPatch.shape[key as SettingKey];
      const value = WRITE_ONLY.has(key as SettingKey) ? this.open(stored) : stored;
      const parsed = schema.safeParse(value);
      if (parsed.success && parsed.data !== undefined)
        (values as Record<SettingKey, unknown>)[key as SettingKey] = parsed.data;
    }
    this.cached = { values, at: Date.now() };
    return values;
  }

  async get<K extends SettingKey>(key: K, db?: Knex): Promise<Settings[K]> {
    return (await this.all(db))[key];
  }

  /** Writes validated values; returns the keys that changed. */
  async update(db: Knex, patch: SettingsPatch, updatedBy: number | null): Promise<SettingKey[]> {
    const current = await this.all(db);
    const changed: SettingKey[] = [];
    for (const key of SETTING_KEYS) {
      const value = patch[key];
      if (value === undefined || value === current[key]) continue;
      const sealed =
        WRITE_ONLY.has(key) && value !== '' ? encryptSecret(String(value), this.secretKey) : value;
      await putSetting(db, key, sealed, updatedBy);
      changed.push(key);
    }
    this.invalidate();
    return changed;
  }

  isWriteOnly(key: SettingKey): boolean {
    return WRITE_ONLY.has(key);
  }

  invalidate(): void {
    this.cached = undefined;
  }
}
