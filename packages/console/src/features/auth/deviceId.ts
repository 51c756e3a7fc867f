import { DEVICE_ID_STORAGE_KEY } from '@wellrest/core';

function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID exists only in secure contexts; build an RFC 4122 v4 id by hand elsewhere.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The random id of this browser, sent with every sign-in (created on first use). */
export function getDeviceId(): string {
  const stored = localStorage.getItem(DEVICE_ID_STORAGE_KEY);
  if (stored) return stored;
  const created = randomUuid();
  localStorage.setItem(DEVICE_ID_STORAGE_KEY, created);
  return created;
}

/** Keeps the id the server assigned when it differs from ours. */
export function rememberDeviceId(id: string | null | undefined): void {
  if (id && id !== localStorage.getItem(DEVICE_ID_STORAGE_KEY))
    localStorage.setItem(DEVICE_ID_STORAGE_KEY, id);
}
