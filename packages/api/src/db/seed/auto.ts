import type { Config } from '../../config.js';
import type { Database } from '../connect.js';
import { DEMO_SEED_MARKER } from './demo.js';

/**
 * Whether the server should seed demo data at start. 'auto' seeds only a brand-new, empty
 * embedded database (a fresh `npm start`), and never with NODE_ENV=production; a PostgreSQL
 * server, or production, is seeded only on explicit request (WELLREST_SEED_DEMO=true), and then
 * every demo account must choose its own password at first sign-in (demoSeedOptions).
 */
export async function shouldSeedDemo(
  config: Pick<Config, 'seedDemo' | 'nodeEnv'>,
  db: Database,
): Promise<boolean> {
  if (config.seedDemo === 'false') return false;
  if (config.seedDemo === 'true') return true;
  if (config.nodeEnv === 'production') return false;
  if (db.engine !== 'pglite') return false;
  const [users, patients, kits, marker] = await Promise.all([
    db.knex('users').first('id'),
    db.knex('patients').first('id'),
    db.knex('kits').first('id'),
    db.knex('settings').where({ key: DEMO_SEED_MARKER }).first('key'),
  ]);
  return !users && !patients && !kits && !marker;
}

/** How demo data is seeded: in production, with a password change forced on every demo account. */
export function demoSeedOptions(config: Pick<Config, 'practiceTimeZone' | 'nodeEnv'>): {
  timeZone: string;
  forcePasswordChange: boolean;
} {
  return { timeZone: config.practiceTimeZone, forcePasswordChange: config.nodeEnv === 'production' };
}
