import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import send from 'koa-send';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import type { OpenApiDocument } from './document.js';

// GET /api/openapi.json (the description of every route) and /api/docs, a reference page served
// from this origin: Swagger UI's standalone bundle from the swagger-ui-dist package, started by a
// script of ours (the API's Content-Security-Policy allows no inline script).

/** Where the docs page and its files live; security-headers.ts gives these paths their own policy. */
export const DOCS_PATH = '/api/docs';

const SWAGGER_DIR = path.dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));
/** The viewer's files this page uses; nothing else of the package is served. */
const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wellrest API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="api-reference"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/start.js"></script>
</body>
</html>
`;

const START_JS = `window.addEventListener('load', function () {
  window.SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    withCredentials: true,
    validatorUrl: null,
  });
});
`;

export function openApiRoutes(describe: () => OpenApiDocument): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  let document: OpenApiDocument | undefined;
  // The description holds no data, only the shape of the API: anyone may read it.
  router.get('/api/openapi.json', (ctx: AppContext) => {
    document ??= describe();
    ctx.body = document;
  });
  router.get(DOCS_PATH, (ctx: AppContext) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_HTML;
  });
  router.get(`${DOCS_PATH}/:file`, async (ctx: AppContext & { params: { file: string } }) => {
    const { file } = ctx.params;
    if (file === 'start.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = START_JS;
      return;
    }
    if (!SWAGGER_FILES.has(file)) throw notFound();
    await send(ctx, file, { root: SWAGGER_DIR });
  });
  return router;
}
