import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:faults`: the fault tests (a killed process, a restarted database), one at a time,
// with nothing else running beside them.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['src/**/*.faults.test.ts'],
    exclude: ['**/node_modules/**'],
    fileParallelism: false,
    maxWorkers: 1,
  },
});
