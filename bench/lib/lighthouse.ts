import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { freePort } from './server.js';

const run = promisify(execFile);

export const CHROMIUM = '/usr/bin/chromium';

export interface LighthouseResult {
  name: string;
  path: string;
  /** The median run's score (of `runs` runs that completed). */
  score?: number;
  /** Every completed run's score, in the order run: how far the figure moves between runs. */
  scores?: number[];
  metrics?: Record<string, number>;
  note?: string;
  error?: string;
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;

interface Report {
  finalDisplayedUrl?: string;
  categories: { performance?: { score: number | null } };
  audits: Record<string, { numericValue?: number }>;
  runtimeError?: { message: string };
}

/** Runs per page: one Lighthouse run moves by several points with the machine's load; the median holds. */
const RUNS = 3;
/** Extra attempts for runs that fail outright (Chromium's trace is sometimes lost: NO_NAVSTART). */
const RETRIES = 2;

/**
 * Lighthouse's performance category (default mobile settings) with the system Chromium, as the
 * median of {@link RUNS} runs (Lighthouse's own advice for a figure that varies between runs).
 */
export async function lighthouse(
  root: string,
  url: string,
  page: { name: string; path: string; cookie?: string; note?: string },
): Promise<LighthouseResult> {
  const completed: LighthouseResult[] = [];
  let failure: LighthouseResult | undefined;
  for (let attempt = 0; completed.length < RUNS && attempt < RUNS + RETRIES; attempt += 1) {
    const run = await lighthouseOnce(root, url, page);
    if (run.error === undefined && run.score !== undefined) completed.push(run);
    else failure = run;
  }
  if (completed.length === 0)
    return failure ?? { name: page.name, path: page.path, error: 'no run completed' };
  const byScore = [...completed].sort((a, b) => (a.score ?? 0) - (b.score ?? 0));
  const median = byScore[Math.floor((byScore.length - 1) / 2)] as LighthouseResult;
  return { ...median, scores: completed.map((run) => run.score ?? 0) };
}

/** The CPU time counters of the whole machine (Linux `/proc/stat`): busy and total, in ticks. */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Below this share of the machine busy, a Lighthouse run starts. */
const QUIET_SHARE = 0.15;
/** At most this long is waited for quiet before a run starts anyway. */
const QUIET_WAIT_MS = 60_000;

/**
 * Waits until the machine is quiet: Lighthouse simulates a slow phone by multiplying the length
 * of the tasks it observes, so CPU still taken by what ran before (the servers settling after the
 * loads, anything else running) would be counted as the page's own blocking time.
 */
async function quietMachine(): Promise<void> {
  const deadline = Date.now() + QUIET_WAIT_MS;
  for (;;) {
    const before = cpuTicks();
    await sleep(1000);
    const after = cpuTicks();
    if (!before || !after || after.total === before.total) return;
    if ((after.busy - before.busy) / (after.total - before.total) < QUIET_SHARE || Date.now() > deadline)
      return;
  }
}

async function lighthouseOnce(
  root: string,
  url: string,
  page: { name: string; path: string; cookie?: string; note?: string },
): Promise<LighthouseResult> {
  const result: LighthouseResult = { name: page.name, path: page.path };
  if (page.note) result.note = page.note;
  await quietMachine();
  if (!existsSync(CHROMIUM)) return { ...result, error: `${CHROMIUM} not found` };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-lighthouse-'));
  const output = path.join(dir, 'report.json');
  const args = [
    `${url}${page.path}`,
    '--only-categories=performance',
    '--output=json',
    `--output-path=${output}`,
    '--quiet',
  ];
  // A signed-in page gets the session cookie in the browser's own cookie jar, not as an extra
  // Cookie header: once the console writes a cookie of its own (the theme), the browser sends
  // its jar instead of the header, and every later call of the page would be signed out.
  const browser = page.cookie ? await browserWithCookie(dir, url, page.cookie) : null;
  if (browser) args.push(`--port=${browser.port}`, '--disable-storage-reset');
  else args.push('--chrome-flags=--headless=new --no-sandbox --disable-gpu');
  try {
    await run(path.join(root, 'node_modules/.bin/lighthouse'), args, {
      cwd: root,
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    if (report.runtimeError) result.error = report.runtimeError.message;
    const score = report.categories.performance?.score;
    if (typeof score === 'number') result.score = Math.round(score * 100);
    result.metrics = {};
    for (const id of METRICS) {
      const value = report.audits[id]?.numericValue;
      if (typeof value === 'number')
        result.metrics[id] = Number(value.toFixed(id.includes('layout') ? 3 : 0));
    }
    if (report.finalDisplayedUrl && !report.finalDisplayedUrl.endsWith(page.path)) {
      result.note = [result.note, `ended on ${new URL(report.finalDisplayedUrl).pathname}`]
        .filter(Boolean)
        .join('; ');
    }
  } catch (error) {
    // The command line carries the session cookie: report Lighthouse's own error lines only.
    const { stderr, killed } = error as { stderr?: string; killed?: boolean };
    const lines = (stderr ?? '').split('\n').filter((line) => /error|fail|timed? ?out/i.test(line));
    const cause = killed ? 'timed out' : (lines.at(-1)?.replace(/^.*?(LH:\S+\s*)/, '') ?? 'failed');
    result.error = `Lighthouse failed: ${cause}`.slice(0, 300);
  } finally {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/**
 * The system Chromium, headless, with `cookie` (`name=value`) set for `url` in its default
 * profile and a DevTools port Lighthouse connects to.
 */
async function browserWithCookie(
  dir: string,
  url: string,
  cookie: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freePort();
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu'],
  });
  const separator = cookie.indexOf('=');
  await context.addCookies([
    { name: cookie.slice(0, separator), value: cookie.slice(separator + 1).split(';')[0] ?? '', url },
  ]);
  return { port, close: () => context.close() };
}
