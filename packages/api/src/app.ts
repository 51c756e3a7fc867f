import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { auditDeniedAccess } from './audit/denied.js';
import type { Config } from './config.js';
import type { Database } from './db/connect.js';
import { logQueryTimings } from './db/query-log.js';
import { compressApi } from './http/compress.js';
import type { AppContextExtension, AppServices, AppState } from './http/context.js';
import { apiFallback, errorHandler, HTTP_MESSAGES, HttpError } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { sameOrigin } from './http/same-origin.js';
import { securityHeaders } from './http/security-headers.js';
import { loadSession, requireOwnPassword, requireSecondFactor } from './http/session.js';
import { serveStatic } from './http/static.js';
import { createJobRuntime, type JobRuntimeOptions } from './jobs/runtime.js';
import type { Logger } from './logger.js';
import { adminOverviewRoutes } from './modules/admin-overview/routes.js';
import { agreementRoutes } from './modules/agreements/routes.js';
import { signedAgreementRoutes } from './modules/agreements-public/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { sealPlainTotpSecrets, totpKey } from './modules/auth/two-factor.js';
import { bookingRequestRoutes } from './modules/booking-requests/routes.js';
import { bookingRoutes } from './modules/bookings/routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { deliveryRoutes } from './modules/deliveries/routes.js';
import {
  parseSmsStatusForm,
  SMS_STATUS_PATH,
  smsStatusRoutes,
} from './modules/deliveries/status-callback.js';
import { dropoffRoutes } from './modules/dropoffs/routes.js';
import { embedKeyRoutes } from './modules/embed-keys/routes.js';
import { formRoutes } from './modules/forms/routes.js';
import { defineGhlSyncQueue, ghlRoutes } from './modules/ghl/routes.js';
import { housekeepingRoutes } from './modules/housekeeping/routes.js';
import { interpretationRoutes } from './modules/interpretations/routes.js';
import { inventoryRoutes } from './modules/inventory/routes.js';
import { kitStatsRoutes } from './modules/kit-stats/routes.js';
import { kitRoutes } from './modules/kits/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { patientRoutes } from './modules/patients/routes.js';
import { physicianRoutes } from './modules/physicians/directory.js';
import { physicianSignupRoutes } from './modules/physicians/routes.js';
import { privacyRoutes } from './modules/privacy/routes.js';
import { publicRoutes } from './modules/public/routes.js';
import { referralRoutes } from './modules/referrals/routes.js';
import { registrationRoutes } from './modules/registrations/routes.js';
import { scanRoutes } from './modules/scans/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { settingsRoutes } from './modules/settings/routes.js';
import { defaultSettings, ensureSessionSecret, SettingsStore } from './modules/settings/store.js';
import { slaRoutes } from './modules/sla/routes.js';
import { systemRoutes } from './modules/system/routes.js';
import { templateRoutes } from './modules/templates/routes.js';
import { userAdminRoutes } from './modules/users/routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { deriveSecretKey } from './security/secrets.js';

export type App = Koa<AppState, AppContextExtension>;

export interface CreateAppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  /** Queue timings and hooks (tests shorten them). */
  jobs?: JobRuntimeOptions;
}

/** Request bodies are small JSON documents; anything bigger is refused with 413. */
const JSON_BODY_LIMIT = '1mb';
/** A public referral may carry a 2 MB attachment, base64-encoded inside its JSON. */
const REFERRAL_BODY_LIMIT = '3mb';
const REFERRAL_PATH = '/api/public/referrals';

const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, jsonStrict: true });
const parseReferralJson = bodyParser({
  enableTypes: ['json'],
  jsonLimit: REFERRAL_BODY_LIMIT,
  jsonStrict: true,
});
/** A zlib or brotli error: a compressed body that does not decompress. */
function isDecompressionError(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return (
    typeof code === 'string' &&
    typeof errno === 'number' &&
    (code.startsWith('Z_') || code.startsWith('ERR__ERROR') || code.startsWith('ERR_BROTLI'))
  );
}

/**
 * Parses JSON bodies (and the SMS receipts' form bodies; gzip, deflate and br decompressed on the way). A body that does not
 * decompress is the client's mistake (400), an encoding not among those is refused (415); only
 * errors raised while reading the body are mapped, never those of the route that runs after.
 */
const jsonBody: Koa.Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  const parse =
    ctx.path === REFERRAL_PATH
      ? parseReferralJson
      : ctx.path === SMS_STATUS_PATH
        ? parseSmsStatusForm
        : parseJson;
  let read = false;
  try {
    await parse(ctx, () => {
      read = true;
      return next();
    });
  } catch (error) {
    if (read) throw error;
    if (isDecompressionError(error)) throw new HttpError(400, HTTP_MESSAGES.malformedBody);
    const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown };
    if (status === 415 && typeof message === 'string' && message.startsWith('Unsupported Content-Encoding'))
      throw new HttpError(415, HTTP_MESSAGES.unsupportedEncoding);
    throw error;
  }
};

/**
 * Every API route, one router per feature. The permission matrix test walks this router, so a
 * route mounted here is checked for every role without being listed again.
 */
export function apiRouter(): Router<AppState, AppContextExtension> {
  const api = new Router<AppState, AppContextExtension>();
  api.use(systemRoutes().routes());
  api.use(authRoutes().routes());
  api.use(registrationRoutes().routes());
  api.use(privacyRoutes().routes());
  api.use(userAdminRoutes().routes());
  api.use(settingsRoutes().routes());
  api.use(auditRoutes().routes());
  api.use(adminOverviewRoutes().routes());
  api.use(patientRoutes().routes());
  api.use(kitRoutes().routes());
  api.use(inventoryRoutes().routes());
  api.use(scanRoutes().routes());
  api.use(kitStatsRoutes().routes());
  api.use(bookingRoutes().routes());
  api.use(agreementRoutes().routes());
  api.use(dashboardRoutes().routes());
  api.use(searchRoutes().routes());
  api.use(ghlRoutes().routes());
  api.use(publicRoutes().routes());
  api.use(embedKeyRoutes().routes());
  api.use(bookingRequestRoutes().routes());
  api.use(referralRoutes().routes());
  api.use(physicianSignupRoutes().routes());
  api.use(physicianRoutes().routes());
  api.use(interpretationRoutes().routes());
  api.use(slaRoutes().routes());
  api.use(signedAgreementRoutes().routes());
  api.use(dropoffRoutes().routes());
  api.use(formRoutes().routes());
  api.use(templateRoutes().routes());
  api.use(deliveryRoutes().routes());
  api.use(smsStatusRoutes().routes());
  api.use(housekeepingRoutes().routes());
  api.use(notificationRoutes().routes());
  api.use(webhookRoutes().routes());
  return api;
}

/**
 * Composes the HTTP application: cross-cutting middleware, then every feature's routes, then
 * the static console. It does not listen; `server.ts` (or a test) does. The database must be
 * migrated already.
 */
export async function createApp({ config, db, logger, jobs: jobOptions }: CreateAppOptions): Promise<App> {
  const secret = config.secret ?? (await ensureSessionSecret(db.knex));
  // TOTP secrets stored before they were sealed at rest are sealed now, once.
  await sealPlainTotpSecrets(db.knex, totpKey(secret));
  const settings = new SettingsStore(
    db.knex,
    defaultSettings(config),
    deriveSecretKey(secret, 'settings-at-rest'),
  );
  await settings.sealStoredSecrets();
  const { jobs, outbox } = createJobRuntime(
    { db, logger, secret, timeZone: config.practiceTimeZone, publicUrl: config.publicUrl },
    jobOptions,
  );
  const services: AppServices = { config: { ...config, secret }, db, logger, settings, jobs, outbox };
  defineGhlSyncQueue(services);
  logQueryTimings(db.knex, logger);

  // Behind N trusted proxies the client address is the Nth entry from the right of
  // X-Forwarded-For (the one the outermost proxy appended); whatever the client wrote further left
  // is ignored.
  const app: App = new Koa<AppState, AppContextExtension>({
    proxy: config.trustProxy,
    maxIpsCount: config.proxyHops,
  });
  app.context.services = services;
  // Errors are answered (and, when unexpected, logged) by errorHandler; silence Koa's own printing.
  app.silent = true;

  app.use(requestLog(logger));
  app.use(errorHandler(logger));
  app.use(compressApi);
  app.use(securityHeaders());
  app.use(sameOrigin({ publicUrl: config.publicUrl }));
  app.use(jsonBody);
  app.use(loadSession);
  app.use(auditDeniedAccess());
  app.use(requireOwnPassword);
  app.use(requireSecondFactor);
  app.use(apiFallback);

  const api = apiRouter();
  app.context.routePattern = (method: string, path: string) => {
    const pattern = api.match(path, method).pathAndMethod.findLast((layer) => layer.methods.length > 0)?.path;
    return pattern instanceof RegExp ? pattern.source : pattern;
  };
  app.use(api.routes());
  app.use(api.allowedMethods());

  app.use(serveStatic({ consoleDir: config.staticDir, widgetsDir: config.widgetsDir }));
  return app;
}
