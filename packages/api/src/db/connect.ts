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
  /**
   * Connections of their own whose prepared statements always run on their generic plan
   * (`plan_cache_mode = force_generic_plan`), for the few named statements that cost more to
   * plan than to run (the search's: `modules/search`). Left out on the embedded database, whose
   * one connection is `knex`'s.
   */
  genericPlans?: Knex;
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
    const poolMax = options.poolMax ?? 10;
    const pooled = (connection: Knex.PgConnectionConfig, max: number) =>
      knexFactory({
        client: 'pg',
        connection: { connectionString: options.databaseUrl, ...connection },
        pool: { min: 0, max },
        // While the database cannot be reached a request waits this long for a connection, then
        // is answered 503 with Retry-After (http/errors.ts), rather than Knex's default minute.
        acquireConnectionTimeout: 10_000,
        ...(options.log ? { log: options.log } : {}),
      });
    const knex = pooled({ application_name: 'wellrest-api' }, poolMax);
    // PostgreSQL plans a prepared statement again for every run while its generic plan looks
    // dearer than the plans made for the values given; for the search's statement that planning
    // cost more than the run itself. On these connections the generic plan, made once, is used.
    const genericPlans = pooled(
      { application_name: 'wellrest-api-generic', options: '-c plan_cache_mode=force_generic_plan' },
      Math.max(1, Math.ceil(poolMax / 2)),
    );
    return {
      knex,
      genericPlans,
      engine: 'postgres',
      url: options.databaseUrl,
      close: async () => {
        await Promise.all([knex.destroy(), genericPlans.destroy()]);
      },
    };
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
