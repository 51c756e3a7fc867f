import { apiRouter } from '../app.js';
import { type AccessRequirement, accessRequirements } from '../http/can.js';
import { type InputSchema, inputSchemasOf } from '../http/validate.js';
import { embedAccess } from '../modules/public/guard.js';

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
  /** A public route that a partner's site calls with an embed key (refused from other origins). */
  embedGuarded: boolean;
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
        embedGuarded: (layer.stack as unknown[]).includes(embedAccess),
      });
    }
  }
  return routes;
}
