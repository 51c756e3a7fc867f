import { z } from 'zod';
import { TWO_FACTOR_CODE_LENGTH } from '../constants.js';
import { Role } from '../enums.js';
import { messages } from '../messages.js';
import { Id } from './common.js';

export const LoginInput = z.object({
  username: z
    .string({ error: messages.login.usernameRequired })
    .trim()
    .min(1, { error: messages.login.usernameRequired })
    .max(254),
  // Passwords are taken as typed: no trimming.
  password: z
    .string({ error: messages.login.passwordRequired })
    .min(1, { error: messages.login.passwordRequired })
    .max(1024),
  // The 6-character authentication code, or a recovery code (16 characters, maybe grouped by dashes).
  twoFactorToken: z
    .string()
    .trim()
    .max(40, { error: messages.login.codeLength })
    .refine((code) => code.length === TWO_FACTOR_CODE_LENGTH || code.replace(/[\s-]/g, '').length === 16, {
      error: messages.login.codeLength,
    })
    .optional(),
  trustDevice: z.boolean().optional(),
  deviceId: z.string().trim().min(1).max(100).optional(),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const CurrentUser = z.object({
  id: Id,
  username: z.string(),
  role: Role,
  email: z.string().nullish(),
  displayName: z.string().nullish(),
  /** Set for users with the physician role: the Physician record they are. */
  physicianId: Id.nullish(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const LoginResponse = z.object({
  success: z.boolean(),
  requiresTwoFactor: z.boolean().optional(),
  passwordExpired: z.boolean().optional(),
  deviceId: z.string().optional(),
  user: CurrentUser.optional(),
  message: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;
