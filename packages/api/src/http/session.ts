import { authMessages, defineAbilityFor } from '@wellrest/core';
import type { Middleware } from 'koa';
import { audit } from '../audit/audit.js';
import { resumeSession } from '../modules/auth/sessions.js';
import { DEVICE_COOKIE, SESSION_COOKIE, verifySessionToken } from '../modules/auth/tokens.js';
import { toCurrentUser } from '../modules/users/store.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from './context.js';
import { dataVersionRead } from './data-versions.js';
import { HttpError } from './errors.js';
import { servedOverHttps } from './https.js';
import { isApiPath, isFhirPath } from './paths.js';

/**
 * Whether cookies carry Secure: the rule of https.ts, the same one that sends HSTS. Behind a TLS
 * proxy that is not trusted the request looks plain to Node; the cookie jar is told it is not.
 */
function secureCookies(ctx: AppContext): boolean {
  const secure = servedOverHttps(ctx);
  if (secure) ctx.cookies.secure = true;
  return secure;
}

export function setSessionCookie(ctx: AppContext, token: string): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx),
    path: '/',
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: AppContext): void {
  ctx.cookies.set(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx),
    path: '/',
    overwrite: true,
    expires: new Date(0),
  });
}

/** The trusted-device cookie: a random token whose hash names a trusted_devices row. */
export function setDeviceCookie(ctx: AppContext, token: string, expires: Date): void {
  ctx.cookies.set(DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx),
    path: '/api/auth',
    overwrite: true,
    expires,
  });
}

/**
 * Resolves the session cookie (a signed token naming a session row) to the signed-in user on
 * every API request, and builds what that user may do. Anything wrong with the cookie simply
 * leaves the request anonymous.
 */
export const loadSession: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  // Only the API (and its FHIR face) needs to know who is asking; static files are the same for everyone.
  const token = isApiPath(ctx.path) || isFhirPath(ctx.path) ? ctx.cookies.get(SESSION_COOKIE) : undefined;
  if (!token) return next();
  const { config, db, settings } = ctx.services;
  const claims = verifySessionToken(config.secret, token);
  const userId = claims ? Number(claims.sub) : Number.NaN;
  if (!claims || !Number.isSafeInteger(userId)) {
    clearSessionCookie(ctx);
    return next();
  }
  const idleMinutes = await settings.get('sessionIdleMinutes');
  const found = await resumeSession(db.knex, claims.sid, userId, idleMinutes, {
    version: dataVersionRead(ctx.method, ctx.path),
  });
  if (found.status === 'active') {
    const user = toCurrentUser(found.user);
    ctx.state.user = user;
    ctx.state.account = found.user;
    const idleEnd = Date.now() + found.idleRemainingMs;
    ctx.state.session = {
      id: found.session.id,
      expiresAt: new Date(Math.min(idleEnd, new Date(found.session.expires_at).getTime())),
    };
    ctx.state.ability = defineAbilityFor(user);
    if (found.versions) ctx.state.versions = found.versions;
  } else {
    if (found.status === 'idle') {
      await audit(db.knex, ctx, {
        action: 'auth.session_idle_timeout',
        outcome: 'success',
        entityType: 'session',
        entityId: found.session.id,
        actor: { id: found.session.user_id, username: null },
        details: { idleMinutes },
      });
    }
    clearSessionCookie(ctx);
  }
  return next();
};

/** What an account that must choose its own password may still call. */
const OPEN_WHILE_PASSWORD_PENDING = new Set([
  'GET /api/auth/me',
  'POST /api/auth/password',
  'POST /api/auth/logout',
  'POST /api/auth/login',
]);

/**
 * An account whose password someone else chose (an administrator creating it, or demo data on a
 * production server) must set its own before anything else: every other API call answers 403
 * with `mustChangePassword: true` until POST /api/auth/password succeeds.
 */
export const requireOwnPassword: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  if (
    ctx.state.account?.must_change_password === true &&
    (isApiPath(ctx.path) || isFhirPath(ctx.path)) &&
    !ctx.path.startsWith('/api/public/') &&
    !OPEN_WHILE_PASSWORD_PENDING.has(`${ctx.method} ${ctx.path}`)
  ) {
    throw new HttpError(403, authMessages.passwordChangeRequired, { mustChangePassword: true });
  }
  await next();
};

/** What an account that must turn on two-factor authentication may still call. */
const OPEN_WHILE_SECOND_FACTOR_PENDING = new Set([
  ...OPEN_WHILE_PASSWORD_PENDING,
  'POST /api/auth/2fa/setup',
  'POST /api/auth/2fa/enable',
]);

/** Whether this account's role must use two-factor authentication and the account has not turned it on. */
export async function mustEnrolTwoFactor(
  ctx: AppContext,
  account: { role: string; totp_enabled: boolean } | undefined,
): Promise<boolean> {
  if (!account || account.totp_enabled) return false;
  // Inside a request's transaction (the sign-in) its connection reads the setting: on the
  // embedded engine, with its single connection, the shared handle would wait for itself.
  const required = await ctx.services.settings.get('twoFactorRequiredRoles', dbOf(ctx));
  return required.includes(account.role as (typeof required)[number]);
}

/**
 * An account whose role the administrator requires to use two-factor authentication turns it on
 * before anything else: every other API call answers 403 with `mustEnrolTwoFactor: true` until
 * POST /api/auth/2fa/enable succeeds.
 */
export const requireSecondFactor: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  if (
    ctx.state.account &&
    isApiPath(ctx.path) &&
    !ctx.path.startsWith('/api/public/') &&
    !OPEN_WHILE_SECOND_FACTOR_PENDING.has(`${ctx.method} ${ctx.path}`) &&
    (await mustEnrolTwoFactor(ctx, ctx.state.account))
  ) {
    throw new HttpError(403, authMessages.twoFactorEnrolmentRequired, { mustEnrolTwoFactor: true });
  }
  await next();
};
