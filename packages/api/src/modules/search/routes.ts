import Router from '@koa/router';
import { API_PATHS, SearchInput } from '@wellrest/core';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { withSessionResumed } from '../../http/session.js';
import { validate } from '../../http/validate.js';
import { search } from './store.js';

async function postSearch(ctx: AppContext & { state: { input: SearchInput } }): Promise<void> {
  ctx.body = await search(ctx, ctx.state.input);
}

export function searchRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  const access = can('read', 'Search');
  // The search may run on a session resumed from memory and confirm it in its own statement
  // (http/session.ts); when that session no longer holds it runs again on the session as it stands.
  router.post<{ input: SearchInput }>(
    API_PATHS.search,
    access,
    validate(SearchInput),
    withSessionResumed(`POST ${API_PATHS.search}`, access, postSearch),
  );
  return router;
}
