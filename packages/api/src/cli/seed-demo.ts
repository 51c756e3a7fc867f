import { loadConfig } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { seedDemo } from '../db/seed/demo.js';

// npm run seed:demo — loads the demo data set into the configured database (DATABASE_URL, or
// the embedded one), after bringing its schema up to date. Running it again changes nothing.

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrate(db.knex);
    const result = await seedDemo(db.knex, { timeZone: config.practiceTimeZone });
    const { users, kits, patients, bookings } = result.counts;
    process.stdout.write(
      result.skipped
        ? `Demo data was already loaded; nothing changed (${users} users, ${kits} kits, ${patients} patients, ${bookings} bookings).\n`
        : `Demo data loaded into the ${db.engine} database: ${users} users, ${kits} kits, ${patients} patients, ${bookings} bookings. Sign in as admin / wellrest-demo.\n`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`seed:demo failed: ${(error as Error).message}\n`);
  process.exit(1);
});
