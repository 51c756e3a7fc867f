import type { RegistrationStatus, Role } from '@wellrest/core';

/** A user account as `GET /api/admin/users` lists it (an array, ordered by username). */
export interface AdminUser {
  id: number;
  username: string;
  email: string | null;
  displayName: string;
  role: Role;
  isActive: boolean;
  twoFactorEnabled: boolean;
  /** True from a password reset or an approved request until the owner sets a password. */
  mustChangePassword: boolean;
  lockedUntil: string | null;
  passwordChangedAt: string;
  lastLoginAt: string | null;
  createdAt: string;
  physicianId: number | null;
}

/** A request for access sent from /register, as `GET /api/admin/registrations` lists it (an array, newest first). */
export interface Registration {
  id: number;
  name: string;
  username: string;
  email: string;
  requestedRole: Role;
  reason: string;
  status: RegistrationStatus;
  createdAt: string;
  decidedAt: string | null;
  decisionReason: string | null;
  userId: number | null;
}

/** A one-time set-password link: a console path `/set-password?token=...`, valid until `expiresAt`. */
export interface PasswordLink {
  setPasswordUrl: string;
  expiresAt: string;
}

export const ADMIN_USERS_KEY = ['/api/admin/users'] as const;
export const ADMIN_REGISTRATIONS_KEY = ['/api/admin/registrations'] as const;
