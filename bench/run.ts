import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// npm run bench [-- --quick] [-- --scale N] [-- --keep] [-- --no-build] [-- --no-lighthouse] [-- --duration 10] [-- --pairs 3]
// Builds what is stale, then runs the bench (bench.ts), which needs the built API.

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'string' },
    keep: { type: 'boolean', default: false },
    build: { type: 'boolean', default: true },
    lighthouse: { type: 'boolean', default: true },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    pairs: { type: 'string' },
  },
  allowNegative: true,
  strict: true,
});

if (values.build) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    if (!existsSync(path.join(root, 'packages/api/dist/server.js'))) {
      process.stderr.write('The build failed and there is no built API to measure.\n');
      process.exit(1);
    }
    process.stderr.write('The build failed: measuring the existing build output.\n');
  }
}

const { runBench } = await import('./bench.js');
const seconds = (value: string | undefined) => (value === undefined ? undefined : Number(value));
// Missed targets are reported, not failed on: the bench is a measurement, not a gate.
await runBench(root, {
  quick: values.quick,
  scale: seconds(values.scale),
  keep: values.keep,
  lighthouse: values.lighthouse,
  durationSeconds: seconds(values.duration),
  warmupSeconds: seconds(values.warmup),
  pairs: values.pairs === undefined ? undefined : Number(values.pairs),
});
process.exit(0);
