import { z } from 'zod';
import { PRIVACY_METHOD } from '../constants.js';

export const PrivacyCheck = z.object({
  hasAcknowledged: z.boolean(),
  currentVersion: z.string(),
  acknowledgedVersion: z.string().nullable(),
  needsAcknowledgment: z.boolean(),
});
export type PrivacyCheck = z.infer<typeof PrivacyCheck>;

export const PrivacyAcknowledgmentInput = z.object({
  policyVersion: z.string().trim().min(1).max(40),
  method: z.literal(PRIVACY_METHOD),
  policyUrl: z.string().trim().min(1).max(500),
  /** SHA-256 (hex) of the notice text shown, or PRIVACY_POLICY_HASH_PLACEHOLDER. */
  policyHash: z.string().trim().min(1).max(128),
});
export type PrivacyAcknowledgmentInput = z.infer<typeof PrivacyAcknowledgmentInput>;
