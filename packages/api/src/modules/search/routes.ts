import Router from '@koa/router';
import { SearchInput } from '@wellrest/core';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { search } from './store.js';

async function postSearch(ctx: AppContext & { state: { input: SearchInput } }): Promise<void> {
  ctx.body = await search(ctx, ctx.state.input);
}

export function searchRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post<{ input: SearchInput }>(
    '/api/search',
    can('read', 'Search'),
    validate(SearchInput),
    postSearch,
  );
  return router;
}
