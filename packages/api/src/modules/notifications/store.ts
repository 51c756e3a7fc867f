import type { Role } from '@wellrest/core';
import type { Knex } from 'knex';

// In-app notifications: each goes to one user or to everyone with a role; who has read a role
// notification is kept per user.

export interface NewNotification {
  userId?: number | null;
  role?: Role | null;
  kind: string;
  title: string;
  body?: string | null;
  link?: string | null;
}

export interface NotificationView {
  id: number;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  createdAt: string;
  read: boolean;
}

export async function notify(db: Knex, notification: NewNotification): Promise<number> {
  const [row] = await db('notifications')
    .insert({
      user_id: notification.userId ?? null,
      role: notification.role ?? null,
      kind: notification.kind,
      title: notification.title,
      body: notification.body ?? null,
      link: notification.link ?? null,
    })
    .returning('id');
  return (row as { id: number }).id;
}

interface Reader {
  id: number;
  role: Role;
}

/** The notifications a user may see: their own and their role's. */
function visibleTo(db: Knex, reader: Reader): Knex.QueryBuilder {
  return db('notifications as n').where((q) =>
    q.where('n.user_id', reader.id).orWhere('n.role', reader.role),
  );
}

export async function listNotifications(
  db: Knex,
  reader: Reader,
  limit: number,
): Promise<NotificationView[]> {
  const rows = await visibleTo(db, reader)
    .leftJoin('notification_reads as r', (j) =>
      j.on('r.notification_id', 'n.id').andOn('r.user_id', db.raw('?', [reader.id])),
    )
    .orderBy('n.id', 'desc')
    .limit(limit)
    .select('n.id', 'n.kind', 'n.title', 'n.body', 'n.link', 'n.created_at', 'r.read_at');
  return rows.map((row: Record<string, unknown>) => ({
    id: Number(row.id),
    kind: row.kind as string,
    title: row.title as string,
    body: (row.body as string | null) ?? null,
    link: (row.link as string | null) ?? null,
    createdAt: new Date(row.created_at as string).toISOString(),
    read: row.read_at !== null && row.read_at !== undefined,
  }));
}

export async function unreadCount(db: Knex, reader: Reader): Promise<number> {
  const [row] = await visibleTo(db, reader)
    .whereNotExists((q) =>
      q
        .select(db.raw('1'))
        .from('notification_reads as r')
        .whereRaw('r.notification_id = n.id')
        .andWhere('r.user_id', reader.id),
    )
    .count({ count: '*' });
  return Number((row as { count: number | string }).count);
}

/** Marks one notification read; false when the user may not see it. */
export async function markRead(db: Knex, reader: Reader, id: number): Promise<boolean> {
  const visible = await visibleTo(db, reader).where('n.id', id).first('n.id');
  if (!visible) return false;
  await db('notification_reads')
    .insert({ notification_id: id, user_id: reader.id })
    .onConflict(['notification_id', 'user_id'])
    .ignore();
  return true;
}

export async function markAllRead(db: Knex, reader: Reader): Promise<number> {
  const result = await db.raw(
    `INSERT INTO notification_reads (notification_id, user_id)
     SELECT n.id, ? FROM notifications n
     WHERE (n.user_id = ? OR n.role = ?)
       AND NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.notification_id = n.id AND r.user_id = ?)
     ON CONFLICT DO NOTHING`,
    [reader.id, reader.id, reader.role, reader.id],
  );
  return Number(result.rowCount ?? 0);
}
