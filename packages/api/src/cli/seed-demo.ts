import { parseArgs } from 'node:util';
import { loadConfig, loadDotEnv } from '../config.js';
import { migrate } from '../db/migrate.js';
import { demoSeedOptions } from '../db/seed/auto.js';
import { seedDemo } from '../db/seed/demo.js';
import { openConfiguredDatabase } from '../startup/open.js';

// npm run seed:demo [-- --force] — loads the demo data set into the configured database
// (DATABASE_URL, or the embedded one), after bringing its schema up to date. Running it again
// changes nothing. With NODE_ENV=production it refuses unless --force is given: demo accounts
// with a published password do not belong in a practice's real database.

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { force: { type: 'boolean', default: false } }, strict: true });
  loadDotEnv();
  const config = loadConfig();
  if (config.nodeEnv === 'production' && !values.force) {
    process.stderr.write(
      'seed:demo refused: NODE_ENV is production, and the demo data adds accounts whose password is published. Run it against a development database, or add --force if this really is a demonstration server.\n',
    );
    process.exit(1);
  }
  const opened = await openConfiguredDatabase(config, { poolMax: 2 });
  const { db } = opened;
  try {
    await migrate(db.knex);
    const result = await seedDemo(db.knex, demoSeedOptions(config));
    const { users, kits, patients, bookings } = result.counts;
    process.stdout.write(
      result.skipped
        ? `Demo data was already loaded; nothing changed (${users} users, ${kits} kits, ${patients} patients, ${bookings} bookings).\n`
        : `Demo data loaded into the ${db.engine} database: ${users} users, ${kits} kits, ${patients} patients, ${bookings} bookings. Sign in as admin / wellrest-demo${config.nodeEnv === 'production' ? ', then choose a new password' : ''}.\n`,
    );
  } finally {
    await opened.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`seed:demo failed: ${(error as Error).message}\n`);
  process.exit(1);
});
