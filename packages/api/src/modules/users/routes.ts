import Router from '@koa/router';
import { authMessages, CreateUserInput, messages, passwordProblem, UpdateUserInput } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { createPasswordLink } from '../auth/password-links.js';
import { hashPassword } from '../auth/passwords.js';
import { unlockAccount } from '../auth/throttle.js';
import { revokeTrustedDevices } from '../auth/two-factor.js';
import {
  findUserById,
  insertUser,
  toAdminUser,
  type UserRow,
  unusablePassword,
  usernameOrEmailTaken,
} from './store.js';

// Account administration: /admin/users. Every change is an audit event.

async function listUsers(ctx: AppContext): Promise<void> {
  const rows = await dbOf(ctx)<UserRow>('users').orderBy('username');
  ctx.body = rows.map(toAdminUser);
}

async function createUser(ctx: AppContext & { state: { input: CreateUserInput } }): Promise<void> {
  const input = ctx.state.input;
  const db = dbOf(ctx);
  const problem = passwordProblem(input.password, input.username);
  if (problem) throw badRequest(messages.common.invalidRequest, { fields: { password: problem } });
  if (await usernameOrEmailTaken(db, input.username, input.email)) throw conflict(authMessages.userExists);
  // The password an administrator chose is a first one only: the owner sets their own at first sign-in.
  const row = await insertUser(db, { ...input, mustChangePassword: true });
  await audit(db, ctx, {
    action: 'user.create',
    outcome: 'success',
    entityType: 'user',
    entityId: row.id,
    details: { role: row.role, via: 'admin' },
  });
  ctx.status = 201;
  ctx.body = toAdminUser(row);
}

async function targetUser(ctx: AppContext): Promise<UserRow> {
  const row = await findUserById(dbOf(ctx), idParam(ctx));
  if (!row) throw notFound();
  return row;
}

async function revokeAllSessions(ctx: AppContext, userId: number): Promise<number> {
  const db = dbOf(ctx);
  return db('sessions')
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
}

async function updateUser(ctx: AppContext & { state: { input: UpdateUserInput } }): Promise<void> {
  const input = ctx.state.input;
  const db = dbOf(ctx);
  const user = await targetUser(ctx);
  // An administrator cannot lock themselves out; another administrator can.
  if (user.id === ctx.state.user?.id && ((input.role && input.role !== 'admin') || input.isActive === false))
    throw conflict(authMessages.cannotChangeOwnAccess);
  const changes: Partial<Pick<UserRow, 'role' | 'is_active' | 'display_name'>> = {};
  if (input.role !== undefined && input.role !== user.role) changes.role = input.role;
  if (input.isActive !== undefined && input.isActive !== user.is_active) changes.is_active = input.isActive;
  if (input.displayName !== undefined && input.displayName !== user.display_name)
    changes.display_name = input.displayName;
  if (Object.keys(changes).length === 0) {
    ctx.body = toAdminUser(user);
    return;
  }
  const [updated] = await db<UserRow>('users')
    .where({ id: user.id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  const sessionsRevoked = changes.is_active === false ? await revokeAllSessions(ctx, user.id) : 0;
  await audit(db, ctx, {
    action: 'user.update',
    outcome: 'success',
    entityType: 'user',
    entityId: user.id,
    details: {
      fields: Object.keys(changes).join(','),
      ...(changes.role ? { fromRole: user.role, toRole: input.role ?? null } : {}),
      ...(changes.is_active !== undefined ? { isActive: input.isActive ?? null } : {}),
      sessionsRevoked,
    },
  });
  ctx.body = toAdminUser(updated ?? user);
}

async function resetPassword(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const user = await targetUser(ctx);
  // The old password stops working at once; the owner chooses a new one through the link.
  await db('users')
    .where({ id: user.id })
    .update({
      password_hash: await hashPassword(unusablePassword()),
      must_change_password: true,
      failed_login_count: 0,
      locked_until: null,
      updated_at: db.fn.now(),
    });
  const sessionsRevoked = await revokeAllSessions(ctx, user.id);
  const devicesRevoked = await revokeTrustedDevices(db, user.id);
  const link = await createPasswordLink(db, {
    userId: user.id,
    purpose: 'reset',
    createdBy: ctx.state.user?.id ?? null,
  });
  await audit(db, ctx, {
    action: 'user.password_reset',
    outcome: 'success',
    entityType: 'user',
    entityId: user.id,
    details: { sessionsRevoked, devicesRevoked },
  });
  ctx.body = link;
}

async function revokeSessions(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const user = await targetUser(ctx);
  const revoked = await revokeAllSessions(ctx, user.id);
  await audit(db, ctx, {
    action: 'user.sessions_revoke',
    outcome: 'success',
    entityType: 'user',
    entityId: user.id,
    details: { revoked },
  });
  ctx.body = { revoked };
}

/** Lifts a sign-in lock: the account and every address start afresh. */
async function unlockUser(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const user = await targetUser(ctx);
  const wasLocked = await unlockAccount(db, user.id);
  await audit(db, ctx, {
    action: 'user.unlock',
    outcome: 'success',
    entityType: 'user',
    entityId: user.id,
    details: { wasLocked },
  });
  ctx.body = toAdminUser((await findUserById(db, user.id)) ?? user);
}

export function userAdminRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/users', can('read', 'User'), listUsers);
  router.post<{ input: CreateUserInput }>(
    '/api/admin/users',
    can('create', 'User'),
    validate(CreateUserInput),
    inTransaction,
    createUser,
  );
  router.patch<{ input: UpdateUserInput }>(
    '/api/admin/users/:id',
    can('update', 'User'),
    validate(UpdateUserInput),
    inTransaction,
    updateUser,
  );
  router.post('/api/admin/users/:id/reset-password', can('update', 'User'), inTransaction, resetPassword);
  router.post('/api/admin/users/:id/revoke-sessions', can('update', 'User'), inTransaction, revokeSessions);
  router.post('/api/admin/users/:id/unlock', can('update', 'User'), inTransaction, unlockUser);
  return router;
}
