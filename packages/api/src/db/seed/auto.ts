import type { Config } from '../../config.js';
import type { Database } from '../connect.js';
import { DEMO_SEED_MARKER } from './demo.js';

/**
 * Whether the server should seed demo data at start. 'auto' seeds only a brand-new, empty
 * embedded database (a fresh `npm start`); a PostgreSQL server is seeded only on request.
 */
export async function shouldSeedDemo(config: Pick<Config, 'seedDemo'>, db: Database): Promise<boolean> {
  if (config.seedDemo === 'false') return false;
  if (config.seedDemo === 'true') return true;
  if (db.engine !== 'pglite') return false;
  const [users, patients, kits, marker] = await Promise.all([
    db.knex('users').first('id'),
    db.knex('patients').first('id'),
    db.knex('kits').first('id'),
    db.knex('settings').where({ key: DEMO_SEED_MARKER }).first('key'),
  ]);
  return !users && !patients && !kits && !marker;
}
