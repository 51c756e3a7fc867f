import {
  API_PATHS,
  PRIVACY_ACK_STORAGE_KEY,
  type PrivacyCheck,
  type PrivacyNoticeInput,
  privacyNoticeHash,
  privacyNoticeText,
} from '@wellrest/core';

/** The privacy officer's contact details, an administrator's setting. */
export interface PrivacyContact {
  email: string;
  phone: string;
}

/** `GET /api/privacy-acknowledgment/check`, with the privacy officer's contact details. */
export type PrivacyCheckResponse = PrivacyCheck & { contact: PrivacyContact };

/** `GET /api/public/privacy-policy` (no sign-in): the current version and contact, with the notice itself. */
export interface PublicPolicyResponse {
  version: string;
  contact: PrivacyContact;
  policyUrl: string;
  policyHash: string;
}

export const PRIVACY_CHECK_KEY = [API_PATHS.privacyCheck] as const;
export const PUBLIC_POLICY_KEY = ['/api/public/privacy-policy'] as const;

/** True when this browser has already acknowledged the notice. */
export function hasPrivacyFlag(): boolean {
  try {
    return localStorage.getItem(PRIVACY_ACK_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/** The values the notice is rendered with, taken from the check response. */
export function noticeInputOf(check: PrivacyCheckResponse): PrivacyNoticeInput {
  return {
    email: check.contact.email,
    phone: check.contact.phone,
    version: check.currentVersion,
  };
}

/** SHA-256 (hex) of the notice text shown: Web Crypto where the browser offers it, else the core implementation. */
export async function policyHashOf(input: PrivacyNoticeInput): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return privacyNoticeHash(input);
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(privacyNoticeText(input)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
