import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { type Database, openDatabase } from '../db/connect.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { databaseStartupError } from './describe.js';

export interface OpenedDatabase {
  db: Database;
  /** Closes the database, then releases the data directory's lock (embedded database only). */
  close(): Promise<void>;
}

/**
 * Opens the configured database for a server or a command: the embedded one only under its data
 * directory's lock, and either only after a first query has answered, so a wrong DATABASE_URL or
 * a damaged directory is reported as one line (a StartupError) before anything else happens.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { poolMax?: number; log?: Knex.Logger } = {},
): Promise<OpenedDatabase> {
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) lock = acquireDataDirLock(config.dataDir);
  let db: Database | undefined;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...options });
    await db.knex.raw('select 1');
  } catch (error) {
    await db?.close().catch(() => {});
    lock?.release();
    throw databaseStartupError(error, config.databaseUrl);
  }
  const opened = db;
  return {
    db: opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        lock?.release();
      }
    },
  };
}
