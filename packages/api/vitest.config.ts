import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests run against core's sources, so no build is needed first.
    alias: { '@wellrest/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Fault tests restart the database server: they run alone (vitest.faults.config.ts).
    exclude: ['src/**/*.faults.test.ts', '**/node_modules/**'],
    // Each worker keeps an embedded database template in memory; two workers suit a 2-core machine.
    fileParallelism: true,
    // Workers keep that template across test files; the files share no other state.
    isolate: false,
    maxWorkers: 2,
    // Preparing a database (initdb of the embedded engine, or a template on a server) takes seconds.
    hookTimeout: 120_000,
    testTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
  },
});
