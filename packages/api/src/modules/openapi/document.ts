import type Router from '@koa/router';
import { z } from 'zod';
import { type AccessRequirement, accessRequirements } from '../../http/can.js';
import { type InputSchema, inputSchemasOf } from '../../http/validate.js';
import { version } from '../../version.js';
import { DOCUMENTED_ANSWERS, ErrorBody, fileTypeOf } from './answers.js';

// The OpenAPI 3.1 description of the API, generated from the router itself: every route it mounts,
// the zod schemas its middleware validates input with (validate.ts), the access rule it declares
// (can.ts), and the documented answers (answers.ts). Nothing is listed twice, so a route added
// later is described without being written down here.

type JsonSchema = Record<string, unknown>;

/** One method of one route, as read off a router. */
export interface DescribedRoute {
  /** `METHOD /path/:param`, as the router spells the path. */
  key: string;
  method: string;
  /** The router's path (`/api/patients/:id`). */
  path: string;
  /** The path as OpenAPI writes it (`/api/patients/{id}`). */
  openApiPath: string;
  params: string[];
  requirements: AccessRequirement[];
  inputs: InputSchema[];
}

/** Every route and method of `router` (HEAD answers as GET does and is left out). */
export function routesOf<S, C>(router: Router<S, C>): DescribedRoute[] {
  const routes: DescribedRoute[] = [];
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    const params = [...layer.path.matchAll(/:([A-Za-z]+)|\{\*([A-Za-z]+)\}/g)].map(
      (match) => (match[1] ?? match[2]) as string,
    );
    const openApiPath = layer.path.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\{\*([A-Za-z]+)\}/g, '{$1}');
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
      routes.push({
        key: `${method} ${layer.path}`,
        method,
        path: layer.path,
        openApiPath,
        params,
        requirements: accessRequirements(layer.stack),
        inputs: inputSchemasOf(layer.stack),
      });
    }
  }
  return routes;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  parameters?: JsonSchema[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  security: Record<string, string[]>[];
  responses: Record<string, OpenApiResponse>;
  'x-access'?: string[];
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a zod schema; shared parts go to `components`. */
function jsonSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  delete json.$defs;
  if (io === 'output') allowMoreFields(json);
  if (!defs) return json;
  // Definitions a schema shares inside itself move to the document's components.
  let text = JSON.stringify(json);
  for (const [name, def] of Object.entries(defs)) {
    let target = name;
    for (let n = 2; components[target] && JSON.stringify(components[target]) !== JSON.stringify(def); n++)
      target = `${name}${n}`;
    if (io === 'output') allowMoreFields(def);
    components[target] = def;
    text = text.replaceAll(`"#/$defs/${name}"`, `"#/components/schemas/${target}"`);
  }
  return JSON.parse(text) as JsonSchema;
}

/**
 * Answers promise the fields they document; a client must accept fields added later, so answer
 * schemas are not closed (zod closes objects in its output mode).
 */
function allowMoreFields(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowMoreFields(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.additionalProperties === false) delete record.additionalProperties;
  for (const value of Object.values(record)) allowMoreFields(value);
}

function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((part) => part !== '' && part !== 'api')
    .map((part) => part.replace(/^[:{]\*?|\}$/g, 'by-').replace(/[^A-Za-z0-9]+/g, '-'));
  const camel = [method.toLowerCase(), ...words]
    .join('-')
    .split('-')
    .filter(Boolean)
    .map((word, i) => (i === 0 ? word : word[0]?.toUpperCase() + word.slice(1)))
    .join('');
  return camel;
}

function tagOf(path: string): string {
  const [, first, second, third] = path.split('/');
  if (first === 'fhir') return 'FHIR R4';
  if (second === 'admin' || second === 'public') return `${second} ${third?.split(/[:{]/)[0] ?? ''}`.trim();
  return second ?? 'api';
}

function describeAccess(requirements: AccessRequirement[]): string[] {
  return requirements.map((r) => (r.kind === 'signed-in' ? 'signed in' : `${r.action} ${String(r.subject)}`));
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function errorAnswer(description: string): OpenApiResponse {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

function queryParameters(input: InputSchema, components: Record<string, JsonSchema>): JsonSchema[] {
  const json = jsonSchemaOf(input.schema, 'input', components);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: input.source === 'params' ? 'path' : 'query',
    required: input.source === 'params' || required.has(name),
    schema,
  }));
}

/** A FHIR resource; its full definition is the FHIR R4 specification's. */
const FHIR_RESOURCE: JsonSchema = {
  type: 'object',
  description:
    'A FHIR R4 resource (a Bundle for searches, an OperationOutcome for errors): https://hl7.org/fhir/R4/',
  properties: { resourceType: { type: 'string' } },
  required: ['resourceType'],
};

function describeRoute(route: DescribedRoute, components: Record<string, JsonSchema>): OpenApiOperation {
  const isFhir = route.path.startsWith('/fhir/');
  const isPublic = route.requirements.length === 0;
  const parameters: JsonSchema[] = route.params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  let requestBody: OpenApiOperation['requestBody'];
  for (const input of route.inputs) {
    if (input.source === 'body') {
      requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchemaOf(input.schema, 'input', components) } },
      };
    } else {
      for (const parameter of queryParameters(input, components)) {
        const at = parameters.findIndex((p) => p.name === parameter.name && p.in === parameter.in);
        if (at >= 0) parameters[at] = parameter;
        else parameters.push(parameter);
      }
    }
  }

  const responses: Record<string, OpenApiResponse> = {};
  const documented = DOCUMENTED_ANSWERS[route.key];
  const fileType = fileTypeOf(route.path);
  if (isFhir) {
    responses['200'] = {
      description: 'The resource, or a searchset Bundle',
      content: { 'application/fhir+json': { schema: FHIR_RESOURCE } },
    };
  } else if (documented) {
    for (const [status, schema] of Object.entries(documented)) {
      if (!schema) continue;
      responses[status] = {
        description: Number(status) < 300 ? 'Success' : 'See the body',
        content: { 'application/json': { schema: jsonSchemaOf(schema, 'output', components) } },
      };
    }
  } else if (fileType) {
    responses['200'] = {
      description: 'The file',
      content: { [fileType]: { schema: { type: 'string', contentMediaType: fileType } } },
    };
  } else {
    responses['2XX'] = {
      description: 'Success (the body is not described in detail yet)',
      content: { 'application/json': { schema: {} } },
    };
  }
  const errors: Record<number, string> = {};
  if (route.inputs.length > 0 || WRITE_METHODS.has(route.method))
    errors[400] = 'Invalid request: `fields` names each bad field';
  if (!isPublic) errors[401] = 'Not signed in, or the session ended';
  if (route.requirements.some((r) => r.kind === 'ability')) errors[403] = 'The role may not do this';
  else if (isPublic && route.path.startsWith('/api/public/'))
    errors[403] = 'The embed key does not allow the calling site';
  if (route.params.length > 0) errors[404] = 'No such record, or none within the caller’s reach';
  if (WRITE_METHODS.has(route.method) && !isFhir) errors[409] = 'The change conflicts with the current state';
  for (const [status, description] of Object.entries(errors)) {
    responses[status] ??= isFhir
      ? { description, content: { 'application/fhir+json': { schema: FHIR_RESOURCE } } }
      : errorAnswer(description);
  }
  responses.default = isFhir
    ? {
        description: 'An OperationOutcome',
        content: { 'application/fhir+json': { schema: FHIR_RESOURCE } },
      }
    : errorAnswer('Any other refusal (413, 415, 429) or failure (500, 503)');

  const security: Record<string, string[]>[] = isPublic
    ? route.path.startsWith('/api/public/')
      ? [{}, { embedKey: [] }]
      : []
    : [{ sessionCookie: [] }];
  return {
    operationId: operationId(route.method, route.path),
    tags: [tagOf(route.path)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    security,
    responses,
    ...(isPublic ? {} : { 'x-access': describeAccess(route.requirements) }),
  };
}

/** The OpenAPI 3.1 document of these routes. */
export function buildOpenApiDocument(routes: readonly DescribedRoute[]): OpenApiDocument {
  const components: Record<string, JsonSchema> = {
    Error: jsonSchemaOf(ErrorBody, 'output', {}),
  };
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const operation = describeRoute(route, components);
    for (const tag of operation.tags) tags.add(tag);
    paths[route.openApiPath] ??= {};
    (paths[route.openApiPath] as Record<string, OpenApiOperation>)[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wellrest API',
      version,
      description:
        'The API of the Wellrest console. Signed-in routes use the session cookie set by `POST /api/auth/login`; ' +
        'unsafe methods must come from the same origin. Public form routes accept an embed key from a partner site. ' +
        'The read-only FHIR R4 API is under `/fhir/R4`.',
    },
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'wellrest_session' },
        embedKey: { type: 'apiKey', in: 'header', name: 'X-Wellrest-Embed-Key' },
      },
    },
  };
}

/**
 * The documented answer of `status` for an operation: exact, then its class (`2XX`), then, for a
 * refusal or failure, `default`. None: the status is not documented.
 */
export function documentedAnswer(operation: OpenApiOperation, status: number): OpenApiResponse | undefined {
  const { responses } = operation;
  return (
    responses[String(status)] ??
    responses[`${String(status)[0]}XX`] ??
    (status >= 400 ? responses.default : undefined)
  );
}
