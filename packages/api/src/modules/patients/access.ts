import { type Action, type RecordScope, recordScope, type SubjectName } from '@wellrest/core';
import type { Knex } from 'knex';
import sql, { join, raw, type Sql } from 'sql-template-tag';
import {
  type AuditDetails,
  type AuditEvent,
  type AuditOutcome,
  audit,
  auditInsert,
  OPERATION_AUDIT_ACTIONS,
  type OperationAuditAction,
} from '../../audit/audit.js';
import { type AppAbility, type AppContext, dbOf } from '../../http/context.js';
import { forbidden, notFound } from '../../http/errors.js';

// What the data-access layer of the operations modules shares: row scopes built from the
// caller's ability (a physician's store only ever sees that physician's patients), and one audit
// event per request naming the records touched.

export { OPERATION_AUDIT_ACTIONS, type OperationAuditAction };

/** At most this many ids are listed in one event; the count is always exact. */
const AUDIT_ID_LIMIT = 500;

export interface AccessEvent {
  action: OperationAuditAction;
  entityType: 'patient' | 'booking' | 'agreement' | 'search' | 'ghl';
  /** The records read or written. */
  ids: readonly number[];
  outcome?: AuditOutcome;
  details?: AuditDetails;
}

interface IdSummary {
  first: number | undefined;
  count: number;
  listed: string;
  truncated: boolean;
}

/** Summaries of frozen id lists (a kept answer's), made once per list. */
const summaries = new WeakMap<readonly number[], IdSummary>();

function summarize(ids: readonly number[]): IdSummary {
  const known = summaries.get(ids);
  if (known) return known;
  const distinct = [...new Set(ids)];
  const summary = {
    first: distinct[0],
    count: distinct.length,
    listed: distinct.slice(0, AUDIT_ID_LIMIT).join(','),
    truncated: distinct.length > AUDIT_ID_LIMIT,
  };
  if (Object.isFrozen(ids)) summaries.set(ids, summary);
  return summary;
}

/** Records one access to patient data: who, which records, from where. Identifiers only. */
export async function recordAccess(db: Knex, ctx: AppContext, event: AccessEvent): Promise<void> {
  await audit(db, ctx, accessAuditEvent(event));
}

/** {@link recordAccess}'s insert, not yet run: to be written with the statement a request ends on. */
export function accessInsert(db: Knex, ctx: AppContext, event: AccessEvent): Knex.QueryBuilder {
  return auditInsert(db, ctx, accessAuditEvent(event));
}

function accessAuditEvent(event: AccessEvent): AuditEvent {
  const ids = summarize(event.ids);
  return {
    action: event.action,
    outcome: event.outcome ?? 'success',
    entityType: event.entityType,
    entityId: ids.count === 1 ? ids.first : null,
    details: {
      ...event.details,
      count: ids.count,
      ids: ids.listed,
      ...(ids.truncated ? { idsTruncated: true } : {}),
    },
  };
}

/** The caller's ability; every route of these modules sits behind `can`, so it is always there. */
export function abilityOf(ctx: AppContext): AppAbility {
  const ability = ctx.state.ability;
  if (!ability) throw forbidden();
  return ability;
}

/** Database columns of the fields ability conditions name. */
export type ScopeColumns = Readonly<Record<string, string>>;

/**
 * Limits a query to the rows `scope` allows. A condition on a field with no mapped column, or
 * with a value that is not a plain scalar, allows nothing: scoping fails closed.
 */
export function applyScope(query: Knex.QueryBuilder, scope: RecordScope, columns: ScopeColumns): void {
  if (scope.kind === 'all') return;
  if (scope.kind === 'none') {
    query.whereRaw('false');
    return;
  }
  query.where((any) => {
    for (const conditions of scope.anyOf) {
      any.orWhere((all) => {
        const entries = Object.entries(conditions);
        if (entries.length === 0) all.whereRaw('false');
        for (const [field, value] of entries) {
          const column = columns[field];
          if (column === undefined || (typeof value !== 'number' && typeof value !== 'string')) {
            all.whereRaw('false');
          } else {
            all.where(column, value);
          }
        }
      });
    }
  });
}

/**
 * {@link applyScope}'s condition as SQL text for a statement written by hand (`sql-template-tag`),
 * failing closed the same way. Columns are the module's own constants, never input.
 */
export function scopeCondition(scope: RecordScope, columns: ScopeColumns): Sql {
  if (scope.kind === 'all') return raw('true');
  if (scope.kind === 'none') return raw('false');
  const any = scope.anyOf.map((conditions) => {
    const entries = Object.entries(conditions);
    if (entries.length === 0) return raw('false');
    const all = entries.map(([field, value]) => {
      const column = columns[field];
      if (column === undefined || (typeof value !== 'number' && typeof value !== 'string'))
        return raw('false');
      return sql`${raw(
        column
          .split('.')
          .map((part) => `"${part}"`)
          .join('.'),
      )} = ${value}`;
    });
    return sql`(${join(all, ' AND ')})`;
  });
  return any.length === 0 ? raw('false') : sql`(${join(any, ' OR ')})`;
}

/**
 * Whether a record with these field values is within `scope`: applyScope's rule for records held
 * in memory, failing closed the same way.
 */
export function withinScope(scope: RecordScope, fields: Readonly<Record<string, unknown>>): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'none') return false;
  return scope.anyOf.some((conditions) => {
    const entries = Object.entries(conditions);
    return (
      entries.length > 0 &&
      entries.every(([field, value]) => {
        if (!(field in fields) || (typeof value !== 'number' && typeof value !== 'string')) return false;
        const actual = fields[field];
        return actual !== null && actual !== undefined && String(actual) === String(value);
      })
    );
  });
}

/** Scope columns of patient and booking rows: both belong to the patient's physician. */
export const PATIENT_SCOPE: ScopeColumns = { physicianId: 'patients.physician_id' };

/** The scope of `action` on `subject` for the caller. */
export function scopeOf(ctx: AppContext, action: Action, subject: SubjectName): RecordScope {
  return recordScope(abilityOf(ctx), action, subject);
}

/** A scoped data-access handle: the request's database handle and the caller's context. */
export interface AccessContext {
  db: Knex;
  ctx: AppContext;
}

export function accessFor(ctx: AppContext): AccessContext {
  return { db: dbOf(ctx), ctx };
}

/** The `:id` of the route as a database id; anything else names no record (404). */
export function idParam(ctx: AppContext): number {
  const raw = (ctx as AppContext & { params?: Record<string, string> }).params?.id ?? '';
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw notFound();
  return id;
}
