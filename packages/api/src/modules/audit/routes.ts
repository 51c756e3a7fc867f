import Router from '@koa/router';
import { AuditLogQuery } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { auditPage } from './store.js';

// /admin/audit-logs: the trail, paged and filtered. Reading it is itself recorded.

async function listAuditEvents(ctx: AppContext & { state: { input: AuditLogQuery } }): Promise<void> {
  const db = dbOf(ctx);
  const query = ctx.state.input;
  const page = await auditPage(db, query);
  await audit(db, ctx, {
    action: 'audit_log.read',
    outcome: 'success',
    entityType: 'audit_log',
    details: {
      page: query.page,
      pageSize: query.pageSize,
      action: query.action ?? null,
      entityType: query.entityType ?? null,
      byActor: Boolean(query.actorUsername),
    },
  });
  ctx.body = page;
}

export function auditRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get<{ input: AuditLogQuery }>(
    '/api/admin/audit-logs',
    can('read', 'AuditLog'),
    validate(AuditLogQuery, 'query'),
    listAuditEvents,
  );
  return router;
}
