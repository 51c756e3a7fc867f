import type { BundleResult } from './bundles.js';
import type { ContentionResult } from './contention.js';
import type { CoreResult } from './core-bench.js';
import type { EndpointResult } from './http-bench.js';
import type { LighthouseResult } from './lighthouse.js';
import type { SearchQuality } from './search-quality.js';

// The targets of the performance issue, each judged from the measurements, and the Markdown
// report printed at the end of a run.

export type Comparison = '<' | '<=' | '>=' | '=';

export interface Target {
  name: string;
  /** null when it could not be measured in this run (then it is not met). */
  value: number | null;
  unit: string;
  comparison: Comparison;
  target: number;
  met: boolean;
  note?: string;
}

function judge(value: number, comparison: Comparison, target: number): boolean {
  switch (comparison) {
    case '<':
      return value < target;
    case '<=':
      return value <= target;
    case '>=':
      return value >= target;
    case '=':
      return value === target;
  }
}

function target(
  name: string,
  value: number | null | undefined,
  unit: string,
  comparison: Comparison,
  limit: number,
  note?: string,
): Target {
  const measured = value ?? null;
  const result: Target = {
    name,
    value: measured,
    unit,
    comparison,
    target: limit,
    met: measured !== null && judge(measured, comparison, limit),
  };
  if (note) result.note = note;
  return result;
}

const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));

/** Share of answers that were not 2xx, when the load ran. */
function failureNote(endpoint: EndpointResult | undefined): string | undefined {
  if (!endpoint) return 'not run';
  if (endpoint.skipped) return endpoint.skipped;
  if (endpoint.load?.total === 0) return 'no request completed within the measured run';
  const counts = endpoint.load?.statusCounts ?? {};
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const failed = Object.entries(counts)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return failed > 0 ? `${failed} of ${all} answers were not 2xx (${JSON.stringify(counts)})` : undefined;
}

/** A latency measured on failing answers says nothing: such a target is not met. */
function healthy(endpoint: EndpointResult | undefined): boolean {
  return endpoint?.load !== undefined && failureNote(endpoint) === undefined;
}

/** Patients in the full data set: `--scale N` has N times as many. */
const FULL_SCALE_PATIENTS = 100_000;

export function evaluateTargets(input: {
  core?: CoreResult;
  http?: EndpointResult[];
  contention?: ContentionResult;
  bundles?: BundleResult;
  lighthouse?: LighthouseResult[];
  /** Patients in the data set: the search target is looser from ten times the full scale. */
  patients?: number;
  coldSearch?: { firstSearchMs: number; residentAfterLoadMb?: number | null };
}): Target[] {
  const targets: Target[] = [];
  const endpoint = (name: string) => input.http?.find((e) => e.name === name);
  const daily = endpoint('daily availability');
  const search = endpoint('search');
  const create = endpoint('create booking');
  const tenfold = (input.patients ?? 0) >= 10 * FULL_SCALE_PATIENTS;

  targets.push(
    target(
      'daily availability p99',
      healthy(daily) ? daily?.load?.p99 : null,
      'ms',
      '<',
      50,
      failureNote(daily),
    ),
    target(
      'search p99',
      healthy(search) ? search?.load?.p99 : null,
      'ms',
      '<',
      tenfold ? 50 : 30,
      failureNote(search),
    ),
    target(
      'search throughput / health throughput',
      healthy(search) ? search?.ceilingRatio : null,
      'ratio',
      '>=',
      0.25,
      failureNote(search),
    ),
    target(
      'first search after the API started',
      input.coldSearch?.firstSearchMs,
      'ms',
      '<',
      1000,
      input.coldSearch ? undefined : 'not run',
    ),
    target(
      'API resident memory after the loads',
      input.coldSearch?.residentAfterLoadMb,
      'MB',
      '<',
      300,
      input.coldSearch ? undefined : 'not run',
    ),
    // Refusals (409, no free kit) are answers of the booking rules, not failures.
    target(
      'POST /api/bookings p99',
      create?.load && (create.outcomes?.other ?? 0) === 0 ? create.load.p99 : null,
      'ms',
      '<',
      75,
      create?.load
        ? create.outcomes?.other
          ? `${create.outcomes.other} answers neither 201 nor 409`
          : undefined
        : 'not run',
    ),
    target(
      'daily availability throughput / health throughput',
      healthy(daily) ? daily?.ceilingRatio : null,
      'ratio',
      '>=',
      0.3,
      failureNote(daily),
    ),
    target(
      'core dailyAvailability speed-up over naive',
      input.core?.daily.speedup,
      'x',
      '>=',
      20,
      input.core?.daily.extrapolated
        ? `naive time extrapolated from every ${input.core.daily.sliceEvery}th booking`
        : undefined,
    ),
    target('core availableKitsOfType speed-up over naive', input.core?.kitsOfType.speedup, 'x', '>=', 20),
    target(
      'console initial JS (gzip)',
      input.bundles?.console ? kb(input.bundles.console.jsGzip) : null,
      'KB',
      '<=',
      120,
      input.bundles?.console ? undefined : 'console not built',
    ),
  );
  for (const widget of input.bundles?.widgets ?? [])
    targets.push(target(`widget ${widget.file} (gzip)`, kb(widget.gzip), 'KB', '<=', 30));
  if ((input.bundles?.widgets.length ?? 0) === 0)
    targets.push(target('widgets (gzip)', null, 'KB', '<=', 30, 'widgets not built'));
  for (const page of input.lighthouse ?? []) {
    const note = page.error ?? page.note;
    targets.push(
      target(`Lighthouse performance ${page.name} (median of 3)`, page.score, 'score', '>=', 95, note),
      target(
        `Lighthouse total blocking time ${page.name}`,
        page.metrics?.['total-blocking-time'],
        'ms',
        '<',
        200,
        note,
      ),
    );
    if (page.name !== '/login')
      targets.push(
        target(
          `Lighthouse largest contentful paint ${page.name}`,
          page.metrics?.['largest-contentful-paint'],
          'ms',
          '<',
          2500,
          note,
        ),
      );
  }
  const contention = input.contention;
  targets.push(
    target(
      'contention: bookings created = free kits',
      contention && !contention.skipped ? contention.created : null,
      'bookings',
      '=',
      contention?.capacity ?? 20,
      contention?.skipped,
    ),
    target('contention: overlapping holds in the database', contention?.overlappingHolds, 'pairs', '=', 0),
  );
  return targets;
}

const fmt = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : Number(value.toFixed(digits)).toLocaleString('en-US');

export function markdownReport(results: {
  mode: string;
  machine: { cpus: number; loadAverage: { before: number; after: number } };
  scale: { patients: number; kits: number; bookings: number };
  database: { engine: string; generationMs: number; tables: Record<string, number> };
  core?: CoreResult;
  http?: EndpointResult[];
  load?: { connections: number; durationSeconds: number; warmupSeconds: number; pairs?: number };
  contention?: ContentionResult;
  coldSearch?: {
    query: string;
    firstSearchMs: number;
    status: number;
    residentAtStartMb: number | null;
    residentAfterFirstSearchMb: number | null;
    residentAfterLoadMb?: number | null;
  };
  searchQuality?: SearchQuality;
  bundles?: BundleResult;
  lighthouse?: LighthouseResult[];
  targets: Target[];
}): string {
  const lines: string[] = [];
  const { scale, database } = results;
  lines.push(
    `## Wellrest bench (${results.mode}): ${scale.patients.toLocaleString('en-US')} patients, ` +
      `${scale.kits.toLocaleString('en-US')} kits, ${scale.bookings.toLocaleString('en-US')} bookings`,
    '',
    `Data set generated and written to ${database.engine} in ${fmt(database.generationMs / 1000)} s ` +
      `(${Object.entries(database.tables)
        .map(([t, ms]) => `${t} ${fmt(ms / 1000)} s`)
        .join(', ')}).`,
    '',
    `Machine: ${results.machine.cpus} CPUs, 1-minute load average ${results.machine.loadAverage.before} at the ` +
      `start and ${results.machine.loadAverage.after} at the end (anything else running skews the figures).`,
    '',
  );
  if (results.coldSearch) {
    const c = results.coldSearch;
    lines.push(
      '### Search after start',
      '',
      `First search after the API started: ${fmt(c.firstSearchMs)} ms (status ${c.status}). ` +
        `API process resident memory: ${fmt(c.residentAtStartMb, 0)} MB at start, ` +
        `${fmt(c.residentAfterFirstSearchMb, 0)} MB after the first search, ` +
        `${fmt(c.residentAfterLoadMb, 0)} MB after the load runs.`,
      '',
    );
  }
  if (results.searchQuality) {
    const q = results.searchQuality;
    const pct = (value: number) => `${fmt(value * 100)} %`;
    lines.push(
      '### Search on misspelt names',
      '',
      `${q.queries} real patients' full names with their surname misspelt (one typo from 5 letters, two from 9), ` +
        `top ${q.limit} results, one query at a time: recall ${pct(q.recall)} (a patient of the intended name ` +
        `among the results), precision ${pct(q.precision)} (returned patients within the typo allowance of ` +
        `every query word), ${pct(q.exactPrecision)} of them of the intended name; p50 ${fmt(q.p50Ms)} ms, ` +
        `p99 ${fmt(q.p99Ms)} ms.`,
      '',
      '| slip | queries | recall |',
      '| --- | ---: | ---: |',
      ...Object.entries(q.bySlip).map(([slip, r]) => `| ${slip} | ${r.queries} | ${pct(r.recall)} |`),
      '',
    );
  }
  if (results.core) {
    const { daily, kitsOfType, days } = results.core;
    lines.push(
      '### Core availability engine vs naive reference',
      '',
      '| function | engine | naive | speed-up | same answer |',
      '| --- | ---: | ---: | ---: | --- |',
      `| dailyAvailability, ${days} days | ${fmt(daily.fastMs, 2)} ms | ${fmt(daily.naiveMs, 0)} ms${daily.extrapolated ? ' *' : ''} | ${fmt(daily.speedup)}x | ${daily.sameAnswerOnSlice ? 'yes' : 'NO'} |`,
      `| availableKitsOfType | ${fmt(kitsOfType.fastMs, 3)} ms | ${fmt(kitsOfType.naiveMs, 0)} ms | ${fmt(kitsOfType.speedup)}x | ${kitsOfType.sameAnswer ? 'yes' : 'NO'} |`,
      '',
    );
    if (daily.extrapolated)
      lines.push(
        `\\* The naive daily availability ran on every ${daily.sliceEvery}th booking ` +
          `(${daily.sliceBookings.toLocaleString('en-US')} bookings, ${fmt(daily.naiveSliceMs, 0)} ms) ` +
          `and was extrapolated linearly to all bookings (its cost is linear in the bookings); ` +
          'the engine gave the identical answer on that slice.',
        '',
      );
  }
  if (results.http && results.load) {
    const { connections, durationSeconds, warmupSeconds } = results.load;
    lines.push(
      `### HTTP under load (autocannon in a separate process, ${connections} connections, ` +
        `${durationSeconds} s after a ${warmupSeconds} s warm-up)`,
      '',
      '| endpoint | req/s | p50 ms | p99 ms | of ceiling | answer KB | load generator CPU | answers |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const e of results.http) {
      const l = e.load;
      const answers = e.skipped
        ? e.skipped
        : l?.total === 0
          ? 'no request completed within the measured run'
          : e.outcomes
            ? `${e.outcomes.created} created, ${e.outcomes.conflicts} conflicts (409), ${e.outcomes.other} other`
            : Object.entries(l?.statusCounts ?? {})
                .map(([code, count]) => `${count}× ${code}`)
                .join(', ');
      lines.push(
        `| ${e.method} ${e.path} | ${fmt(l?.requestsPerSecond, 0)} | ${fmt(l?.p50, 0)} | ${fmt(l?.p99, 0)} | ` +
          `${e.ceilingRatio === undefined ? '—' : `${fmt(e.ceilingRatio * 100, 0)}%`} | ` +
          `${l?.answerBytes === undefined ? '—' : fmt(l.answerBytes / 1024, 1)} | ` +
          `${l?.clientCpu === undefined ? '—' : `${fmt(l.clientCpu * 100, 0)}%`} | ${answers} |`,
      );
    }
    lines.push('');
    for (const e of results.http.filter((endpoint) => endpoint.pairs)) {
      const pairs = (e.pairs ?? []).map(
        (pair) =>
          `${fmt(pair.ratio * 100, 1)}% (health ${fmt(pair.ceiling, 0)}, then ${fmt(pair.requestsPerSecond, 0)} req/s, p99 ${fmt(pair.p99, 0)} ms)`,
      );
      lines.push(
        `${e.method} ${e.path}, each time right after its own health load: ${pairs.join('; ')}. ` +
          'The table shows the pair with the median ratio.',
        '',
      );
    }
  }
  if (results.contention) {
    const c = results.contention;
    const other = Object.entries(c.other)
      .map(([code, count]) => `${count}× ${code}`)
      .join(', ');
    lines.push(
      '### Contention',
      '',
      c.skipped
        ? c.skipped
        : `${c.requests} concurrent POST /api/bookings for ${c.capacity} free ${c.kitType} kits on ${c.startDate}: ` +
            `${c.created} created, ${c.conflicts} refused with 409${other ? `, ${other}` : ''}; ` +
            `overlapping holds found by SQL: ${c.overlappingHolds ?? '—'}.`,
      '',
    );
  }
  if (results.bundles) {
    const b = results.bundles;
    lines.push('### Bundles (gzip)', '', '| bundle | raw | gzip |', '| --- | ---: | ---: |');
    if (b.console) {
      const raw = (files: { bytes: number }[]) => files.reduce((sum, f) => sum + f.bytes, 0);
      lines.push(
        `| console initial JS (${b.console.js.length} files) | ${fmt(kb(raw(b.console.js)))} KB | ${fmt(kb(b.console.jsGzip))} KB |`,
        `| console initial CSS (${b.console.css.length} ${b.console.css.length === 1 ? 'sheet' : 'sheets'}) | ${fmt(kb(raw(b.console.css)))} KB | ${fmt(kb(b.console.cssGzip))} KB |`,
      );
    }
    for (const w of b.widgets)
      lines.push(`| widgets/${w.file} | ${fmt(kb(w.bytes))} KB | ${fmt(kb(w.gzip))} KB |`);
    for (const m of b.missing) lines.push(`| ${m} | missing | — |`);
    lines.push('');
  }
  if (results.lighthouse) {
    lines.push(
      '### Lighthouse (performance, default mobile settings, system Chromium)',
      '',
      '| page | score | FCP ms | LCP ms | TBT ms | CLS | note |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const p of results.lighthouse) {
      const m = p.metrics ?? {};
      lines.push(
        `| ${p.name} (${p.path}) | ${p.score ?? '—'} | ${fmt(m['first-contentful-paint'], 0)} | ` +
          `${fmt(m['largest-contentful-paint'], 0)} | ${fmt(m['total-blocking-time'], 0)} | ` +
          `${fmt(m['cumulative-layout-shift'], 3)} | ${[p.note, p.error].filter(Boolean).join('; ')} |`,
      );
    }
    lines.push('');
  }
  lines.push('### Targets', '', '| target | value | goal | met |', '| --- | ---: | ---: | --- |');
  for (const t of results.targets)
    lines.push(
      `| ${t.name} | ${t.value === null ? '—' : `${fmt(t.value, t.unit === 'ratio' ? 3 : 2)} ${t.unit}`} | ${t.comparison} ${t.target} ${t.unit} | ` +
        `${t.met ? 'yes' : 'NO'}${t.note ? ` (${t.note})` : ''} |`,
    );
  lines.push('');
  return lines.join('\n');
}
