// Runs the browser tests: builds what is stale, then runs Playwright. With E2E_SHARDS=N (CI sets
// 2), the suite is split into N shards run side by side, each with its own server, database and
// ports (E2E_PORT 3100, 3200, ...), and the run fails if any shard fails. Arguments (a spec file,
// -g "title") run one Playwright process as given.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = spawnSync(process.execPath, [join(root, 'scripts/build-if-needed.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const args = process.argv.slice(2);
const shards = args.length > 0 ? 1 : Math.max(1, Number(process.env.E2E_SHARDS ?? 1) || 1);
const basePort = Number(process.env.E2E_PORT ?? 3100);
const playwright = join(root, 'node_modules/@playwright/test/cli.js');

function run(shard) {
  const env = { ...process.env };
  const extra = [];
  if (shards > 1) {
    env.E2E_PORT = String(basePort + (shard - 1) * 100);
    env.E2E_OUTPUT_DIR = `test-results/shard-${shard}`;
    env.E2E_REPORT_DIR = `playwright-report/shard-${shard}`;
    extra.push(`--shard=${shard}/${shards}`);
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [playwright, 'test', ...extra, ...args], {
      cwd: root,
      env,
      stdio: shards > 1 ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (shards > 1) {
      // Each line says which shard wrote it.
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) out.write(`[${shard}/${shards}] ${line}\n`);
        });
        stream.on('end', () => rest && out.write(`[${shard}/${shards}] ${rest}\n`));
      }
    }
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => run(i + 1)));
if (shards > 1) console.log(`shards finished with exit codes ${codes.join(', ')}`);
process.exit(Math.max(...codes));
