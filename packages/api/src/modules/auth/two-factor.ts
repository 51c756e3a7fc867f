import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH, TRUSTED_DEVICE_DAYS } from '@wellrest/core';
import type { Knex } from 'knex';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { UserRow } from '../users/store.js';

// Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30 s), one-time recovery codes, and
// trusted devices that skip the second factor for TRUSTED_DEVICE_DAYS.

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

function recoveryHash(userId: number, code: string): string {
  return createHash('sha256').update(`${userId}:${code.trim().toUpperCase()}`).digest('hex');
}

export function newRecoveryCodes(userId: number): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from(
      { length: RECOVERY_CODE_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join(''),
  );
  return { codes, hashes: codes.map((code) => recoveryHash(userId, code)) };
}

/**
 * Checks a second factor and uses it up: a TOTP code is accepted once (a later step only), a
 * recovery code is removed. Safe under concurrent attempts: the database decides who wins.
 */
export async function consumeSecondFactor(
  db: Knex,
  user: UserRow,
  code: string,
): Promise<'totp' | 'recovery' | null> {
  const trimmed = code.trim();
  if (user.totp_secret) {
    const step = totpStep(user.totp_secret, user.username, trimmed);
    if (step !== null) {
      const updated = await db('users')
        .where({ id: user.id })
        .andWhere((q) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step))
        .update({ totp_last_step: step });
      if (updated > 0) return 'totp';
    }
  }
  const hash = recoveryHash(user.id, trimmed);
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
