import Router from '@koa/router';
import { messages } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { inTransaction } from '../../http/transaction.js';
import { decidePhysicianSignup, listPhysicianSignups } from './signups.js';

// Physicians who signed up through the sign-up widget wait here for an administrator.

async function getSignups(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const signups = await listPhysicianSignups(db);
  await audit(db, ctx, {
    action: 'physician_signup.list',
    outcome: 'success',
    entityType: 'physician_signup',
    details: { count: signups.length },
  });
  ctx.body = signups;
}

function decide(decision: 'approved' | 'rejected') {
  return async (ctx: AppContext): Promise<void> => {
    const db = dbOf(ctx);
    const id = idParam(ctx);
    const result = await decidePhysicianSignup(db, id, decision, ctx.state.user?.id ?? null);
    if (result === 'not_found') throw notFound();
    if (result === 'decided') throw conflict(messages.common.conflict);
    await audit(db, ctx, {
      action: decision === 'approved' ? 'physician_signup.approve' : 'physician_signup.reject',
      outcome: 'success',
      entityType: 'physician_signup',
      entityId: id,
      details: { physicianId: result.physicianId },
    });
    ctx.body = result;
  };
}

export function physicianSignupRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/physician-signups', can('read', 'Registration'), getSignups);
  router.post(
    '/api/admin/physician-signups/:id/approve',
    can('update', 'Registration'),
    inTransaction,
    decide('approved'),
  );
  router.post(
    '/api/admin/physician-signups/:id/reject',
    can('update', 'Registration'),
    inTransaction,
    decide('rejected'),
  );
  return router;
}
