import type { RegistrationStatus, Role } from '@wellrest/core';
import type { Knex } from 'knex';
import type { AuditAction } from '../../audit/audit.js';

export interface RegistrationRow {
  id: number;
  name: string;
  username: string;
  email: string;
  requested_role: Role;
  reason: string;
  status: RegistrationStatus;
  created_at: Date;
  decided_at: Date | null;
  decided_by: number | null;
  decision_reason: string | null;
  user_id: number | null;
  ip: string | null;
  user_agent: string | null;
}

/** A request as an administrator reviews it. */
export interface RegistrationView {
  id: number;
  name: string;
  username: string;
  email: string;
  requestedRole: Role;
  reason: string;
  status: RegistrationStatus;
  createdAt: string;
  decidedAt: string | null;
  decisionReason: string | null;
  userId: number | null;
}

export function toRegistrationView(row: RegistrationRow): RegistrationView {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    requestedRole: row.requested_role,
    reason: row.reason,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    decisionReason: row.decision_reason,
    userId: row.user_id,
  };
}

/** True when a pending request or an account already uses this username or email. */
export async function registrationClashes(db: Knex, username: string, email: string): Promise<boolean> {
  const pending = await db('registrations')
    .where({ status: 'pending' })
    .andWhere((q) =>
      q.whereRaw('lower(username) = lower(?)', [username]).orWhereRaw('lower(email) = lower(?)', [email]),
    )
    .first('id');
  if (pending) return true;
  const account = await db('users')
    .whereRaw('lower(username) = lower(?)', [username])
    .orWhereRaw('lower(email) = lower(?)', [email])
    .first('id');
  return account !== undefined;
}

/** The audit action of an access request, accepted or refused; the rate limit counts it. */
export const ACCESS_REQUEST_ACTION = 'registration.create' satisfies AuditAction;

/** Access requests received from `ip` within the last `minutes`, from the audit trail. */
export async function recentRequestsFrom(db: Knex, ip: string | null, minutes: number): Promise<number> {
  if (!ip) return 0;
  // The action written into the statement, not bound: only then can every plan use the partial
  // index that holds these events alone (migration 0930).
  const row = await db('audit_events')
    .where({ ip })
    .andWhereRaw(`action = '${ACCESS_REQUEST_ACTION}'`)
    .andWhereRaw('occurred_at > now() - make_interval(mins => ?)', [minutes])
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}
