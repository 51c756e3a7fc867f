import { type AuditCursor, type AuditLogFilter, type AuditLogQuery, encodeAuditCursor } from '@wellrest/core';
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

export interface AuditEventDetail extends AuditEventView {
  /** The event's link in the hash chain (null only for an event slipped in past the trigger). */
  chain: { lane: number; seq: number; prevHash: string; hash: string } | null;
}

type Row = AuditEventRow & { at_micros: string };

function selectEvents(db: Knex): Knex.QueryBuilder {
  return db('audit_events').select('*', db.raw('audit_time_micros(occurred_at) AS at_micros'));
}

/** Events strictly after `cursor` in newest-first order. */
function after(query: Knex.QueryBuilder, cursor: AuditCursor | undefined): Knex.QueryBuilder {
  if (cursor)
    query.whereRaw('(occurred_at, id) < (audit_micros_time(?::bigint), ?::bigint)', [
      cursor.atMicros,
      cursor.id,
    ]);
  return query.orderBy([
    { column: 'occurred_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
}

const cursorOf = (row: Row): AuditCursor => ({ atMicros: Number(row.at_micros), id: Number(row.id) });

function toView(row: AuditEventRow): AuditEventView {
  return {
    id: Number(row.id),
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

/**
 * The filters as SQL. Each has an index that leads with its column and ends with
 * (occurred_at, id) (migration 0851), so a filtered page is an index range scan too.
 */
export function applyAuditFilter(query: Knex.QueryBuilder, filter: AuditLogFilter): Knex.QueryBuilder {
  if (filter.action) query.where('action', filter.action);
  if (filter.actorUsername) query.whereRaw('lower(actor_username) = lower(?)', [filter.actorUsername]);
  if (filter.entityType) query.where('entity_type', filter.entityType);
  if (filter.entityId) query.where('entity_id', filter.entityId);
  if (filter.outcome) query.where('outcome', filter.outcome);
  if (filter.patientId !== undefined) {
    const id = String(filter.patientId);
    // The record itself, or a list or search that showed it (its id among the event's ids). The
    // matching ids are gathered first (a bitmap of two indexes), so the planner never walks the
    // whole time index hoping to meet a rare patient's events.
    query.whereRaw(
      `id = ANY(ARRAY(SELECT id FROM audit_events WHERE entity_type = 'patient'
         AND (entity_id = ? OR string_to_array(details->>'ids', ',') @> ARRAY[?]::text[])))`,
      [id, id],
    );
  }
  if (filter.from) query.where('occurred_at', '>=', filter.from);
  if (filter.to) query.where('occurred_at', '<=', filter.to);
  return query;
}

/** One page of the audit trail, newest first, and the cursor of the next one. */
export async function auditPage(
  db: Knex,
  query: AuditLogQuery,
): Promise<{ items: AuditEventView[]; nextCursor: string | null; pageSize: number }> {
  const rows = (await after(applyAuditFilter(selectEvents(db), query), query.cursor).limit(
    query.pageSize + 1,
  )) as Row[];
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    items: page.map(toView),
    nextCursor: rows.length > query.pageSize && last ? encodeAuditCursor(cursorOf(last)) : null,
    pageSize: query.pageSize,
  };
}

export async function auditEvent(db: Knex, id: number): Promise<AuditEventDetail | undefined> {
  const row = await db('audit_events as e')
    .leftJoin('audit_chain as c', 'c.event_id', 'e.id')
    .where('e.id', id)
    .first<
      | (AuditEventRow & {
          lane: number | null;
          seq: string | null;
          prev_hash: string | null;
          hash: string | null;
        })
      | undefined
    >('e.*', 'c.lane', 'c.seq', 'c.prev_hash', 'c.hash');
  if (!row) return undefined;
  return {
    ...toView(row),
    chain:
      row.seq === null
        ? null
        : {
            lane: Number(row.lane),
            seq: Number(row.seq),
            prevHash: row.prev_hash ?? '',
            hash: row.hash ?? '',
          },
  };
}

const EXPORT_BATCH = 2000;

/** Every event matching the filter, newest first, fetched a batch at a time (keyset). */
export async function* auditEventsMatching(db: Knex, filter: AuditLogFilter): AsyncGenerator<AuditEventView> {
  let cursor: AuditCursor | undefined;
  for (;;) {
    const rows = (await after(applyAuditFilter(selectEvents(db), filter), cursor).limit(
      EXPORT_BATCH,
    )) as Row[];
    for (const row of rows) yield toView(row);
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return;
    cursor = cursorOf(last);
  }
}
