import type { AuditLogQuery } from '@wellrest/core';
import type { Knex } from 'knex';
import type { AuditEventRow } from '../../audit/audit.js';

export interface AuditEventView {
  id: number;
  occurredAt: string;
  actorUserId: number | null;
  actorUsername: string | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  outcome: string;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

function toView(row: AuditEventRow): AuditEventView {
  return {
    id: row.id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    actorUserId: row.actor_user_id,
    actorUsername: row.actor_username,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    outcome: row.outcome,
    ip: row.ip,
    userAgent: row.user_agent,
    details: row.details,
  };
}

/** One page of the audit trail, newest first, with the total matching the filters. */
export async function auditPage(
  db: Knex,
  query: AuditLogQuery,
): Promise<{ items: AuditEventView[]; total: number; page: number; pageSize: number }> {
  const filtered = db<AuditEventRow>('audit_events').where((q) => {
    if (query.action) q.where('action', query.action);
    if (query.actorUsername) q.whereRaw('lower(actor_username) = lower(?)', [query.actorUsername]);
    if (query.entityType) q.where('entity_type', query.entityType);
    if (query.from) q.where('occurred_at', '>=', query.from);
    if (query.to) q.where('occurred_at', '<=', query.to);
  });
  const counted = await filtered.clone().count({ n: '*' }).first();
  const rows = await filtered
    .clone()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    items: (rows as AuditEventRow[]).map(toView),
    total: Number(counted?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}
