import Router from '@koa/router';
import { AUDIT_RETENTION_YEARS, HousekeepingPatch } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { housekeepingStatus, runHousekeeping, updateRetention } from './service.js';

// Administrators see each housekeeping task's retention, last run and rows removed, change a
// retention, and run the purge at once (it also runs nightly on the job queue).

async function status(ctx: AppContext): Promise<void> {
  ctx.body = {
    tasks: await housekeepingStatus(ctx.services.db.knex),
    auditRetentionYears: AUDIT_RETENTION_YEARS,
  };
}

async function patch(ctx: AppContext & { state: { input: HousekeepingPatch } }): Promise<void> {
  const db = ctx.services.db.knex;
  const changed = await updateRetention(db, ctx.state.input, ctx.state.user?.id ?? null);
  if (changed.length > 0)
    await audit(db, ctx, {
      action: 'housekeeping_settings.update',
      outcome: 'success',
      entityType: 'setting',
      details: { keys: changed.join(',') },
    });
  await status(ctx);
}

async function runNow(ctx: AppContext): Promise<void> {
  const db = ctx.services.db.knex;
  const user = ctx.state.user;
  const removed = await runHousekeeping(db, new Date(), {
    id: user?.id ?? null,
    username: user?.username ?? null,
  });
  ctx.body = { removed, tasks: await housekeepingStatus(db), auditRetentionYears: AUDIT_RETENTION_YEARS };
}

export function housekeepingRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/housekeeping', can('manage', 'Setting'), status);
  router.patch('/api/admin/housekeeping', can('manage', 'Setting'), validate(HousekeepingPatch), patch);
  router.post('/api/admin/housekeeping/run', can('manage', 'Setting'), runNow);
  return router;
}
