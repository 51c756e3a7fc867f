import Router from '@koa/router';
import { ResignAgreementInput } from '@wellrest/core';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { inTransaction } from '../../http/transaction.js';
import { validate } from '../../http/validate.js';
import { idParam } from '../patients/access.js';
import { initiateAgreement, resignAgreement } from './store.js';

async function postInitiateAgreement(ctx: AppContext): Promise<void> {
  ctx.body = await initiateAgreement(ctx, idParam(ctx));
}

async function postResignAgreement(
  ctx: AppContext & { state: { input: ResignAgreementInput } },
): Promise<void> {
  ctx.body = await resignAgreement(ctx, idParam(ctx), ctx.state.input);
}

export function agreementRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.post(
    '/api/bookings/:id/initiate-agreement',
    can('create', 'Agreement'),
    inTransaction,
    postInitiateAgreement,
  );
  // Replacing a signed agreement is a deliberate act with a reason, never a side effect of "send".
  router.post<{ input: ResignAgreementInput }>(
    '/api/bookings/:id/agreement/resign',
    can('update', 'Agreement'),
    validate(ResignAgreementInput),
    inTransaction,
    postResignAgreement,
  );
  return router;
}
