import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const SESSION_COOKIE = 'wellrest_session';

interface SessionClaims {
  sid: string;
  sub: string;
}

const keys = new Map<string, KeyObject>();

/**
 * The secret as a key object, made once: given a string, jsonwebtoken first tries it as a public
 * key and builds a new key on every call, which cost a third of a millisecond per request.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/** A signed token naming a server-side session row; the row decides whether it is still valid. */
export function signSessionToken(secret: string, claims: SessionClaims, expiresAt: Date): string {
  return jwt.sign({ sid: claims.sid }, keyOf(secret), {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

/** The claims of a valid token, or undefined for a missing, forged, malformed or expired one. */
export function verifySessionToken(secret: string, token: string): SessionClaims | undefined {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'] });
    if (typeof payload === 'string' || typeof payload.sid !== 'string' || typeof payload.sub !== 'string') {
      return undefined;
    }
    return { sid: payload.sid, sub: payload.sub };
  } catch {
    return undefined;
  }
}

/** Marks a browser the user chose to trust: its value is a random token, only its hash is stored. */
export const DEVICE_COOKIE = 'wellrest_device';
