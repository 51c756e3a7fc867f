import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertPatient } from '../test/operations-fixtures.js';
import { type ApiRoute, apiRoutes } from '../test/routes.js';
import { rowCounter } from '../test/row-counts.js';
import { type Agent, getTestServer, type TestServer } from '../test/server.js';

// Bad input on every route the router has (read off it, so a new route is fuzzed without being
// listed): wrong types, missing and extra fields, huge strings, unicode and NUL bytes, invalid
// dates, numbers out of range, arrays for objects, malformed JSON, wrong content types and odd
// path parameters, as an administrator (who reaches every handler) and as an anonymous caller.
// Requirement: never a 5xx; every refusal the API's error shape; a refused request changes no row.
// FUZZ_SECONDS (default 30) bounds the run; FUZZ_SEED replays one.

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** The top-level field names a schema describes, so generated bodies hit real fields too. */
function fieldNames(route: ApiRoute, source: 'body' | 'query'): string[] {
  const names = new Set<string>();
  for (const input of route.inputs.filter((i) => i.source === source)) {
    try {
      const json = z.toJSONSchema(input.schema, { unrepresentable: 'any', io: 'input' }) as {
        properties?: Record<string, unknown>;
        anyOf?: { properties?: Record<string, unknown> }[];
        oneOf?: { properties?: Record<string, unknown> }[];
      };
      for (const key of Object.keys(json.properties ?? {})) names.add(key);
      for (const branch of [...(json.anyOf ?? []), ...(json.oneOf ?? [])])
        for (const key of Object.keys(branch.properties ?? {})) names.add(key);
    } catch {
      // A schema JSON Schema cannot describe: random field names only.
    }
  }
  return [...names];
}

const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uFFFF',
    '\uD800',
    '😀'.repeat(30),
    '<script>alert(1)</script>',
  ),
  fc.constantFrom("'; drop table patients; --", '%00', '../../etc/passwd', `\${7*7}`, '{{7*7}}'),
  fc.constantFrom('9999-12-31', '0000-01-01', '2026-02-30', '2026-13-01', '+275760-09-13', 'not-a-date'),
  fc.constantFrom('1970-01-01T00:00:00Z', '2026-11-25T25:61:00Z', 'NaN', 'Infinity', '-0', '1e309'),
  fc.constant('x'.repeat(1_000_000)),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 31, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }) },
  {
    weight: 2,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  },
);

function objectOf(names: string[]): fc.Arbitrary<Record<string, unknown>> {
  const key =
    names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 12 })) : fc.string();
  return fc.dictionary(key, nastyValue, { maxKeys: Math.max(3, names.length + 2) });
}

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

function bodyFor(route: ApiRoute): fc.Arbitrary<Body | undefined> {
  if (route.method === 'GET' || route.method === 'DELETE') return fc.constant(undefined);
  const names = fieldNames(route, 'body');
  return fc.oneof(
    { weight: 6, arbitrary: objectOf(names).map((value): Body => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value): Body => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"a":', '[1,', '{"a":1}}', '\u0000', 'nul', '{"__proto__":{"admin":true}}')
        .map((text): Body => ({ kind: 'raw', text, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/xml',
        )
        .map((contentType): Body => ({ kind: 'raw', text: 'name=a&email=b', contentType })),
    },
  );
}

const pathParam = fc
  .oneof(
    fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map(String),
    fc.constantFrom('0', '1', '2', '3', '-1', '1e309', 'NaN', '9'.repeat(40), '..', 'null', '😀', ' '),
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.uuid(),
  )
  .map((value) => encodeURIComponent(value));

function queryFor(route: ApiRoute): fc.Arbitrary<string> {
  const names = fieldNames(route, 'query');
  const key =
    names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })) : fc.string();
  return fc
    .array(
      fc.tuple(
        key,
        fc.oneof(
          nastyString.filter((s) => s.length < 2000),
          nastyNumber.map(String),
        ),
      ),
      {
        maxLength: 4,
      },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [name, value] of pairs) params.append(name, value);
      const text = params.toString();
      return text === '' ? '' : `?${text}`;
    });
}

interface GeneratedRequest {
  route: ApiRoute;
  url: string;
  body: Body | undefined;
  as: 'admin' | 'anonymous';
}

function requestFor(route: ApiRoute): fc.Arbitrary<GeneratedRequest> {
  return fc
    .record({
      params: fc.array(pathParam, { minLength: route.params.length, maxLength: route.params.length }),
      query: queryFor(route),
      body: bodyFor(route),
      // Signing out would end the session the rest of the run uses.
      as:
        route.key === 'POST /api/auth/logout'
          ? fc.constant('anonymous' as const)
          : fc.constantFrom('admin', 'anonymous'),
    })
    .map(({ params, query, body, as }) => {
      let index = 0;
      const url = route.path.replace(/:[A-Za-z]+/g, () => params[index++] as string) + query;
      return { route, url, body, as: as as GeneratedRequest['as'] };
    });
}

describe('fuzzing every route', () => {
  let server: TestServer;
  let admin: Agent;
  let countRows: () => Promise<Record<string, number>>;
  const routes = apiRoutes();

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
    // A few records, so generated ids sometimes name real rows.
    for (let i = 0; i < 3; i++) await insertPatient(server.db, { name: `Fuzz Patient ${i}` });
    countRows = await rowCounter(server.db);
  });
  afterAll(() => server.close());

  it(
    `answers bad input on every route with a 4xx and changes nothing (seed ${SEED})`,
    async () => {
      process.stdout.write(
        `fuzz: ${routes.length} routes, ${SECONDS} s, FUZZ_SEED=${SEED} replays this run\n`,
      );
      let before = await countRows();
      const tally = { requests: 0, refused: 0, serverErrors: 0 };
      const statuses = new Map<number, number>();

      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes).chain((route) => requestFor(route)),
          async ({ route, url, body, as }) => {
            const headers: Record<string, string> = {};
            const options =
              body === undefined
                ? { headers }
                : body.kind === 'json'
                  ? { headers, body: body.value }
                  : { headers: { ...headers, 'content-type': body.contentType }, rawBody: body.text };
            const res =
              as === 'admin'
                ? await admin.request(route.method, url, options)
                : await server.request(route.method, url, options);
            tally.requests++;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status >= 500) tally.serverErrors++;
            expect(res.status, `${route.key} ${url.slice(0, 120)} answered ${res.status}`).toBeLessThan(500);

            const after = await countRows();
            if (res.status >= 400) {
              tally.refused++;
              expect(res.headers.get('content-type'), route.key).toContain('application/json');
              expect(res.body, route.key).toMatchObject({
                error: expect.any(String),
                requestId: expect.any(String),
              });
              expect(after, `${route.key} was refused with ${res.status} but changed rows`).toEqual(before);
            }
            before = after;
            // An administrator's session can end (a generated call revoked it): sign in again.
            if (as === 'admin' && res.status === 401) {
              admin = await server.loginAs('admin');
              // Signing in again may create the account (and writes its session): count afresh.
              before = await countRows();
            }
          },
        ),
        {
          seed: SEED,
          numRuns: 1_000_000,
          interruptAfterTimeLimit: SECONDS * 1000,
          markInterruptAsFailure: false,
        },
      );
      process.stdout.write(
        `fuzz: ${tally.requests} requests, ${tally.refused} refused (4xx), ${tally.serverErrors} server errors; statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
      );
      expect(tally.requests).toBeGreaterThan(routes.length);
    },
    (SECONDS + 120) * 1000,
  );
});
