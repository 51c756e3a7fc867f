import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PRACTICE_TIME_ZONE, todayInTimeZone } from '@wellrest/core';
import { insertUser } from '../packages/api/dist/modules/users/store.js';
import { measureBundles } from './lib/bundles.js';
import { contentionFixture, runContention } from './lib/contention.js';
import { runCoreBench } from './lib/core-bench.js';
import { countOverlappingHolds, createBenchDatabase, writeDataSet } from './lib/database.js';
import { FULL_SCALE, generateDataSet, type Scale, statusMix } from './lib/generate.js';
import { endpointsFor, runHttpBench, searchQueries } from './lib/http-bench.js';
import { type LighthouseResult, lighthouse } from './lib/lighthouse.js';
import { evaluateTargets, markdownReport } from './lib/report.js';
import { labelledMisspellings, measureSearchQuality, type SearchQuality } from './lib/search-quality.js';
import { type ApiServer, acknowledgePrivacy, signIn, startApiServer } from './lib/server.js';

export interface BenchOptions {
  /** 1/20 of the full data set and shorter loads: the whole run in under two minutes. */
  quick: boolean;
  /** Multiplies the full data set (patients, kits, bookings): `--scale 10` is 1,000,000 patients. */
  scale?: number | undefined;
  /** Keep the bench database instead of dropping it. */
  keep: boolean;
  lighthouse: boolean;
  durationSeconds?: number | undefined;
  warmupSeconds?: number | undefined;
  /** Health-then-endpoint pairs per endpoint judged against the ceiling (http-bench.ts). */
  pairs?: number | undefined;
}

const QUICK_DIVISOR = 20;
const ADMIN_USERNAME = 'bench-admin';

/** The API process's first search after it started, and its resident memory around it. */
export interface ColdSearch {
  query: string;
  firstSearchMs: number;
  status: number;
  residentAtStartMb: number | null;
  residentAfterFirstSearchMb: number | null;
  residentAfterLoadMb?: number | null;
}

async function firstSearch(server: ApiServer, cookie: string, query: string): Promise<ColdSearch> {
  const residentAtStartMb = server.residentMb();
  const started = performance.now();
  const response = await fetch(`${server.url}/api/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, limit: 10 }),
  });
  await response.arrayBuffer();
  const firstSearchMs = Math.round((performance.now() - started) * 10) / 10;
  return {
    query,
    firstSearchMs,
    status: response.status,
    residentAtStartMb,
    residentAfterFirstSearchMb: server.residentMb(),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function timed<T>(label: string, work: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  log(`${label}...`);
  const started = performance.now();
  const value = await work();
  const ms = Math.round(performance.now() - started);
  log(`${label}: ${(ms / 1000).toFixed(1)} s`);
  return { value, ms };
}

export async function runBench(root: string, options: BenchOptions): Promise<void> {
  const factor = options.quick ? 1 / QUICK_DIVISOR : (options.scale ?? 1);
  const mode = options.quick ? 'quick' : factor === 1 ? 'full' : `scale ${factor}`;
  const scale: Scale = {
    patients: Math.round(FULL_SCALE.patients * factor),
    kits: Math.round(FULL_SCALE.kits * factor),
    bookings: Math.round(FULL_SCALE.bookings * factor),
  };
  const load = {
    connections: 10,
    durationSeconds: options.durationSeconds ?? (options.quick ? 3 : 10),
    warmupSeconds: options.warmupSeconds ?? (options.quick ? 1 : 3),
    pairs: options.pairs ?? (options.quick ? 1 : 3),
  };
  const timeZone = process.env.PRACTICE_TIME_ZONE ?? DEFAULT_PRACTICE_TIME_ZONE;
  const today = todayInTimeZone(timeZone);

  const loadBefore = os.loadavg()[0] ?? 0;
  const generated = await timed('generating the data set', () => generateDataSet(scale, today));
  const data = generated.value;
  const fixture = contentionFixture(data);

  const db = await createBenchDatabase(process.env.DATABASE_URL);
  log(`bench database: ${db.engine} (${db.where})`);
  const password = `bench-${randomUUID()}`;
  try {
    const written = await timed('writing it to the database', async () => {
      const connection = await db.open();
      try {
        const tables = await writeDataSet(connection.knex, {
          ...data,
          bookings: [...data.bookings, ...fixture.blockers],
        });
        await insertUser(connection.knex, {
          username: ADMIN_USERNAME,
          email: 'bench-admin@example.test',
          role: 'admin',
          password,
        });
        return tables;
      } finally {
        await connection.close();
      }
    });

    const core = (await timed('core availability vs naive reference', () => runCoreBench(data))).value;

    const server = await startApiServer(root, db.serverEnv);
    let http: Awaited<ReturnType<typeof runHttpBench>> | undefined;
    let contention: Awaited<ReturnType<typeof runContention>> | undefined;
    let coldSearch: ColdSearch | undefined;
    let searchQuality: SearchQuality | undefined;
    const pages: LighthouseResult[] = [];
    try {
      const cookie = await signIn(server.url, ADMIN_USERNAME, password);
      coldSearch = await timed('first search after start', () =>
        firstSearch(server, cookie, searchQueries(data)[0] ?? 'Smith'),
      ).then((r) => r.value);
      http = (
        await timed('HTTP under load', () =>
          runHttpBench(root, server.url, cookie, endpointsFor(data), load, log),
        )
      ).value;
      if (coldSearch) coldSearch.residentAfterLoadMb = server.residentMb();
      searchQuality = (
        await timed('search recall and precision on misspellings', () =>
          measureSearchQuality(server.url, cookie, labelledMisspellings(data)),
        )
      ).value;
      contention = (
        await timed('contention', () => runContention(server.url, cookie, fixture, data.patients.length))
      ).value;
      if (options.lighthouse) {
        await timed('Lighthouse', async () => {
          pages.push(await lighthouse(root, server.url, { name: '/login', path: '/login' }));
          // A returning user's dashboard: the one-time privacy dialog acknowledged beforehand.
          await acknowledgePrivacy(server.url, cookie);
          pages.push(
            await lighthouse(root, server.url, {
              name: 'dashboard',
              path: '/',
              cookie,
              note: 'signed in by cookie; privacy notice acknowledged',
            }),
          );
        });
      }
    } finally {
      const tail = server.stderrTail().trim();
      await server.stop();
      if (tail)
        log(`API server warnings and errors (last lines):\n${tail.split('\n').slice(-10).join('\n')}`);
    }

    if (contention) {
      const check = await db.open();
      try {
        contention.overlappingHolds = await countOverlappingHolds(check.knex);
      } finally {
        await check.close();
      }
    }

    const bundles = measureBundles(root);
    const lighthouseResults = options.lighthouse ? pages : undefined;
    const targets = evaluateTargets({
      core,
      http,
      contention,
      bundles,
      lighthouse: lighthouseResults,
      patients: data.patients.length,
      ...(coldSearch ? { coldSearch } : {}),
    });
    const results = {
      mode,
      measuredAt: new Date().toISOString(),
      today,
      node: process.version,
      machine: {
        cpus: os.cpus().length,
        // Other work on the machine skews the figures: the 1-minute load average before and after.
        loadAverage: {
          before: Number(loadBefore.toFixed(2)),
          after: Number((os.loadavg()[0] ?? 0).toFixed(2)),
        },
      },
      scale,
      statusMix: statusMix(data.bookings),
      database: {
        engine: db.engine,
        generationMs: generated.ms + written.ms,
        tables: { generate: generated.ms, ...written.value },
      },
      core,
      load,
      http,
      coldSearch,
      searchQuality,
      contention,
      bundles,
      lighthouse: lighthouseResults,
      targets,
    };
    const resultsDir = path.join(root, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${markdownReport(results)}\n`);
    log(`results written to bench/results/latest.json`);
  } finally {
    await db.dispose(options.keep);
    if (options.keep) log(`kept the bench database: ${db.where}`);
  }
}
