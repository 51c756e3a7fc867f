import Router from '@koa/router';
import {
  ApproveRegistrationInput,
  authMessages,
  messages,
  REGISTRATION_RATE_LIMIT,
  REGISTRATION_RATE_WINDOW_MINUTES,
  RegistrationInput,
  RegistrationStatus,
  RejectRegistrationInput,
} from '@wellrest/core';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import {
  type AppContext,
  type AppContextExtension,
  type AppState,
  clientInfo,
  dbOf,
} from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { createPasswordLink } from '../auth/password-links.js';
import { insertUser, toAdminUser, unusablePassword, usernameOrEmailTaken } from '../users/store.js';
import {
  ACCESS_REQUEST_ACTION,
  type RegistrationRow,
  recentRequestsFrom,
  registrationClashes,
  toRegistrationView,
} from './store.js';

// The public request-access form. Administrators decide requests under /api/admin/registrations.

async function requestAccess(ctx: AppContext & { state: { input: RegistrationInput } }): Promise<void> {
  const input = ctx.state.input;
  const db = dbOf(ctx);
  const { ip, userAgent } = clientInfo(ctx);
  // Refusals are answered, not thrown, so that their audit events (which the limit counts) commit.
  if ((await recentRequestsFrom(db, ip, REGISTRATION_RATE_WINDOW_MINUTES)) >= REGISTRATION_RATE_LIMIT) {
    ctx.set('Retry-After', String(REGISTRATION_RATE_WINDOW_MINUTES * 60));
    ctx.status = 429;
    ctx.body = { error: messages.login.rateLimited };
    return;
  }
  if (await registrationClashes(db, input.username, input.email)) {
    await audit(db, ctx, {
      action: ACCESS_REQUEST_ACTION,
      outcome: 'failure',
      entityType: 'registration',
      details: { reason: 'duplicate' },
    });
    ctx.status = 409;
    ctx.body = { error: authMessages.registrationDuplicate };
    return;
  }
  const [row] = await db<RegistrationRow>('registrations')
    .insert({
      name: input.name,
      username: input.username,
      email: input.email,
      requested_role: input.requestedRole,
      reason: input.reason,
      ip,
      user_agent: userAgent,
    })
    .returning('*');
  if (!row) throw new Error('insert into registrations returned no row');
  await audit(db, ctx, {
    action: ACCESS_REQUEST_ACTION,
    outcome: 'success',
    entityType: 'registration',
    entityId: row.id,
    details: { requestedRole: row.requested_role },
  });
  ctx.status = 201;
  ctx.body = { id: row.id, status: row.status, message: authMessages.registrationReceived };
}

const RegistrationListQuery = z.object({ status: RegistrationStatus.optional() });
type RegistrationListQuery = z.infer<typeof RegistrationListQuery>;

async function listRegistrations(
  ctx: AppContext & { state: { input: RegistrationListQuery } },
): Promise<void> {
  const query = dbOf(ctx)<RegistrationRow>('registrations')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (ctx.state.input.status) query.where({ status: ctx.state.input.status });
  ctx.body = (await query.limit(500)).map(toRegistrationView);
}

/** The request named by the route, locked for the decision; only a pending one can be decided. */
async function pendingRegistration(ctx: AppContext): Promise<RegistrationRow> {
  const row = await dbOf(ctx)<RegistrationRow>('registrations')
    .where({ id: idParam(ctx) })
    .forUpdate()
    .first();
  if (!row) throw notFound();
  if (row.status !== 'pending') throw conflict(authMessages.registrationDecided);
  return row;
}

async function approve(ctx: AppContext & { state: { input: ApproveRegistrationInput } }): Promise<void> {
  const db = dbOf(ctx);
  const registration = await pendingRegistration(ctx);
  if (await usernameOrEmailTaken(db, registration.username, registration.email))
    throw conflict(authMessages.userExists);
  // The account has no usable password until its owner sets one through the link.
  const user = await insertUser(db, {
    username: registration.username,
    email: registration.email,
    displayName: registration.name,
    role: ctx.state.input.role,
    password: unusablePassword(),
    mustChangePassword: true,
  });
  const [decided] = await db<RegistrationRow>('registrations')
    .where({ id: registration.id })
    .update({
      status: 'approved',
      decided_at: db.fn.now(),
      decided_by: ctx.state.user?.id ?? null,
      user_id: user.id,
    })
    .returning('*');
  const link = await createPasswordLink(db, {
    userId: user.id,
    purpose: 'registration',
    createdBy: ctx.state.user?.id ?? null,
  });
  await audit(db, ctx, {
    action: 'registration.approve',
    outcome: 'success',
    entityType: 'registration',
    entityId: registration.id,
    details: { userId: user.id, role: user.role, requestedRole: registration.requested_role },
  });
  await audit(db, ctx, {
    action: 'user.create',
    outcome: 'success',
    entityType: 'user',
    entityId: user.id,
    details: { role: user.role, via: 'registration' },
  });
  ctx.body = {
    registration: decided ? toRegistrationView(decided) : undefined,
    user: toAdminUser(user),
    ...link,
  };
}

async function reject(ctx: AppContext & { state: { input: RejectRegistrationInput } }): Promise<void> {
  const db = dbOf(ctx);
  const registration = await pendingRegistration(ctx);
  const [decided] = await db<RegistrationRow>('registrations')
    .where({ id: registration.id })
    .update({
      status: 'rejected',
      decided_at: db.fn.now(),
      decided_by: ctx.state.user?.id ?? null,
      decision_reason: ctx.state.input.reason || null,
    })
    .returning('*');
  await audit(db, ctx, {
    action: 'registration.reject',
    outcome: 'success',
    entityType: 'registration',
    entityId: registration.id,
    // The reason is free text: kept on the request, not in the trail.
    details: { withReason: Boolean(ctx.state.input.reason) },
  });
  ctx.body = { registration: decided ? toRegistrationView(decided) : undefined };
}

export function registrationRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post<{ input: RegistrationInput }>(
    '/api/registrations',
    validate(RegistrationInput),
    inTransaction,
    requestAccess,
  );
  router.get<{ input: RegistrationListQuery }>(
    '/api/admin/registrations',
    can('read', 'Registration'),
    validate(RegistrationListQuery, 'query'),
    listRegistrations,
  );
  router.post<{ input: ApproveRegistrationInput }>(
    '/api/admin/registrations/:id/approve',
    can('update', 'Registration'),
    validate(ApproveRegistrationInput),
    inTransaction,
    approve,
  );
  router.post<{ input: RejectRegistrationInput }>(
    '/api/admin/registrations/:id/reject',
    can('update', 'Registration'),
    validate(RejectRegistrationInput),
    inTransaction,
    reject,
  );
  return router;
}
