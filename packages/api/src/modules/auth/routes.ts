import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import {
  ACCOUNT_LOCK_FAILURE_FACTOR,
  authMessages,
  ChangePasswordInput,
  LoginInput,
  type LoginResponse,
  messages,
  passwordProblem,
  SetPasswordInput,
  TwoFactorDisableInput,
  TwoFactorEnableInput,
} from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { authenticated, can } from '../../http/can.js';
import {
  type AppContext,
  type AppContextExtension,
  type AppState,
  clientInfo,
  dbOf,
} from '../../http/context.js';
import { badRequest, conflict, type HttpError, notFound } from '../../http/errors.js';
import { uuidParam } from '../../http/params.js';
import {
  clearSessionCookie,
  mustEnrolTwoFactor,
  setDeviceCookie,
  setSessionCookie,
} from '../../http/session.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { findUserById, findUserByLogin, setPassword, toCurrentUser, type UserRow } from '../users/store.js';
import { consumePasswordLink } from './password-links.js';
import { verifyAgainstDummy, verifyPassword } from './passwords.js';
import { createSession, revokeSession } from './sessions.js';
import { attemptAllowed, clearFailures, isLocked, loginTarget, recordFailure } from './throttle.js';
import { DEVICE_COOKIE, signSessionToken } from './tokens.js';
import {
  consumeSecondFactor,
  enrolment,
  newRecoveryCodes,
  newTotpSecret,
  openTotpSecret,
  revokeTrustedDevices,
  sealTotpSecret,
  totpKey,
  totpStep,
  trustDevice,
  trustedDeviceId,
} from './two-factor.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client's device id when it is a well-formed UUID; otherwise undefined. */
function validDeviceId(sent: string | undefined): string | undefined {
  return sent && UUID.test(sent) ? sent.toLowerCase() : undefined;
}

/** A 400 naming the bad fields, in the shape the validation middleware uses. */
function fieldErrors(fields: Record<string, string>): HttpError {
  return badRequest(messages.common.invalidRequest, { fields });
}

/** When a password set at `changedAt` expires; null when passwords never expire (0 days). */
function passwordExpiresAt(changedAt: Date, expiryDays: number): Date | null {
  return expiryDays > 0 ? new Date(new Date(changedAt).getTime() + expiryDays * 86_400_000) : null;
}

type LoginFailureReason =
  | 'unknown_user'
  | 'wrong_password'
  | 'inactive'
  | 'locked'
  | 'rate_limited'
  | 'wrong_code'
  | 'password_expired';

async function login(ctx: AppContext & { state: { input: LoginInput } }): Promise<void> {
  const { username, password, twoFactorToken, trustDevice: wantsTrust } = ctx.state.input;
  const db = dbOf(ctx);
  const settings = await ctx.services.settings.all(db);
  const sentDeviceId = validDeviceId(ctx.state.input.deviceId);
  let deviceId = sentDeviceId ?? randomUUID();

  // Refusals are answered, not thrown: the audit event of the attempt must commit.
  const refuse = async (
    status: number,
    reason: LoginFailureReason,
    user: UserRow | undefined,
    body: LoginResponse & { error: string },
  ) => {
    await audit(db, ctx, {
      action: 'auth.login',
      outcome: reason === 'rate_limited' ? 'denied' : 'failure',
      entityType: 'user',
      entityId: user?.id ?? null,
      actor: { id: user?.id ?? null, username: user?.username ?? null },
      details: { reason },
    });
    ctx.status = status;
    ctx.body = body;
  };
  const lockedAnswer = { success: false, error: authMessages.accountLocked(settings.lockoutMinutes) };
  const invalidAnswer = { success: false, error: messages.login.invalidCredentials };

  const ip = clientInfo(ctx).ip;
  const policy = {
    threshold: settings.lockoutThreshold,
    minutes: settings.lockoutMinutes,
    rateLimit: settings.loginRateLimit,
  };
  const user = await findUserByLogin(db, username);
  const target = loginTarget(ctx.services.config.secret, username, user);
  const allowed = await attemptAllowed(db, target, ip, policy);
  if (!allowed.allowed) {
    ctx.set('Retry-After', String(allowed.retryAfter));
    return refuse(429, 'rate_limited', undefined, { success: false, error: messages.login.rateLimited });
  }
  // A locked account stops a password alone. The second factor still passes: an account with
  // two-factor on goes on to ask for it (or finds this browser trusted through it).
  const trustedId =
    user?.totp_enabled === true
      ? await trustedDeviceId(db, { userId: user.id, token: ctx.cookies.get(DEVICE_COOKIE) })
      : undefined;
  if (user?.totp_enabled !== true && (await isLocked(db, target))) {
    return refuse(423, 'locked', user, lockedAnswer);
  }

  const countFailure = async (
    reason: LoginFailureReason,
    extra: Partial<LoginResponse> & { error?: string } = {},
  ) => {
    const { locked } = await recordFailure(db, target, ip, policy);
    const lockStops = locked && user?.totp_enabled !== true;
    await refuse(lockStops ? 423 : 401, reason, user, {
      ...(lockStops ? lockedAnswer : { ...invalidAnswer, ...extra }),
    });
    if (locked) {
      await audit(db, ctx, {
        action: 'auth.lockout',
        outcome: 'success',
        entityType: user ? 'user' : 'login_name',
        entityId: user?.id ?? null,
        actor: { id: user?.id ?? null, username: user?.username ?? null },
        details: {
          minutes: settings.lockoutMinutes,
          failures: settings.lockoutThreshold * ACCOUNT_LOCK_FAILURE_FACTOR,
        },
      });
      ctx.services.logger.warn(
        { event: 'auth.lockout', userId: user?.id ?? null, minutes: settings.lockoutMinutes },
        'account locked after repeated failed sign-ins',
      );
    }
  };

  // The same work whether or not the account exists.
  const valid = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstDummy(password);
  if (!user || !valid) return countFailure(user ? 'wrong_password' : 'unknown_user');
  if (!user.is_active) return refuse(401, 'inactive', user, invalidAnswer);

  const expiresAt = passwordExpiresAt(user.password_changed_at, settings.passwordExpiryDays);
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    await clearFailures(db, user.id, ip);
    await refuse(200, 'password_expired', user, {
      success: false,
      passwordExpired: true,
      deviceId,
      error: messages.login.passwordExpiredAlert,
    });
    return;
  }

  let secondFactor: 'none' | 'trusted_device' | 'totp' | 'recovery' = 'none';
  if (user.totp_enabled) {
    if (trustedId) {
      secondFactor = 'trusted_device';
      deviceId = trustedId;
    } else if (!twoFactorToken) {
      const body: LoginResponse = {
        success: false,
        requiresTwoFactor: true,
        deviceId,
        message: messages.login.twoFactorRequired.description,
      };
      ctx.body = body;
      return;
    } else {
      const used = await consumeSecondFactor(db, user, twoFactorToken, totpKey(ctx.services.config.secret));
      if (!used) {
        return countFailure('wrong_code', { requiresTwoFactor: true, error: messages.login.invalidCode });
      }
      secondFactor = used;
      if (used === 'recovery') {
        await audit(db, ctx, {
          action: 'auth.recovery_code_use',
          outcome: 'success',
          entityType: 'user',
          entityId: user.id,
          actor: { id: user.id, username: user.username },
        });
      }
      if (wantsTrust) {
        const device = await trustDevice(db, {
          userId: user.id,
          deviceId,
          userAgent: clientInfo(ctx).userAgent,
        });
        setDeviceCookie(ctx, device.token, device.expiresAt);
        await audit(db, ctx, {
          action: 'auth.trusted_device_add',
          outcome: 'success',
          entityType: 'trusted_device',
          entityId: device.id,
          actor: { id: user.id, username: user.username },
        });
      }
    }
  }

  await clearFailures(db, user.id, ip);
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
    details: { secondFactor },
  });
  setSessionCookie(
    ctx,
    signSessionToken(
      ctx.services.config.secret,
      { sid: session.id, sub: String(user.id) },
      session.expires_at,
    ),
  );
  // An account that must choose its own password says so at once, so the console asks for it first.
  const signedInUser = Object.assign(
    toCurrentUser(user),
    user.must_change_password ? { mustChangePassword: true } : {},
    (await mustEnrolTwoFactor(ctx, user)) ? { mustEnrolTwoFactor: true } : {},
  );
  const response: LoginResponse = {
    success: true,
    requiresTwoFactor: false,
    passwordExpired: false,
    user: signedInUser,
    deviceId,
  };
  ctx.body = response;
}

async function me(ctx: AppContext): Promise<void> {
  const { user, account, session } = ctx.state;
  const expiryDays = await ctx.services.settings.get('passwordExpiryDays');
  // The console shows times and "today" in the practice's zone, for every role.
  const practiceTimeZone = await ctx.services.settings.get('practiceTimeZone');
  ctx.body = {
    ...user,
    practiceTimeZone,
    sessionExpiresAt: session?.expiresAt.toISOString() ?? null,
    twoFactorEnabled: account?.totp_enabled ?? false,
    mustChangePassword: account?.must_change_password ?? false,
    mustEnrolTwoFactor: await mustEnrolTwoFactor(ctx, account),
    passwordExpiresAt: account
      ? (passwordExpiresAt(account.password_changed_at, expiryDays)?.toISOString() ?? null)
      : null,
  };
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

/** The signed-in account, read again inside the request's transaction. */
async function currentAccount(ctx: AppContext): Promise<UserRow> {
  const id = ctx.state.user?.id;
  const row = id === undefined ? undefined : await findUserById(dbOf(ctx), id);
  if (!row) throw notFound();
  return row;
}

async function changePassword(ctx: AppContext & { state: { input: ChangePasswordInput } }): Promise<void> {
  const { currentPassword, newPassword } = ctx.state.input;
  const db = dbOf(ctx);
  const account = await currentAccount(ctx);
  const fields: Record<string, string> = {};
  if (!(await verifyPassword(account.password_hash, currentPassword)))
    fields.currentPassword = authMessages.currentPasswordWrong;
  const problem = passwordProblem(newPassword, account.username);
  if (problem) fields.newPassword = problem;
  else if (newPassword === currentPassword) fields.newPassword = authMessages.passwordUnchanged;
  if (Object.keys(fields).length > 0) throw fieldErrors(fields);

  await setPassword(db, account.id, newPassword);
  // Other browsers signed in with the old password are signed out.
  const revoked = await db('sessions')
    .where({ user_id: account.id })
    .whereNot({ id: ctx.state.session?.id ?? '' })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  await audit(db, ctx, {
    action: 'auth.password_change',
    outcome: 'success',
    entityType: 'user',
    entityId: account.id,
    details: { otherSessionsRevoked: revoked },
  });
  ctx.body = { success: true, message: authMessages.passwordChanged };
}

async function setPasswordFromLink(ctx: AppContext & { state: { input: SetPasswordInput } }): Promise<void> {
  const { token, password } = ctx.state.input;
  const db = dbOf(ctx);
  const link = await consumePasswordLink(db, token);
  const user = link && (await findUserById(db, link.userId));
  if (!user?.is_active) throw fieldErrors({ token: authMessages.setPasswordLinkInvalid });
  const problem = passwordProblem(password, user.username);
  // Thrown: the transaction rolls back, so the link stays usable for a better password.
  if (problem) throw fieldErrors({ password: problem });
  await setPassword(db, user.id, password);
  await db('sessions')
    .where({ user_id: user.id })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  await audit(db, ctx, {
    action: 'auth.password_set',
    outcome: 'success',
    entityType: 'user',
    entityId: user.id,
    actor: { id: user.id, username: user.username },
  });
  ctx.body = { success: true, message: authMessages.passwordSet, username: user.username };
}

async function startTwoFactor(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const account = await currentAccount(ctx);
  if (account.totp_enabled) throw conflict(authMessages.twoFactorAlreadyEnabled);
  const secret = newTotpSecret();
  await db('users')
    .where({ id: account.id })
    .update({
      totp_secret: sealTotpSecret(secret, totpKey(ctx.services.config.secret)),
      totp_last_step: null,
    });
  await audit(db, ctx, {
    action: 'auth.two_factor_setup',
    outcome: 'success',
    entityType: 'user',
    entityId: account.id,
  });
  ctx.body = await enrolment(secret, account.username);
}

async function enableTwoFactor(ctx: AppContext & { state: { input: TwoFactorEnableInput } }): Promise<void> {
  const db = dbOf(ctx);
  const account = await currentAccount(ctx);
  if (account.totp_enabled) throw conflict(authMessages.twoFactorAlreadyEnabled);
  if (!account.totp_secret) throw badRequest(authMessages.twoFactorNotStarted);
  // The password again: a session alone (an unattended browser) cannot turn on a second factor.
  if (!(await verifyPassword(account.password_hash, ctx.state.input.password)))
    throw fieldErrors({ password: authMessages.currentPasswordWrong });
  const secret = openTotpSecret(account.totp_secret, totpKey(ctx.services.config.secret));
  if (!secret) throw badRequest(authMessages.twoFactorNotStarted);
  const step = totpStep(secret, account.username, ctx.state.input.code);
  if (step === null) throw fieldErrors({ code: messages.login.invalidCode });
  const { codes, hashes } = await newRecoveryCodes();
  await db('users')
    .where({ id: account.id })
    .update({ totp_enabled: true, totp_last_step: step, recovery_codes: JSON.stringify(hashes) });
  await audit(db, ctx, {
    action: 'auth.two_factor_enable',
    outcome: 'success',
    entityType: 'user',
    entityId: account.id,
  });
  ctx.body = { recoveryCodes: codes };
}

async function disableTwoFactor(
  ctx: AppContext & { state: { input: TwoFactorDisableInput } },
): Promise<void> {
  const { password, code } = ctx.state.input;
  const db = dbOf(ctx);
  const account = await currentAccount(ctx);
  if (!account.totp_enabled) throw badRequest(authMessages.twoFactorNotEnabled);
  if (!(await verifyPassword(account.password_hash, password)))
    throw fieldErrors({ password: authMessages.currentPasswordWrong });
  if (!(await consumeSecondFactor(db, account, code, totpKey(ctx.services.config.secret))))
    throw fieldErrors({ code: messages.login.invalidCode });
  await db('users')
    .where({ id: account.id })
    .update({
      totp_enabled: false,
      totp_secret: null,
      totp_last_step: null,
      recovery_codes: JSON.stringify([]),
    });
  const devices = await revokeTrustedDevices(db, account.id);
  await audit(db, ctx, {
    action: 'auth.two_factor_disable',
    outcome: 'success',
    entityType: 'user',
    entityId: account.id,
    details: { trustedDevicesRevoked: devices },
  });
  ctx.body = { success: true };
}

async function listSessions(ctx: AppContext): Promise<void> {
  const rows = await dbOf(ctx)('sessions')
    .where({ user_id: ctx.state.user?.id ?? 0 })
    .whereNull('revoked_at')
    .andWhereRaw('expires_at > now()')
    .orderBy('last_seen_at', 'desc')
    .select('id', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent');
  ctx.body = rows.map((row) => ({
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    lastSeenAt: new Date(row.last_seen_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    ip: row.ip,
    userAgent: row.user_agent,
    current: row.id === ctx.state.session?.id,
  }));
}

async function endSession(ctx: AppContext): Promise<void> {
  const id = uuidParam(ctx);
  const db = dbOf(ctx);
  const updated = await db('sessions')
    .where({ id, user_id: ctx.state.user?.id ?? 0 })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  if (updated === 0) throw notFound();
  await audit(db, ctx, {
    action: 'auth.session_revoke',
    outcome: 'success',
    entityType: 'session',
    entityId: id,
  });
  if (id === ctx.state.session?.id) clearSessionCookie(ctx);
  ctx.body = { success: true };
}

async function listTrustedDevices(ctx: AppContext): Promise<void> {
  const rows = await dbOf(ctx)('trusted_devices')
    .where({ user_id: ctx.state.user?.id ?? 0 })
    .whereNull('revoked_at')
    .andWhereRaw('expires_at > now()')
    .orderBy('created_at', 'desc')
    .select('id', 'device_id', 'created_at', 'expires_at', 'user_agent');
  ctx.body = rows.map((row) => ({
    id: row.id,
    deviceId: row.device_id,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    userAgent: row.user_agent,
  }));
}

async function forgetTrustedDevice(ctx: AppContext): Promise<void> {
  const id = uuidParam(ctx);
  const db = dbOf(ctx);
  const updated = await db('trusted_devices')
    .where({ id, user_id: ctx.state.user?.id ?? 0 })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  if (updated === 0) throw notFound();
  await audit(db, ctx, {
    action: 'auth.trusted_device_revoke',
    outcome: 'success',
    entityType: 'trusted_device',
    entityId: id,
  });
  ctx.body = { success: true };
}

export function authRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post<{ input: LoginInput }>('/api/auth/login', validate(LoginInput), inTransaction, login);
  router.get('/api/auth/me', authenticated, me);
  router.post('/api/auth/logout', inTransaction, logout);
  router.post<{ input: ChangePasswordInput }>(
    '/api/auth/password',
    can('update', 'Session'),
    validate(ChangePasswordInput),
    inTransaction,
    changePassword,
  );
  router.post<{ input: SetPasswordInput }>(
    '/api/auth/set-password',
    validate(SetPasswordInput),
    inTransaction,
    setPasswordFromLink,
  );
  router.post('/api/auth/2fa/setup', can('update', 'Session'), inTransaction, startTwoFactor);
  router.post<{ input: TwoFactorEnableInput }>(
    '/api/auth/2fa/enable',
    can('update', 'Session'),
    validate(TwoFactorEnableInput),
    inTransaction,
    enableTwoFactor,
  );
  router.post<{ input: TwoFactorDisableInput }>(
    '/api/auth/2fa/disable',
    can('update', 'Session'),
    validate(TwoFactorDisableInput),
    inTransaction,
    disableTwoFactor,
  );
  router.get('/api/auth/sessions', can('read', 'Session'), listSessions);
  router.delete('/api/auth/sessions/:id', can('update', 'Session'), inTransaction, endSession);
  router.get('/api/auth/trusted-devices', can('read', 'Session'), listTrustedDevices);
  router.delete(
    '/api/auth/trusted-devices/:id',
    can('update', 'Session'),
    inTransaction,
    forgetTrustedDevice,
  );
  return router;
}
