import { authMessages, type CurrentUser, defineAbilityFor } from '@wellrest/core';
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { audit } from '../audit/audit.js';
import { perDatabase } from '../db/per-database.js';
import { resumeSession, type SessionToConfirm, touchSeconds } from '../modules/auth/sessions.js';
import { DEVICE_COOKIE, SESSION_COOKIE, verifySessionToken } from '../modules/auth/tokens.js';
import { toCurrentUser, type UserRow } from '../modules/users/store.js';
import { accessRequirements } from './can.js';
import {
  type AppAbility,
  type AppContext,
  type AppContextExtension,
  type AppServices,
  type AppState,
  dbOf,
} from './context.js';
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
 * The routes (`METHOD /path`) that may be let through on a session this process resumed moments
 * ago, without a round trip to resume it again, with the permission each asks first. Each one
 * registers itself through `withSessionResumed`: it confirms the session in the statement that
 * reads what it shows (auth/sessions.ts sessionHolds) and shows nothing when it no longer holds.
 */
const CONFIRMED_IN_STATEMENT = new Map<string, Parameters<AppAbility['can']>>();

/** A session this process resumed, as it was then. */
interface Resumed {
  account: UserRow;
  user: CurrentUser;
  ability: AppAbility;
  sessionExpiresAt: number;
  /** When the session was last used as stored (last_seen_at), on this process's clock. */
  lastSeenAt: number;
  confirm: SessionToConfirm;
}

/** Sessions remembered per API process (one entry per busy desk). */
const MAX_RESUMED = 10_000;

const resumedOf = perDatabase(
  (_db: AppServices['db']) => new LRUCache<string, Resumed>({ max: MAX_RESUMED }),
);

/**
 * Not within this much of the touch interval's end: a statement a little later must still find
 * the session used within it (sessionHolds), or the request pays for a second try.
 */
const RESUMED_MARGIN_MS = 2_000;

function signIn(
  ctx: AppContext,
  signedIn: { account: UserRow; user: CurrentUser; ability: AppAbility },
  session: { id: string; expiresAt: Date },
): void {
  ctx.state.user = signedIn.user;
  ctx.state.account = signedIn.account;
  ctx.state.session = session;
  ctx.state.ability = signedIn.ability;
}

/**
 * The session this process resumed moments ago, set on the request as still unconfirmed, when
 * the request is one that confirms it itself and nothing the account is asked first (its own
 * password, a second factor, the route's permission) could turn it away: a request turned away
 * is resumed in full instead. False when the request must resume the session itself.
 */
async function resumeFromMemory(ctx: AppContext, sessionId: string, userId: number, idleMinutes: number) {
  const permission = CONFIRMED_IN_STATEMENT.get(`${ctx.method} ${ctx.path}`);
  if (!permission) return false;
  const resumed = resumedOf(ctx.services.db).get(sessionId);
  if (
    !resumed ||
    resumed.confirm.userId !== userId ||
    resumed.confirm.idleMinutes !== idleMinutes ||
    Date.now() >= resumed.lastSeenAt + touchSeconds(idleMinutes) * 1000 - RESUMED_MARGIN_MS ||
    resumed.account.must_change_password ||
    !resumed.ability.can(...permission) ||
    (await mustEnrolTwoFactor(ctx, resumed.account))
  )
    return false;
  const idleEnd = resumed.lastSeenAt + idleMinutes * 60_000;
  signIn(ctx, resumed, { id: sessionId, expiresAt: new Date(Math.min(idleEnd, resumed.sessionExpiresAt)) });
  ctx.state.unconfirmed = resumed.confirm;
  return true;
}

function forgetSignIn(ctx: AppContext): void {
  for (const key of ['user', 'account', 'session', 'ability', 'versions', 'unconfirmed', 'access'] as const)
    delete ctx.state[key];
}

/**
 * Resolves the session cookie (a signed token naming a session row) to the signed-in user, and
 * builds what that user may do. Anything wrong with the cookie simply leaves the request anonymous.
 */
async function resolveSession(ctx: AppContext, options: { fromMemory: boolean }): Promise<void> {
  // Only the API (and its FHIR face) needs to know who is asking; static files are the same for everyone.
  const token = isApiPath(ctx.path) || isFhirPath(ctx.path) ? ctx.cookies.get(SESSION_COOKIE) : undefined;
  if (!token) return;
  const { config, db, settings } = ctx.services;
  const claims = verifySessionToken(config.secret, token);
  const userId = claims ? Number(claims.sub) : Number.NaN;
  if (!claims || !Number.isSafeInteger(userId)) {
    clearSessionCookie(ctx);
    return;
  }
  const idleMinutes = await settings.get('sessionIdleMinutes');
  if (options.fromMemory && (await resumeFromMemory(ctx, claims.sid, userId, idleMinutes))) return;
  const found = await resumeSession(db.knex, claims.sid, userId, idleMinutes, {
    version: dataVersionRead(ctx.method, ctx.path),
  });
  const resumed = resumedOf(db);
  if (found.status === 'active') {
    const idleEnd = Date.now() + found.idleRemainingMs;
    const sessionExpiresAt = new Date(found.session.expires_at).getTime();
    const user = toCurrentUser(found.user);
    const signedIn = { account: found.user, user, ability: defineAbilityFor(user) };
    signIn(ctx, signedIn, { id: found.session.id, expiresAt: new Date(Math.min(idleEnd, sessionExpiresAt)) });
    if (found.versions) ctx.state.versions = found.versions;
    resumed.set(found.session.id, {
      ...signedIn,
      sessionExpiresAt,
      lastSeenAt: idleEnd - idleMinutes * 60_000,
      confirm: { sessionId: found.session.id, userId, userDigest: found.userDigest, idleMinutes },
    });
  } else {
    resumed.delete(claims.sid);
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
}

/** Resolves the session on every API request (resolveSession), from memory where that is safe. */
export const loadSession: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  await resolveSession(ctx, { fromMemory: true });
  return next();
};

/** Thrown by a request whose statement found the session it was let through on no longer holds. */
export class SessionUnconfirmed extends Error {
  constructor() {
    super('the session resumed from memory no longer holds');
  }
}

/**
 * The handler of `route` (`METHOD /path`), whose chain checks `access` first, let through on a
 * session resumed from memory and confirming it in its own statement (CONFIRMED_IN_STATEMENT).
 * When that session no longer holds (revoked, idle, expired, due its touch, its account changed),
 * nothing was shown or written: the session is resumed in full and the checks a request meets on
 * its way in (its own password, a second factor, `access`) run again before the handler does,
 * once more and on the session as it now stands.
 */
export function withSessionResumed<S>(
  route: string,
  access: Middleware<AppState, AppContextExtension>,
  handler: (ctx: AppContext & { state: S }) => Promise<void>,
): Middleware<AppState & S, AppContextExtension> {
  const [requirement] = accessRequirements([access]);
  if (requirement?.kind !== 'ability') throw new Error(`${route}: access must be can(action, subject)`);
  CONFIRMED_IN_STATEMENT.set(route, [requirement.action, requirement.subject]);
  return async (ctx) => {
    try {
      await handler(ctx);
      return;
    } catch (error) {
      if (!(error instanceof SessionUnconfirmed)) throw error;
    }
    forgetSignIn(ctx);
    await resolveSession(ctx, { fromMemory: false });
    await requireOwnPassword(ctx, () => requireSecondFactor(ctx, () => access(ctx, () => handler(ctx))));
  };
}

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
