import { openDatabase } from '../db/connect.js';
import { createJobRuntime } from '../jobs/runtime.js';
import { createLogger } from '../logger.js';
import { TEST_JOB_OPTIONS } from './job-options.js';

// A delivery worker in a process of its own, for the crash test: it works the delivery queue
// and, once a delivery is recorded as sent, kills itself before its job can complete.
// Environment: DATABASE_URL or WELLREST_DATA_DIR, WELLREST_SECRET, DELIVERY_EXPIRE_SECONDS.

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.WELLREST_DATA_DIR,
  poolMax: 2,
});
const { jobs } = createJobRuntime(
  {
    db,
    logger: createLogger('silent'),
    secret: process.env.WELLREST_SECRET ?? '',
    timeZone: 'America/New_York',
  },
  {
    ...TEST_JOB_OPTIONS,
    deliveryExpireInSeconds: Number(process.env.DELIVERY_EXPIRE_SECONDS ?? 2),
    deliveryHooks: {
      afterSent: (deliveryId) => {
        process.stdout.write(`sent ${deliveryId}\n`);
        process.kill(process.pid, 'SIGKILL');
      },
    },
  },
);
await jobs.start();
process.stdout.write('ready\n');
