import { defineConfig } from 'vitest/config';

// Date rules must not depend on the machine's zone: the default run pins UTC, and the test script
// runs the date suites again under other zones by setting TZ.
process.env.TZ ??= 'UTC';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    env: { TZ: process.env.TZ },
  },
});
