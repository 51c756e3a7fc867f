import Router from '@koa/router';
import { recordScope } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { abilityOf } from '../patients/access.js';
import { listReferrals } from './store.js';

// Referrals sent by physicians through the referral widget; a physician sees only their own.

async function getReferrals(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const referrals = await listReferrals(db, recordScope(abilityOf(ctx), 'read', 'Referral'));
  await audit(db, ctx, {
    action: 'referral.list',
    outcome: 'success',
    entityType: 'referral',
    details: { count: referrals.length },
  });
  ctx.body = referrals;
}

export function referralRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/referrals', can('read', 'Referral'), getReferrals);
  return router;
}
