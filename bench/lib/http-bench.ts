import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, isValidStartDate, KIT_TYPES, TEST_TYPES, type TestType } from '@wellrest/core';
import type { Body, LoadResult, Scenario } from '../load-worker.js';
import type { DataSet } from './generate.js';

const run = promisify(execFile);

// HTTP under load: each endpoint first gets one probe request (a 404 means the endpoint is not
// there yet and is reported as such), then a load from a separate process running autocannon.

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body: Body;
}

export interface EndpointResult {
  name: string;
  method: string;
  path: string;
  /** Status of the single probe request sent before the load. */
  probeStatus: number;
  /** Why the endpoint was not measured, when it was not. */
  skipped?: string;
  load?: LoadResult;
  /**
   * Throughput as a share of GET /api/health's in the same run: for an endpoint measured in
   * pairs, the median of its pairs' ratios.
   */
  ceilingRatio?: number;
  /**
   * An endpoint whose throughput is judged against the ceiling, measured `pairs` times, each
   * time right after a load of GET /api/health: what each pair gave, in the order run. `load` is
   * the pair whose ratio is the median.
   */
  pairs?: CeilingPair[];
  /** POST /api/bookings only: created, refused as taken (409), anything else. */
  outcomes?: { created: number; conflicts: number; other: number };
}

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** How many times each endpoint judged against the ceiling is measured after its own health load. */
  pairs: number;
}

/** One measurement of an endpoint right after a health load. */
export interface CeilingPair {
  /** GET /api/health's req/s just before. */
  ceiling: number;
  requestsPerSecond: number;
  ratio: number;
  p99: number;
}

/**
 * Endpoints whose throughput has a target as a share of the ceiling (report.ts). On a shared
 * machine the ceiling itself moves by 10–20 % from one minute to the next, so a ratio of two
 * loads run minutes apart says as much about the machine as about the endpoint: each is measured
 * right after a health load of its own, several times, and the median pair counts.
 */
const JUDGED_AGAINST_CEILING = new Set(['daily availability', 'search']);

/** Valid start dates from tomorrow over `days` days, per test type. */
export function validStartDates(today: string, days: number): Record<TestType, string[]> {
  const dates = {} as Record<TestType, string[]>;
  for (const testType of TEST_TYPES) {
    dates[testType] = [];
    for (let d = 1; d <= days; d++) {
      const date = addDays(today, d);
      if (isValidStartDate(date, testType)) dates[testType].push(date);
    }
  }
  return dates;
}

/** Mixed search queries: full names, partial names with a typo, kit labels, emails. */
export function searchQueries(data: DataSet, count = 200): string[] {
  const queries: string[] = [];
  const step = Math.max(1, Math.floor(data.patients.length / count));
  for (let i = 0; queries.length < count; i++) {
    const patient = data.patients[(i * step) % data.patients.length];
    const kit = data.kits[(i * 7) % data.kits.length];
    if (!patient || !kit) break;
    const last = patient.name.split(' ').at(-1) ?? patient.name;
    switch (i % 4) {
      case 0:
        queries.push(patient.name);
        break;
      case 1: {
        // The first letters of the surname with two letters swapped: a typing slip.
        const partial = last.slice(0, Math.min(6, last.length));
        queries.push(
          partial.length > 3 ? `${partial[0]}${partial[2]}${partial[1]}${partial.slice(3)}` : partial,
        );
        break;
      }
      case 2:
        queries.push(kit.kitId);
        break;
      default:
        queries.push(i % 8 === 3 ? patient.email : (patient.email.split('@')[0] ?? patient.email));
    }
  }
  return queries;
}

export function endpointsFor(data: DataSet): Endpoint[] {
  return [
    { name: 'health (ceiling)', method: 'GET', path: '/api/health', body: { kind: 'none' } },
    {
      name: 'daily availability',
      method: 'GET',
      path: '/api/dashboard/daily-availability',
      body: { kind: 'none' },
    },
    {
      name: 'search',
      method: 'POST',
      path: '/api/search',
      body: { kind: 'search', queries: searchQueries(data), limit: 10 },
    },
    {
      name: 'bookings page',
      method: 'GET',
      path: '/api/bookings?page=1&pageSize=50',
      body: { kind: 'none' },
    },
    {
      name: 'create booking',
      method: 'POST',
      path: '/api/bookings',
      body: {
        kind: 'booking',
        patients: data.patients.length,
        kitTypes: [...KIT_TYPES],
        testTypes: [...TEST_TYPES],
        startDates: validStartDates(data.today, 120),
      },
    },
  ];
}

async function probe(url: string, endpoint: Endpoint, cookie: string): Promise<number> {
  const headers: Record<string, string> = { cookie };
  let body: string | undefined;
  if (endpoint.body.kind === 'search') body = JSON.stringify({ query: endpoint.body.queries[0], limit: 10 });
  if (endpoint.body.kind === 'booking') {
    const testType = '2-day';
    body = JSON.stringify({
      patientId: 1,
      testType,
      kitType: KIT_TYPES[0],
      startDate: endpoint.body.startDates[testType]?.at(-1),
    });
  }
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${endpoint.path}`, { method: endpoint.method, headers, body });
  await response.arrayBuffer();
  return response.status;
}

export async function loadFromWorker(root: string, scenario: Scenario): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-load-'));
  try {
    const file = path.join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench/load-worker.ts'), file],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    );
    const line = stdout.trim().split('\n').at(-1) ?? '';
    return JSON.parse(line) as LoadResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runHttpBench(
  root: string,
  url: string,
  cookie: string,
  endpoints: Endpoint[],
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<EndpointResult[]> {
  const results: EndpointResult[] = [];
  for (const endpoint of endpoints) {
    const result: EndpointResult = {
      name: endpoint.name,
      method: endpoint.method,
      path: endpoint.path,
      probeStatus: await probe(url, endpoint, cookie),
    };
    results.push(result);
    if (result.probeStatus === 404 || result.probeStatus === 405) {
      result.skipped = `endpoint missing (probe answered ${result.probeStatus})`;
      log(`  ${endpoint.method} ${endpoint.path}: ${result.skipped}`);
      continue;
    }
    if (result.probeStatus === 401 || result.probeStatus === 403) {
      result.skipped = `probe answered ${result.probeStatus}: not allowed for the bench's admin`;
      log(`  ${endpoint.method} ${endpoint.path}: ${result.skipped}`);
      continue;
    }
    log(`  ${endpoint.method} ${endpoint.path}: probe ${result.probeStatus}, loading...`);
    const loadOf = (measured: Endpoint) =>
      loadFromWorker(root, {
        url,
        method: measured.method,
        path: measured.path,
        cookie,
        body: measured.body,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
      });
    const ceiling = endpoints[0];
    if (ceiling && ceiling !== endpoint && JUDGED_AGAINST_CEILING.has(endpoint.name) && settings.pairs > 1) {
      const runs: { pair: CeilingPair; load: LoadResult }[] = [];
      for (let i = 0; i < settings.pairs; i++) {
        const health = await loadOf(ceiling);
        const load = await loadOf(endpoint);
        const ratio = health.requestsPerSecond > 0 ? load.requestsPerSecond / health.requestsPerSecond : 0;
        runs.push({
          pair: {
            ceiling: health.requestsPerSecond,
            requestsPerSecond: load.requestsPerSecond,
            ratio: Number(ratio.toFixed(3)),
            p99: load.p99,
          },
          load,
        });
      }
      result.pairs = runs.map((run) => run.pair);
      const median = [...runs].sort((a, b) => a.pair.ratio - b.pair.ratio)[Math.floor(runs.length / 2)];
      if (median) {
        result.load = median.load;
        result.ceilingRatio = median.pair.ratio;
      }
      continue;
    }
    result.load = await loadOf(endpoint);
    if (endpoint.body.kind === 'booking') {
      let created = 0;
      let conflicts = 0;
      let other = 0;
      for (const [code, count] of Object.entries(result.load.statusCounts)) {
        if (code.startsWith('2')) created += count;
        else if (code === '409') conflicts += count;
        else other += count;
      }
      result.outcomes = { created, conflicts, other };
    }
  }
  const ceiling = results[0]?.load?.requestsPerSecond;
  if (ceiling) {
    for (const result of results) {
      if (result.load && !result.pairs)
        result.ceilingRatio = Number((result.load.requestsPerSecond / ceiling).toFixed(3));
    }
  }
  return results;
}
