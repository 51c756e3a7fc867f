import jwt from 'jsonwebtoken';

export const SESSION_COOKIE = 'wellrest_session';

interface SessionClaims {
  sid: string;
  sub: string;
}

/** A signed token naming a server-side session row; the row decides whether it is still valid. */
export function signSessionToken(secret: string, claims: SessionClaims, expiresAt: Date): string {
  return jwt.sign({ sid: claims.sid }, secret, {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

/** The claims of a valid token, or undefined for a missing, forged, malformed or expired one. */
export function verifySessionToken(secret: string, token: string): SessionClaims | undefined {
  try {
    const payload = jwt.verify(token, secret, { algorithms: ['HS256'] });
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
