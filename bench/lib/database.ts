import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOLDING_STATUSES } from '@wellrest/core';
import type { Knex } from 'knex';
import { createPglite, knexForPglite, openDatabase } from '../../packages/api/dist/db/connect.js';
import { migrate } from '../../packages/api/dist/db/migrate.js';
import type { DataSet } from './generate.js';

// The bench database: a new database on the PostgreSQL server of DATABASE_URL, or an embedded
// PGlite database in a temporary directory. Rows go in through multi-row INSERT ... SELECT FROM
// unnest(array literals), a few thousand rows per statement.

export interface BenchDatabase {
  engine: 'postgres' | 'pglite';
  /** What the API server needs in its environment to open the same database. */
  serverEnv: Record<string, string>;
  /** A human-readable place, for the report (no credentials). */
  where: string;
  /** Opens a connection (the embedded database allows one process at a time). */
  open(): Promise<{ knex: Knex; close(): Promise<void> }>;
  /** Drops the database (or deletes the directory) unless asked to keep it. */
  dispose(keep: boolean): Promise<void>;
}

function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function withoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = '';
  return url.toString();
}

async function onServer<T>(baseUrl: string, work: (knex: Knex) => Promise<T>): Promise<T> {
  const admin = await openDatabase({ databaseUrl: baseUrl, poolMax: 1 });
  try {
    return await work(admin.knex);
  } finally {
    await admin.close();
  }
}

/** Creates and migrates a fresh bench database. */
export async function createBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  if (databaseUrl) {
    const name = `wellrest_bench_${new Date()
      .toISOString()
      .replace(/[-:T.Z]/g, '')
      .slice(0, 14)}`;
    await onServer(databaseUrl, (knex) => knex.raw(`CREATE DATABASE "${name}"`));
    const url = databaseUrlFor(databaseUrl, name);
    const open = async () => {
      const db = await openDatabase({ databaseUrl: url, poolMax: 4 });
      return { knex: db.knex, close: () => db.close() };
    };
    const db = await open();
    try {
      await migrate(db.knex);
    } finally {
      await db.close();
    }
    return {
      engine: 'postgres',
      serverEnv: { DATABASE_URL: url },
      where: withoutPassword(url),
      open,
      dispose: async (keep) => {
        if (keep) return;
        await onServer(databaseUrl, (knex) => knex.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      },
    };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wellrest-bench-'));
  const open = async () => {
    const pglite = createPglite({ dataDir });
    await pglite.waitReady;
    const knex = knexForPglite(pglite);
    return {
      knex,
      close: async () => {
        await knex.destroy();
        if (!pglite.closed) await pglite.close();
      },
    };
  };
  const db = await open();
  try {
    await migrate(db.knex);
  } finally {
    await db.close();
  }
  return {
    engine: 'pglite',
    serverEnv: { WELLREST_DATA_DIR: dataDir },
    where: dataDir,
    open,
    dispose: async (keep) => {
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A PostgreSQL array literal of text values ('{"a","b"}'), NULL for null. */
function textArray(values: readonly (string | null | undefined)[]): string {
  const items = values.map((v) =>
    v == null ? 'NULL' : `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  );
  return `{${items.join(',')}}`;
}

function intArray(values: readonly (number | null | undefined)[]): string {
  return `{${values.map((v) => (v == null ? 'NULL' : String(v))).join(',')}}`;
}

interface Column<T> {
  name: string;
  type: 'int' | 'text' | 'date';
  value: (row: T) => string | number | null | undefined;
}

async function insertRows<T>(
  knex: Knex,
  table: string,
  columns: Column<T>[],
  rows: readonly T[],
  batchSize = 10_000,
): Promise<void> {
  const names = columns.map((c) => c.name).join(', ');
  const unnest = columns.map((c) => `?::${c.type}[]`).join(', ');
  const sql = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${unnest})`;
  for (let offset = 0; offset < rows.length; offset += batchSize) {
    const batch = rows.slice(offset, offset + batchSize);
    const bindings = columns.map((c) =>
      c.type === 'int'
        ? intArray(batch.map((row) => c.value(row) as number | null))
        : textArray(batch.map((row) => c.value(row) as string | null)),
    );
    await knex.raw(sql, bindings);
  }
  // Rows carry explicit ids: move the sequence past them so the API's inserts get new ones.
  await knex.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
}

/** Writes the data set; returns milliseconds per table. */
export async function writeDataSet(knex: Knex, data: DataSet): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const timed = async (table: string, work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    timings[table] = Math.round(performance.now() - started);
  };
  await timed('patients', () =>
    insertRows(
      knex,
      'patients',
      [
        { name: 'id', type: 'int', value: (p) => p.id },
        { name: 'name', type: 'text', value: (p) => p.name },
        { name: 'email', type: 'text', value: (p) => p.email },
        { name: 'phone', type: 'text', value: (p) => p.phone },
        { name: 'lead_source', type: 'text', value: (p) => p.leadSource },
      ],
      data.patients,
    ),
  );
  await timed('kits', () =>
    insertRows(
      knex,
      'kits',
      [
        { name: 'id', type: 'int', value: (k) => k.id },
        { name: 'kit_id', type: 'text', value: (k) => k.kitId },
        { name: 'type', type: 'text', value: (k) => k.type },
        { name: 'status', type: 'text', value: (k) => k.status },
        { name: 'serial_number', type: 'text', value: (k) => k.serialNumber },
      ],
      data.kits,
    ),
  );
  await timed('bookings', () =>
    insertRows(
      knex,
      'bookings',
      [
        { name: 'id', type: 'int', value: (b) => b.id },
        { name: 'patient_id', type: 'int', value: (b) => b.patientId },
        { name: 'kit_id', type: 'int', value: (b) => b.kitId },
        { name: 'test_type', type: 'text', value: (b) => b.testType },
        { name: 'kit_type', type: 'text', value: (b) => b.kitType },
        { name: 'status', type: 'text', value: (b) => b.status },
        { name: 'start_date', type: 'date', value: (b) => b.startDate },
        { name: 'end_date', type: 'date', value: (b) => b.endDate },
        { name: 'return_date', type: 'date', value: (b) => b.returnDate },
      ],
      data.bookings,
    ),
  );
  // VACUUM as well: a freshly bulk-loaded table has no visibility map yet, so index-only scans
  // (the search index's lookups) would read the heap; autovacuum would soon do the same.
  await timed('analyze', async () => {
    await knex.raw('VACUUM ANALYZE');
  });
  return timings;
}

const holdingList = HOLDING_STATUSES.map((s) => `'${s}'`).join(', ');

/** Pairs of kit-holding bookings that hold one kit on overlapping dates (must be zero). */
export async function countOverlappingHolds(knex: Knex): Promise<number> {
  const result = await knex.raw(`
    SELECT count(*)::int AS overlaps
    FROM bookings a
    JOIN bookings b
      ON a.kit_id = b.kit_id
     AND a.id < b.id
     AND daterange(a.start_date, a.end_date + 2, '[)') && daterange(b.start_date, b.end_date + 2, '[)')
    WHERE a.status IN (${holdingList}) AND b.status IN (${holdingList})
  `);
  const rows = (result as { rows: { overlaps: number }[] }).rows;
  return rows[0]?.overlaps ?? -1;
}
