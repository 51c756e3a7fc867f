import Router from '@koa/router';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { inTransaction } from '../../http/transaction.js';
import { idParam } from '../patients/access.js';
import { initiateAgreement } from './store.js';

async function postInitiateAgreement(ctx: AppContext): Promise<void> {
  ctx.body = await initiateAgreement(ctx, idParam(ctx));
}

export function agreementRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post(
    '/api/bookings/:id/initiate-agreement',
    can('create', 'Agreement'),
    inTransaction,
    postInitiateAgreement,
  );
  return router;
}
