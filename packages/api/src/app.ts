import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import type { Config } from './config.js';
import type { Database } from './db/connect.js';
import type { AppContextExtension, AppServices, AppState } from './http/context.js';
import { apiFallback, errorHandler } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { sameOrigin } from './http/same-origin.js';
import { securityHeaders } from './http/security-headers.js';
import { loadSession } from './http/session.js';
import { serveStatic } from './http/static.js';
import type { Logger } from './logger.js';
import { authRoutes } from './modules/auth/routes.js';
import { ensureSessionSecret } from './modules/settings/store.js';
import { systemRoutes } from './modules/system/routes.js';

export type App = Koa<AppState, AppContextExtension>;

export interface CreateAppOptions {
  config: Config;
  db: Database;
  logger: Logger;
}

/** Request bodies are small JSON documents; anything bigger is refused with 413. */
const JSON_BODY_LIMIT = '1mb';

/**
 * Composes the HTTP application: cross-cutting middleware, then every feature's routes, then
 * the static console. It does not listen; `server.ts` (or a test) does. The database must be
 * migrated already.
 */
export async function createApp({ config, db, logger }: CreateAppOptions): Promise<App> {
  const secret = config.secret ?? (await ensureSessionSecret(db.knex));
  const services: AppServices = { config: { ...config, secret }, db, logger };

  const app: App = new Koa<AppState, AppContextExtension>({ proxy: config.trustProxy });
  app.context.services = services;
  // Errors are answered (and, when unexpected, logged) by errorHandler; silence Koa's own printing.
  app.silent = true;

  app.use(requestLog(logger));
  app.use(errorHandler(logger));
  app.use(securityHeaders({ publicUrl: config.publicUrl }));
  app.use(sameOrigin({ publicUrl: config.publicUrl }));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, jsonStrict: true }));
  app.use(loadSession);
  app.use(apiFallback);

  const api = new Router<AppState, AppContextExtension>();
  api.use(systemRoutes().routes(), authRoutes().routes());
  app.use(api.routes());
  app.use(api.allowedMethods());

  app.use(serveStatic({ consoleDir: config.staticDir, widgetsDir: config.widgetsDir }));
  return app;
}
