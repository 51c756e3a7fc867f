import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { LoginInput, type LoginResponse, messages } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { authenticated } from '../../http/can.js';
import {
  type AppContext,
  type AppContextExtension,
  type AppState,
  clientInfo,
  dbOf,
} from '../../http/context.js';
import { clearSessionCookie, setSessionCookie } from '../../http/session.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { findUserByLogin, toCurrentUser } from '../users/store.js';
import { verifyAgainstDummy, verifyPassword } from './passwords.js';
import { createSession, revokeSession } from './sessions.js';
import { signSessionToken } from './tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client's device id when it is a well-formed UUID; otherwise a new one it should keep. */
function deviceIdFor(sent: string | undefined): string {
  return sent && UUID.test(sent) ? sent.toLowerCase() : randomUUID();
}

async function login(ctx: AppContext & { state: { input: LoginInput } }): Promise<void> {
  const { username, password, deviceId } = ctx.state.input;
  const db = dbOf(ctx);
  const user = await findUserByLogin(db, username);
  // The same work and the same answer whether or not the account exists.
  const valid = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstDummy(password);

  if (!user || !valid || !user.is_active) {
    await audit(db, ctx, {
      action: 'auth.login',
      outcome: 'failure',
      entityType: 'user',
      entityId: user?.id ?? null,
      actor: { id: user?.id ?? null, username: user?.username ?? null },
      details: { reason: !user ? 'unknown_user' : !valid ? 'wrong_password' : 'inactive' },
    });
    // Answered, not thrown: the failure's audit event must commit.
    const body: LoginResponse & { error: string } = {
      success: false,
      error: messages.login.invalidCredentials,
    };
    ctx.status = 401;
    ctx.body = body;
    return;
  }

  // Signing in again replaces any session this browser already had.
  if (ctx.state.session) await revokeSession(db, ctx.state.session.id);
  const session = await createSession(db, { userId: user.id, ...clientInfo(ctx) });
  await db('users').where({ id: user.id }).update({ last_login_at: db.fn.now() });
  await audit(db, ctx, {
    action: 'auth.login',
    outcome: 'success',
    entityType: 'session',
    entityId: session.id,
    actor: { id: user.id, username: user.username },
  });
  setSessionCookie(
    ctx,
    signSessionToken(
      ctx.services.config.secret,
      { sid: session.id, sub: String(user.id) },
      session.expires_at,
    ),
  );
  const response: LoginResponse = {
    success: true,
    user: toCurrentUser(user),
    deviceId: deviceIdFor(deviceId),
  };
  ctx.body = response;
}

async function me(ctx: AppContext): Promise<void> {
  ctx.body = ctx.state.user;
}

async function logout(ctx: AppContext): Promise<void> {
  const { session, user } = ctx.state;
  if (session && user) {
    const db = dbOf(ctx);
    await revokeSession(db, session.id);
    await audit(db, ctx, {
      action: 'auth.logout',
      outcome: 'success',
      entityType: 'session',
      entityId: session.id,
    });
  }
  clearSessionCookie(ctx);
  ctx.body = { success: true };
}

export function authRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post<{ input: LoginInput }>('/api/auth/login', validate(LoginInput), inTransaction, login);
  router.get('/api/auth/me', authenticated, me);
  router.post('/api/auth/logout', inTransaction, logout);
  return router;
}
