import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { apiRouter, describeApi } from '../app.js';
import { isApiPath } from '../http/paths.js';
import { documentedAnswer, type OpenApiDocument } from '../modules/openapi/document.js';

// Every answer an API test receives is checked against the API description (GET /api/openapi.json):
// its status must be one the route documents, and a JSON body must match the documented schema.
// The document is built once per test worker and each schema compiled on first use, so the check
// costs the suite next to nothing.

let document: OpenApiDocument | undefined;
let router: ReturnType<typeof apiRouter> | undefined;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

export class UndocumentedAnswerError extends Error {
  override name = 'UndocumentedAnswerError';
}

/** The route that answers: the first one registered for this method and path, as the router runs them. */
function routeFor(method: string, path: string): string | undefined {
  router ??= apiRouter();
  const pattern = router.match(path, method).pathAndMethod.find((layer) => layer.methods.length > 0)?.path;
  return typeof pattern === 'string' ? pattern : undefined;
}

/** A checker for the API's answers; throws UndocumentedAnswerError on a mismatch. */
export function documentedAnswerCheck() {
  return (method: string, url: string, status: number, headers: Headers, body: unknown): void => {
    const path = new URL(url).pathname;
    // Redirects and 304s have no body to check; HEAD answers as GET does.
    if (!isApiPath(path) || method === 'HEAD' || (status >= 300 && status < 400)) return;
    const pattern = routeFor(method, path);
    // No route for this method and path: the router's own 404 or 405, checked by their tests.
    if (!pattern) return;
    document ??= describeApi();
    const openApiPath = pattern.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\{\*([A-Za-z]+)\}/g, '{$1}');
    const operation = document.paths[openApiPath]?.[method.toLowerCase()];
    if (!operation) throw new UndocumentedAnswerError(`${method} ${pattern} is not in the API description`);
    const answer = documentedAnswer(operation, status);
    if (!answer)
      throw new UndocumentedAnswerError(
        `${method} ${pattern} answered ${status}, a status its description does not list`,
      );
    if (!headers.get('content-type')?.includes('application/json') || typeof body === 'string') return;
    const schema = answer.content?.['application/json']?.schema;
    if (!schema) return;
    const key = `${method} ${pattern} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      // The components travel with each schema so its $refs resolve.
      validate = ajv.compile({ ...schema, components: document.components });
      validators.set(key, validate);
    }
    if (!validate(body))
      throw new UndocumentedAnswerError(
        `${key}: the answer does not match its description: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`,
      );
  };
}
