import type { Server } from 'node:http';
import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import { migrate } from './db/migrate.js';
import { shouldSeedDemo } from './db/seed/auto.js';
import { seedDemo } from './db/seed/demo.js';
import { widgetsDirProblem } from './http/static.js';
import { createLogger } from './logger.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  logger.info(
    { database: db.engine, ...(db.engine === 'pglite' ? { dataDir: config.dataDir } : {}) },
    'database opened',
  );

  const applied = await migrate(db.knex);
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');

  if (await shouldSeedDemo(config, db)) {
    const result = await seedDemo(db.knex, { timeZone: config.practiceTimeZone });
    logger.info({ ...result.counts, skipped: result.skipped }, 'demo data seeded');
  }

  const widgetsProblem = await widgetsDirProblem(config.widgetsDir);
  if (widgetsProblem) logger.warn({ widgetsDir: config.widgetsDir }, widgetsProblem);

  const app = await createApp({ config, db, logger });
  const server: Server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info({ url: config.publicUrl ?? `http://${shownHost}:${config.port}` }, 'Wellrest is listening');

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
      db.close()
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
  process.stderr.write(
    `Wellrest failed to start: ${err.name}${err.code ? ` (${err.code})` : ''}: ${err.message}\n`,
  );
  process.exit(1);
});
