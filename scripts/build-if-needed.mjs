// Builds each workspace package whose output is missing or older than its sources,
// in dependency order, so `npm start` and the browser tests work on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = [
  { name: '@wellrest/core', dir: 'packages/core', output: 'dist/index.js' },
  { name: '@wellrest/api', dir: 'packages/api', output: 'dist/server.js' },
  { name: '@wellrest/widgets', dir: 'packages/widgets', output: 'dist/wellrest-widgets.js' },
  { name: '@wellrest/console', dir: 'packages/console', output: 'dist/index.html' },
];
const inputs = ['src', 'public', 'index.html', 'package.json', 'tsconfig.json', 'vite.config.ts'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

let upstreamRebuilt = false;
for (const pkg of packages) {
  const dir = join(root, pkg.dir);
  const output = join(dir, pkg.output);
  const sourceTime = Math.max(...inputs.map((input) => newestMtime(join(dir, input))));
  const stale = !existsSync(output) || statSync(output).mtimeMs < sourceTime;
  // The API and the browser bundles compile core in, so a rebuilt core rebuilds them too.
  if (!stale && !upstreamRebuilt) continue;
  console.log(`Building ${pkg.name}...`);
  const result = spawnSync('npm', ['run', 'build', '-w', pkg.name], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Building ${pkg.name} failed.`);
    process.exit(result.status ?? 1);
  }
  if (pkg.name === '@wellrest/core') upstreamRebuilt = true;
}
