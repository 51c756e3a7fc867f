import { apiRouter } from '../app.js';
import { type AccessRequirement, accessRequirements } from '../http/can.js';
import { type InputSchema, inputSchemasOf } from '../http/validate.js';

/** One method of one route the API mounts, as read off the router itself. */
export interface ApiRoute {
  /** `METHOD /path/:param` */
  key: string;
  method: string;
  path: string;
  /** The route's parameter names, in order (`:id` → `id`). */
  params: string[];
  requirements: AccessRequirement[];
  inputs: InputSchema[];
}

/**
 * Every route of `apiRouter()`, so tests that must cover every route (the permission matrix, the
 * fuzz suite) cover a route added later without listing it.
 */
export function apiRoutes(): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const layer of apiRouter().stack) {
    if (typeof layer.path !== 'string') continue;
    const params = [...layer.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
      routes.push({
        key: `${method} ${layer.path}`,
        method,
        path: layer.path,
        params,
        requirements: accessRequirements(layer.stack),
        inputs: inputSchemasOf(layer.stack),
      });
    }
  }
  return routes;
}
