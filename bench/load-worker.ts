import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import autocannon, { type Request } from 'autocannon';

// Runs one autocannon load in its own process, so the load generator never shares an event
// loop with the harness: a warm-up, then the measured run. Reads its scenario from the JSON file
// named on the command line and prints the measured result as one JSON line.

export type Body =
  | { kind: 'none' }
  | { kind: 'search'; queries: string[]; limit: number }
  | {
      kind: 'booking';
      patients: number;
      kitTypes: string[];
      testTypes: string[];
      /** Valid start dates per test type. */
      startDates: Record<string, string[]>;
    };

/*
 * autocannon 8 appends every chunk of every answer to a string (`body += chunk` in its
 * pipelined-requests queue) for body checks and `onResponse` callbacks, neither of which this
 * worker uses. On a compressed answer that is a UTF-8 decoding of binary data: for the 55–94 KB
 * daily availability it took 90% of the generator's CPU (profiled), so the figure measured the
 * generator, not the API. The worker keeps autocannon's byte count and drops the string.
 */
const require = createRequire(import.meta.url);
const queue: typeof import('autocannon/lib/pipelinedRequestsQueue.js') = require('autocannon/lib/pipelinedRequestsQueue.js');
queue.prototype.addBody = () => {
  // No body is checked: nothing to keep (bytes are still counted by addByteCount).
};

export interface Scenario {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  cookie: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  body: Body;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  /**
   * CPU the load generator itself used during the measured run, as a share of one core: near
   * 100% it, not the API, set the pace (large answers cost the client more than the server).
   */
  clientCpu: number;
  /** Mean bytes received per answer (headers and body, compressed as sent). */
  answerBytes: number;
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

function bodyFor(body: Body): (() => string) | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'search':
      return () => JSON.stringify({ query: pick(body.queries), limit: body.limit });
    case 'booking':
      return () => {
        const testType = pick(body.testTypes);
        return JSON.stringify({
          patientId: 1 + Math.floor(Math.random() * body.patients),
          testType,
          kitType: pick(body.kitTypes),
          startDate: pick(body.startDates[testType] ?? []),
        });
      };
  }
}

async function load(scenario: Scenario, duration: number): Promise<LoadResult> {
  // What a browser sends: the console's requests all accept compressed answers.
  const headers: Record<string, string> = { cookie: scenario.cookie, 'accept-encoding': 'gzip, deflate, br' };
  const makeBody = bodyFor(scenario.body);
  if (makeBody) headers['content-type'] = 'application/json';
  const request: Request = { method: scenario.method, path: scenario.path, headers };
  if (makeBody) request.setupRequest = (req) => ({ ...req, body: makeBody() });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: scenario.url,
    connections: scenario.connections,
    duration,
    requests: [request],
  });
  const cpu = process.cpuUsage(cpuBefore);
  const clientCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - started);
  const statusCounts: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = count;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    clientCpu: Number(clientCpu.toFixed(2)),
    answerBytes: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

const file = process.argv[2];
if (!file) throw new Error('usage: load-worker <scenario.json>');
const scenario = JSON.parse(readFileSync(file, 'utf8')) as Scenario;
if (scenario.warmupSeconds > 0) await load(scenario, scenario.warmupSeconds);
process.stdout.write(`${JSON.stringify(await load(scenario, scenario.durationSeconds))}\n`);
