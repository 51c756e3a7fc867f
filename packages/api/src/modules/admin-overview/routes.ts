import Router from '@koa/router';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { version } from '../../version.js';
import { adminDashboard, hipaaReport } from './store.js';

// /admin/dashboard and /admin/hipaa: figures for administrators. Counts and usernames only.

const startedAt = Date.now();

async function dashboard(ctx: AppContext): Promise<void> {
  ctx.body = await adminDashboard(dbOf(ctx), { engine: ctx.services.db.engine, version, startedAt });
}

async function hipaa(ctx: AppContext): Promise<void> {
  const settings = await ctx.services.settings.all();
  ctx.body = await hipaaReport(dbOf(ctx), settings, {
    https: ctx.services.config.publicUrl?.startsWith('https://') ?? false,
  });
}

export function adminOverviewRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/dashboard', can('read', 'AuditLog'), dashboard);
  router.get('/api/admin/hipaa', can('read', 'AuditLog'), hipaa);
  return router;
}
