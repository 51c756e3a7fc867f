import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  looksLikeRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_GROUP,
  RECOVERY_CODE_LENGTH,
  TRUSTED_DEVICE_DAYS,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { decryptSecret, deriveSecretKey, encryptSecret } from '../../security/secrets.js';
import type { UserRow } from '../users/store.js';
import { hashPassword, verifyPassword } from './passwords.js';

// Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30 s), one-time recovery codes, and
// trusted devices that skip the second factor for TRUSTED_DEVICE_DAYS.
//
// At rest: the TOTP secret is sealed (AES-256-GCM, security/secrets.ts) under a key derived from
// the server secret; recovery codes (80 bits each) are kept only as Argon2id hashes, like passwords.
// Codes issued before that (6 characters, unsalted SHA-256) were re-hashed by migration
// 0601_recovery_code_hashes into `legacy:<argon2id of the old SHA-256>` and still work once each.

const ISSUER = 'Wellrest';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
// No 0/O or 1/I, so a code read off paper is typed right.
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function totpFor(secret: string, username: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The key TOTP secrets are sealed with, derived from the server secret. */
export function totpKey(serverSecret: string): Buffer {
  return deriveSecretKey(serverSecret, 'totp-secret');
}

/** A TOTP secret as stored: sealed. */
export function sealTotpSecret(secret: string, key: Buffer): string {
  return encryptSecret(secret, key);
}

/**
 * The TOTP secret of a stored value. A value from before secrets were sealed (base32, no dots) is
 * read as it is; startup seals those (sealPlainTotpSecrets).
 */
export function openTotpSecret(stored: string, key: Buffer): string | null {
  if (!stored.includes('.')) return stored;
  try {
    return decryptSecret(stored, key);
  } catch {
    // Sealed under another server secret (WELLREST_SECRET changed): no code can match it; the
    // recovery codes still sign in, and setting two-factor up again seals a new secret.
    return null;
  }
}

/** Seals every TOTP secret still stored in clear. Run at startup; answers how many it sealed. */
export async function sealPlainTotpSecrets(db: Knex, key: Buffer): Promise<number> {
  const rows = (await db('users')
    .whereNotNull('totp_secret')
    .andWhereRaw("strpos(totp_secret, '.') = 0")
    .select('id', 'totp_secret')) as { id: number; totp_secret: string }[];
  for (const row of rows) {
    await db('users')
      .where({ id: row.id, totp_secret: row.totp_secret })
      .update({ totp_secret: sealTotpSecret(row.totp_secret, key) });
  }
  return rows.length;
}

export async function enrolment(
  secret: string,
  username: string,
): Promise<{ otpauthUrl: string; qrDataUrl: string }> {
  const otpauthUrl = totpFor(secret, username).toString();
  return { otpauthUrl, qrDataUrl: await QRCode.toDataURL(otpauthUrl) };
}

/** The time step a code belongs to (one step of clock drift either way), or null. */
export function totpStep(secret: string, username: string, code: string): number | null {
  const timestamp = Date.now();
  const delta = totpFor(secret, username).validate({ token: code, timestamp, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp }) + delta;
}

/** How codes from before migration 0601 were hashed (unsalted SHA-256 of id and code). */
export function legacyRecoveryHash(userId: number, code: string): string {
  return createHash('sha256').update(`${userId}:${code.trim().toUpperCase()}`).digest('hex');
}
const LEGACY_PREFIX = 'legacy:';

/** A recovery code as shown: four groups of four characters. */
function grouped(code: string): string {
  return code.match(new RegExp(`.{1,${RECOVERY_CODE_GROUP}}`, 'g'))?.join('-') ?? code;
}

/** RECOVERY_CODE_COUNT new codes (80 bits each) and their Argon2id hashes. */
export async function newRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const plain = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from(
      { length: RECOVERY_CODE_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join(''),
  );
  const hashes = await Promise.all(plain.map((code) => hashPassword(code)));
  return { codes: plain.map(grouped), hashes };
}

/** The stored hash a typed recovery code matches, if any. */
async function matchingRecoveryHash(user: UserRow, code: string): Promise<string | undefined> {
  const stored = Array.isArray(user.recovery_codes) ? user.recovery_codes : [];
  if (looksLikeRecoveryCode(code)) {
    const normalized = normalizeRecoveryCode(code);
    for (const hash of stored) {
      if (!hash.startsWith(LEGACY_PREFIX) && (await verifyPassword(hash, normalized))) return hash;
    }
    return undefined;
  }
  const legacy = legacyRecoveryHash(user.id, code);
  for (const hash of stored) {
    if (hash.startsWith(LEGACY_PREFIX) && (await verifyPassword(hash.slice(LEGACY_PREFIX.length), legacy)))
      return hash;
  }
  return undefined;
}

/**
 * Checks a second factor and uses it up: a TOTP code is accepted once (a later step only), a
 * recovery code is removed. Safe under concurrent attempts: the database decides who wins.
 */
export async function consumeSecondFactor(
  db: Knex,
  user: UserRow,
  code: string,
  key: Buffer,
): Promise<'totp' | 'recovery' | null> {
  const trimmed = code.trim();
  const secret = user.totp_secret ? openTotpSecret(user.totp_secret, key) : null;
  if (secret && !looksLikeRecoveryCode(trimmed)) {
    const step = totpStep(secret, user.username, trimmed);
    if (step !== null) {
      const updated = await db('users')
        .where({ id: user.id })
        .andWhere((q) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step))
        .update({ totp_last_step: step });
      if (updated > 0) return 'totp';
    }
  }
  const hash = await matchingRecoveryHash(user, trimmed);
  if (!hash) return null;
  const removed = await db('users')
    .where({ id: user.id })
    .andWhereRaw('jsonb_exists(recovery_codes, ?)', [hash])
    .update({ recovery_codes: db.raw('recovery_codes - ?::text', [hash]) });
  return removed > 0 ? 'recovery' : null;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface TrustedDeviceRow {
  id: string;
  user_id: number;
  device_id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  user_agent: string | null;
}

/** Remembers this browser for the user; the returned token goes into an httpOnly cookie. */
export async function trustDevice(
  db: Knex,
  input: { userId: number; deviceId: string; userAgent: string | null },
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await db<TrustedDeviceRow>('trusted_devices')
    .insert({
      id: randomUUID(),
      user_id: input.userId,
      device_id: input.deviceId,
      token_hash: tokenHash(token),
      expires_at: db.raw('now() + make_interval(days => ?)', [TRUSTED_DEVICE_DAYS]) as unknown as Date,
      user_agent: input.userAgent,
    })
    .returning(['id', 'expires_at']);
  if (!row) throw new Error('insert into trusted_devices returned no row');
  return { id: row.id, token, expiresAt: new Date(row.expires_at) };
}

/**
 * The device id of a live trust for the user when this browser presents its httpOnly cookie, else null.
 * The cookie is the proof; the device id is returned so the client adopts it again after logout
 * has emptied its local storage (spec §3: the client replaces its id with the server's).
 */
export async function trustedDeviceId(
  db: Knex,
  input: { userId: number; token: string | undefined },
): Promise<string | null> {
  if (!input.token) return null;
  const row = await db('trusted_devices')
    .where({ user_id: input.userId, token_hash: tokenHash(input.token) })
    .whereNull('revoked_at')
    .andWhereRaw('expires_at > now()')
    .first('device_id');
  return row ? (row.device_id as string) : null;
}

export async function revokeTrustedDevices(db: Knex, userId: number): Promise<number> {
  return db('trusted_devices')
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
}
