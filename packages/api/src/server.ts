import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '@wellrest/core';
import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig, loadDotEnv } from './config.js';
import { migrate } from './db/migrate.js';
import { demoSeedOptions, shouldSeedDemo } from './db/seed/auto.js';
import { seedDemo } from './db/seed/demo.js';
import { widgetsDirProblem } from './http/static.js';
import { createLogger, knexLog } from './logger.js';
import { listenStartupError } from './startup/describe.js';
import { openConfiguredDatabase } from './startup/open.js';
import { StartupError } from './startup/startup-error.js';

// Start-up order: configuration, data directory, database, port — and only then migrations and
// demo data, so a server that cannot start (port in use, bad HOST, unreachable database) has
// changed nothing. Exit codes: 1 configuration, 2 data directory, 3 database, 4 port or host.

function readConfig(): Config {
  try {
    loadDotEnv();
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** How long an idle keep-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

/** Answers while migrations run: the port is ours, the application is not ready yet. */
function startingUp(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'retry-after': '5',
  });
  response.end(JSON.stringify({ error: messages.common.startingUp }));
}

function listen(server: Server, config: Config): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(listenStartupError(error, config.host, config.port));
    server.once('error', onError);
    server.listen(config.port, config.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const opened = await openConfiguredDatabase(config, { log: knexLog(logger) });
  const { db } = opened;
  logger.info(
    { database: db.engine, ...(db.engine === 'pglite' ? { dataDir: config.dataDir } : {}) },
    'database opened',
  );

  const server = createServer(startingUp);
  // Idle keep-alive connections stay open a minute (Node closes them after 5 s): longer than the
  // idle time of the proxies and clients that reuse them, so a request a client sends on a
  // connection just as the server closes it (a reset the client cannot retry safely) is rare.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  try {
    await listen(server, config);
  } catch (error) {
    await opened.close();
    throw error;
  }

  const applied = await migrate(db.knex);
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');

  if (await shouldSeedDemo(config, db)) {
    const options = demoSeedOptions(config);
    const result = await seedDemo(db.knex, options);
    logger.info({ ...result.counts, skipped: result.skipped }, 'demo data seeded');
    if (options.forcePasswordChange && !result.skipped) {
      logger.warn(
        'demo data seeded in production: every demo account must choose a new password at first sign-in',
      );
    }
  }

  const widgetsProblem = await widgetsDirProblem(config.widgetsDir);
  if (widgetsProblem) logger.warn({ widgetsDir: config.widgetsDir }, widgetsProblem);

  const app = await createApp({ config, db, logger });
  await app.context.services.jobs.start();
  server.off('request', startingUp);
  server.on('request', app.callback());
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const { port } = server.address() as AddressInfo;
  logger.info({ url: config.publicUrl ?? `http://${shownHost}:${port}`, port }, 'Wellrest is listening');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop accepting connections, let open requests finish, then close the database.
    const force = setTimeout(() => {
      logger.warn('open connections did not finish in time; closing them');
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(() => {
      app.context.services.jobs
        .stop()
        .then(() => opened.close())
        .then(() => {
          logger.info('stopped');
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: { kind: (error as Error).name } }, 'database did not close cleanly');
          process.exit(1);
        });
    });
    server.closeIdleConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const err = error as Error & { code?: string };
  const line =
    error instanceof StartupError
      ? err.message
      : `${err.name}${err.code ? ` (${err.code})` : ''}: ${err.message}`;
  process.stderr.write(`Wellrest failed to start: ${line}\n`);
  // The stack helps a developer, not an operator: only at debug level.
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '') && err.stack)
    process.stderr.write(`${err.stack}\n`);
  process.exit(error instanceof StartupError ? error.exitCode : 1);
});
