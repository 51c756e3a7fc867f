import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets at rest (an SMTP password, an SMS token): AES-256-GCM under a key derived from the
// server secret (WELLREST_SECRET, or the one kept in the database). A sealed value reads
// `v1.<iv>.<tag>.<ciphertext>` in base64url; tampering or a different key fails to open it.

const VERSION = 'v1';

/** A 32-byte key for one purpose, derived from the server secret with HKDF-SHA256. */
export function deriveSecretKey(serverSecret: string, purpose = 'settings-at-rest'): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'wellrest', `wellrest:${purpose}`, 32));
}

export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    iv.toString('base64url'),
    tag.toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

export class SecretDecryptionError extends Error {
  override name = 'SecretDecryptionError';
}

export function decryptSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new SecretDecryptionError('malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretDecryptionError('cannot open');
  }
}
