import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeAuditCursor } from '@wellrest/core';
import { insertUser } from '../packages/api/dist/modules/users/store.js';
import { AUDIT_BENCH_PATIENTS, writeAuditEvents } from './lib/audit-events.js';
import { createBenchDatabase } from './lib/database.js';
import { loadFromWorker } from './lib/http-bench.js';
import { signIn, startApiServer } from './lib/server.js';

// npm run bench:audit [-- --events 1000000] [-- --duration 10] [-- --keep] [-- --no-build]
// The audit log screen at scale: a million events, then its first page, filtered pages and a page
// deep in the history under load (10 connections), one CSV export and one chain verification.
// Target: p99 < 100 ms for every page.

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    build: { type: 'boolean', default: true },
  },
  allowNegative: true,
  strict: true,
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const TARGET_P99_MS = 100;

if (values.build) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(1);
}

const events = Number(values.events);
const db = await createBenchDatabase(process.env.DATABASE_URL);
log(`bench database: ${db.engine} (${db.where})`);
const password = `bench-${randomUUID()}`;
const loadBefore = os.loadavg()[0] ?? 0;
try {
  const connection = await db.open();
  let writeMs: number;
  let deepCursor: string;
  let dayAgo400: string;
  try {
    log(`writing ${events.toLocaleString('en-US')} audit events...`);
    writeMs = await writeAuditEvents(connection.knex, events);
    log(`written in ${(writeMs / 1000).toFixed(1)} s`);
    await insertUser(connection.knex, {
      username: 'bench-admin',
      email: 'bench-admin@example.test',
      role: 'admin',
      password,
    });
    const middle = (await connection.knex.raw(
      'SELECT id, audit_time_micros(occurred_at) AS at FROM audit_events ORDER BY occurred_at DESC, id DESC OFFSET ? LIMIT 1',
      [Math.floor(events / 2)],
    )) as { rows: { id: string; at: string }[] };
    const row = middle.rows[0];
    deepCursor = row ? encodeAuditCursor({ atMicros: Number(row.at), id: Number(row.id) }) : '';
    dayAgo400 = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
  } finally {
    await connection.close();
  }

  const next = new Date(Date.parse(`${dayAgo400}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const scenarios: { name: string; path: string }[] = [
    { name: 'GET /api/health (ceiling, no audit write)', path: '/api/health' },
    { name: 'first page', path: '/api/admin/audit-logs?pageSize=50' },
    {
      name: 'page half-way through the history (cursor)',
      path: `/api/admin/audit-logs?pageSize=50&cursor=${deepCursor}`,
    },
    { name: 'one action (patient.update)', path: '/api/admin/audit-logs?pageSize=50&action=patient.update' },
    { name: 'one user', path: '/api/admin/audit-logs?pageSize=50&actorUsername=user7' },
    {
      name: "one patient's accesses",
      path: `/api/admin/audit-logs?pageSize=50&patientId=${AUDIT_BENCH_PATIENTS / 2 + 21}`,
    },
    { name: 'refused attempts', path: '/api/admin/audit-logs?pageSize=50&outcome=denied' },
    { name: 'one day, 400 days ago', path: `/api/admin/audit-logs?pageSize=50&from=${dayAgo400}&to=${next}` },
    {
      name: 'user + action + date range',
      path: `/api/admin/audit-logs?pageSize=50&actorUsername=user2&action=patient.read&from=${dayAgo400}`,
    },
  ];

  const server = await startApiServer(root, db.serverEnv);
  const results: Record<string, unknown>[] = [];
  let exportMs = 0;
  let exportRows = 0;
  let verification: { ok: boolean; checked: number; durationMs: number } | undefined;
  try {
    const cookie = await signIn(server.url, 'bench-admin', password);
    for (const scenario of scenarios) {
      const probe = await fetch(`${server.url}${scenario.path}`, { headers: { cookie } });
      const body = (await probe.json()) as { items?: unknown[] };
      log(`  ${scenario.name}: probe ${probe.status}, ${body.items?.length ?? 0} rows, loading...`);
      const load = await loadFromWorker(root, {
        url: server.url,
        method: 'GET',
        path: scenario.path,
        cookie,
        body: { kind: 'none' },
        connections: 10,
        durationSeconds: Number(values.duration),
        warmupSeconds: Number(values.warmup),
      });
      results.push({ ...scenario, rows: body.items?.length ?? 0, ...load, met: load.p99 < TARGET_P99_MS });
    }
    const started = performance.now();
    const csv = await fetch(
      `${server.url}/api/admin/audit-logs/export?patientId=${AUDIT_BENCH_PATIENTS / 2 + 21}`,
      {
        headers: { cookie },
      },
    );
    exportRows = (await csv.text()).split('\r\n').length - 2;
    exportMs = Math.round(performance.now() - started);
    const check = await fetch(`${server.url}/api/admin/audit-logs/verification`, { headers: { cookie } });
    verification = (await check.json()) as typeof verification;
  } finally {
    await server.stop();
  }

  const report = [
    `Audit log at ${events.toLocaleString('en-US')} events (${db.engine}), 10 connections, ${values.duration} s each; written in ${(writeMs / 1000).toFixed(0)} s (chain included)`,
    '',
    '| page | rows | req/s | p50 | p99 | p99 < 100 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.rows} | ${Math.round(r.requestsPerSecond as number)} | ${r.p50} ms | ${r.p99} ms | ${r.met ? 'yes' : 'no'} |`,
    ),
    '',
    `CSV export of one patient's accesses: ${exportRows} rows in ${exportMs} ms.`,
    `Chain verification: ${verification?.ok ? 'intact' : 'BROKEN'}, ${verification?.checked} links in ${verification?.durationMs} ms.`,
  ].join('\n');
  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, 'audit-latest.json'),
    `${JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        events,
        engine: db.engine,
        writeMs,
        loadAverage: { before: loadBefore, after: os.loadavg()[0] },
        pages: results,
        export: { rows: exportRows, ms: exportMs },
        verification,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`${report}\n`);
} finally {
  await db.dispose(values.keep);
}
process.exit(0);
