import type { JobRuntimeOptions } from '../jobs/runtime.js';

/** Queue timings short enough for tests: workers poll twice a second, retries wait a second. */
export const TEST_JOB_OPTIONS: JobRuntimeOptions = {
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
  outboxIntervalMs: 200,
  deliveryRetryDelay: 1,
  poolMax: 2,
};
