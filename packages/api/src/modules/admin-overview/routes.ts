import Router from '@koa/router';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { uuidParam } from '../../http/params.js';
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

/** Sessions alive now, newest activity first: who, since when, from where. */
async function listSessions(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const rows = (await db('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .whereNull('s.revoked_at')
    .where('s.expires_at', '>', db.fn.now())
    .orderBy('s.last_seen_at', 'desc')
    .limit(500)
    .select(
      's.id',
      's.user_id',
      'u.username',
      'u.role',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.ip',
      's.user_agent',
    )) as {
    id: string;
    user_id: number;
    username: string;
    role: string;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  }[];
  ctx.body = rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    username: r.username,
    role: r.role,
    createdAt: new Date(r.created_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    ip: r.ip,
    userAgent: r.user_agent,
    current: r.id === ctx.state.session?.id,
  }));
}

/** Ends one session at once (the user's other sessions stay). */
async function revokeSession(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const id = uuidParam(ctx);
  const [row] = await db('sessions')
    .where({ id })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() })
    .returning('user_id');
  if (!row) throw notFound();
  await audit(db, ctx, {
    action: 'auth.session_revoke',
    outcome: 'success',
    entityType: 'user',
    entityId: (row as { user_id: number }).user_id,
    details: { by: 'administrator' },
  });
  ctx.status = 204;
}

export function adminOverviewRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/admin/dashboard', can('read', 'AuditLog'), dashboard);
  router.get('/api/admin/hipaa', can('read', 'AuditLog'), hipaa);
  router.get('/api/admin/sessions', can('manage', 'User'), listSessions);
  router.delete('/api/admin/sessions/:id', can('manage', 'User'), revokeSession);
  return router;
}
