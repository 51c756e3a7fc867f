import { createApp } from '../app.js';
import { openDatabase } from '../db/connect.js';
import { createLogger } from '../logger.js';
import { TEST_JOB_OPTIONS } from './job-options.js';
import { testConfig } from './server.js';

// A workflow worker in a process of its own, for the crash test: it runs workflow steps and,
// once the step named by KILL_AFTER_NODE has committed, kills itself before its job can complete.
// Environment: DATABASE_URL or WELLREST_DATA_DIR, WELLREST_SECRET, STEP_EXPIRE_SECONDS, KILL_AFTER_NODE.

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.WELLREST_DATA_DIR,
  poolMax: 2,
});
const app = await createApp({
  config: testConfig({ secret: process.env.WELLREST_SECRET ?? '' }),
  db,
  logger: createLogger('silent'),
  jobs: {
    ...TEST_JOB_OPTIONS,
    workflows: {
      stepExpireInSeconds: Number(process.env.STEP_EXPIRE_SECONDS ?? 2),
      afterStep: async (stepId) => {
        const step = await db.knex('workflow_run_steps').where({ id: stepId }).first('node_id');
        if (step?.node_id !== process.env.KILL_AFTER_NODE) return;
        process.stdout.write(`committed ${stepId}\n`);
        process.kill(process.pid, 'SIGKILL');
      },
    },
  },
});
await app.context.services.jobs.start();
process.stdout.write('ready\n');
