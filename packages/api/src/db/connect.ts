import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';

export type Engine = 'postgres' | 'pglite';

export interface Database {
  knex: Knex;
  engine: Engine;
  /** The PostgreSQL server's connection string (engine 'postgres'), for clients that open their own pool. */
  url?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server. Takes precedence over `dataDir`. */
  databaseUrl?: string | undefined;
  /** Where the embedded database keeps its files, or 'memory' for a throwaway one. */
  dataDir?: string | 'memory' | undefined;
  /** Start an embedded database from a dump taken with `dumpDataDir()` (used by tests). */
  loadDataDir?: Blob | undefined;
  /** Pool size for a PostgreSQL server. */
  poolMax?: number;
  /** Where the database client's own warnings go (logger.ts `knexLog`); by default Knex prints them. */
  log?: Knex.Logger | undefined;
}

const PG_DATE = 1082;
const PG_INT8 = 20;

// Calendar dates stay 'YYYY-MM-DD' strings (no time zone may shift them), and int8 values
// (counts, bigserial ids) come back as numbers on both engines.
const parseDate = (value: string) => value;
const parseInt8 = (value: string) => Number.parseInt(value, 10);
pg.types.setTypeParser(PG_DATE, parseDate);
pg.types.setTypeParser(PG_INT8, parseInt8);

export const pgliteExtensions = { btree_gist, pg_trgm };

/** A new embedded PostgreSQL instance with the extensions our migrations need. */
export function createPglite(options: {
  dataDir?: string | 'memory';
  loadDataDir?: Blob | undefined;
}): PGlite {
  const dataDir =
    options.dataDir === undefined || options.dataDir === 'memory' ? 'memory://' : options.dataDir;
  if (dataDir !== 'memory://') mkdirSync(dataDir, { recursive: true });
  return new PGlite({
    dataDir,
    extensions: pgliteExtensions,
    parsers: { [PG_DATE]: parseDate, [PG_INT8]: parseInt8 },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
}

/** Wraps an existing PGlite instance in Knex. PGlite has one connection, so no pool is configured. */
export function knexForPglite(pglite: PGlite): Knex {
  // knex-pglite reads `{ pglite }` from the connection provider; Knex's types only know SQL connection configs.
  const connection = (() => ({ pglite })) as unknown as Knex.ConnectionConfigProvider;
  return knexFactory({ client: ClientPgLite, dialect: 'postgres', connection });
}

/** Opens the application database: a PostgreSQL server when a URL is given, else embedded PGlite. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) {
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: options.databaseUrl, application_name: 'wellrest-api' },
      pool: { min: 0, max: options.poolMax ?? 10 },
      // While the database cannot be reached a request waits this long for a connection, then is
      // answered 503 with Retry-After (http/errors.ts), rather than Knex's default minute.
      acquireConnectionTimeout: 10_000,
      ...(options.log ? { log: options.log } : {}),
    });
    return { knex, engine: 'postgres', url: options.databaseUrl, close: () => knex.destroy() };
  }
  const pglite = createPglite({ dataDir: options.dataDir ?? 'memory', loadDataDir: options.loadDataDir });
  await pglite.waitReady;
  const knex = knexForPglite(pglite);
  return {
    knex,
    engine: 'pglite',
    close: async () => {
      await knex.destroy();
      // knex-pglite closes the instance when its pool drains; close it here when it never connected.
      if (!pglite.closed) await pglite.close();
    },
  };
}
