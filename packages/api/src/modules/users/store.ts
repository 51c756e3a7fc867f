import { randomBytes } from 'node:crypto';
import type { CurrentUser, Role } from '@wellrest/core';
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords.js';

export interface UserRow {
  id: number;
  username: string;
  email: string | null;
  display_name: string;
  role: Role;
  password_hash: string;
  password_changed_at: Date;
  must_change_password: boolean;
  is_active: boolean;
  failed_login_count: number;
  locked_until: Date | null;
  totp_secret: string | null;
  totp_enabled: boolean;
  totp_last_step: number | null;
  recovery_codes: string[];
  physician_id: number | null;
  created_at: Date;
  updated_at: Date;
  last_login_at: Date | null;
}

export interface NewUser {
  username: string;
  email?: string | null | undefined;
  displayName?: string | undefined;
  role: Role;
  password: string;
  mustChangePassword?: boolean;
}

/** Usernames are short handles; no '@', so they can never be mistaken for an email address. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,31}$/;

/** The account a sign-in name refers to: a username or an email address, in any letter case. */
export async function findUserByLogin(db: Knex, login: string): Promise<UserRow | undefined> {
  const name = login.trim().toLowerCase();
  if (name === '') return undefined;
  return db<UserRow>('users')
    .whereRaw('lower(username) = ?', [name])
    .orWhereRaw('lower(email) = ?', [name])
    .orderByRaw('(lower(username) = ?) DESC', [name])
    .first();
}

export async function findUserById(db: Knex, id: number): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ id }).first();
}

export async function usernameOrEmailTaken(
  db: Knex,
  username: string,
  email?: string | null,
): Promise<boolean> {
  const query = db('users').whereRaw('lower(username) = lower(?)', [username]);
  if (email) query.orWhereRaw('lower(email) = lower(?)', [email]);
  return (await query.first('id')) !== undefined;
}

/** Creates an account with an argon2id password hash. A duplicate name fails with 23505. */
export async function insertUser(db: Knex, user: NewUser): Promise<UserRow> {
  const [row] = await db<UserRow>('users')
    .insert({
      username: user.username,
      email: user.email ?? null,
      display_name: user.displayName ?? user.username,
      role: user.role,
      password_hash: await hashPassword(user.password),
      must_change_password: user.mustChangePassword ?? false,
    })
    .returning('*');
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

/** What the client learns about the signed-in user. Never includes secrets or hashes. */
export function toCurrentUser(row: UserRow): CurrentUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    physicianId: row.physician_id,
  };
}

/** Sets a new password: the expiry clock restarts, a pending change is done, a lock is lifted. */
export async function setPassword(db: Knex, userId: number, password: string): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update({
      password_hash: await hashPassword(password),
      password_changed_at: db.fn.now(),
      must_change_password: false,
      failed_login_count: 0,
      locked_until: null,
      updated_at: db.fn.now(),
    });
}

/** A password nobody knows, for an account that must set its own through a one-time link. */
export function unusablePassword(): string {
  return randomBytes(32).toString('base64url');
}

/** An account as an administrator sees it. No hashes, secrets or recovery codes. */
export interface AdminUserView {
  id: number;
  username: string;
  email: string | null;
  displayName: string;
  role: Role;
  isActive: boolean;
  twoFactorEnabled: boolean;
  mustChangePassword: boolean;
  lockedUntil: string | null;
  passwordChangedAt: string;
  lastLoginAt: string | null;
  createdAt: string;
  physicianId: number | null;
}

const iso = (value: Date | string | null): string | null =>
  value == null ? null : new Date(value).toISOString();

export function toAdminUser(row: UserRow): AdminUserView {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    isActive: row.is_active,
    twoFactorEnabled: row.totp_enabled,
    mustChangePassword: row.must_change_password,
    lockedUntil: row.locked_until && new Date(row.locked_until) > new Date() ? iso(row.locked_until) : null,
    passwordChangedAt: iso(row.password_changed_at) ?? '',
    lastLoginAt: iso(row.last_login_at),
    createdAt: iso(row.created_at) ?? '',
    physicianId: row.physician_id,
  };
}
