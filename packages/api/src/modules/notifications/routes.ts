import Router from '@koa/router';
import { messages } from '@wellrest/core';
import { z } from 'zod';
import { authenticated } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { listNotifications, markAllRead, markRead, unreadCount } from './store.js';

// /notifications: everyone signed in has an inbox of their own and their role's notifications.

const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(30) });
const IdParams = z.object({ id: z.coerce.number().int().positive() });

function reader(ctx: AppContext) {
  const user = ctx.state.user;
  if (!user) throw new Error('authenticated route without a user');
  return { id: user.id, role: user.role };
}

export function notificationRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/notifications', authenticated, validate(ListQuery, 'query'), async (ctx) => {
    const { limit } = ctx.state.input as z.infer<typeof ListQuery>;
    const db = ctx.services.db.knex;
    const [items, unread] = await Promise.all([
      listNotifications(db, reader(ctx), limit),
      unreadCount(db, reader(ctx)),
    ]);
    ctx.body = { items, unread };
  });
  router.get('/api/notifications/unread-count', authenticated, async (ctx) => {
    ctx.body = { unread: await unreadCount(ctx.services.db.knex, reader(ctx)) };
  });
  router.post('/api/notifications/read-all', authenticated, async (ctx) => {
    const marked = await markAllRead(ctx.services.db.knex, reader(ctx));
    ctx.body = { marked, unread: 0 };
  });
  router.post('/api/notifications/:id/read', authenticated, validate(IdParams, 'params'), async (ctx) => {
    const { id } = ctx.state.input as z.infer<typeof IdParams>;
    const db = ctx.services.db.knex;
    if (!(await markRead(db, reader(ctx), id))) throw notFound(messages.common.notFound);
    ctx.body = { unread: await unreadCount(db, reader(ctx)) };
  });
  return router;
}
