import type { Role } from '@wellrest/core';

/** A user account as the administration endpoints list it. */
export interface AdminUser {
  id: number;
  username: string;
  email?: string | null;
  displayName?: string | null;
  role: Role;
  isActive?: boolean;
  active?: boolean;
  twoFactorEnabled?: boolean;
  lockedUntil?: string | null;
  lastLoginAt?: string | null;
  createdAt?: string;
}

export function isActiveUser(user: AdminUser): boolean {
  return user.isActive ?? user.active ?? true;
}

/** A request for access sent from /register. */
export interface Registration {
  id: number;
  name: string;
  username: string;
  email: string;
  requestedRole: Role;
  reason?: string | null;
  status?: 'pending' | 'approved' | 'rejected' | string;
  createdAt?: string;
  reviewedAt?: string | null;
}

export const ADMIN_USERS_KEY = ['/api/admin/users'] as const;
export const ADMIN_REGISTRATIONS_KEY = ['/api/admin/registrations'] as const;
