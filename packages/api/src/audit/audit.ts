import type { Knex } from 'knex';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import type { AppContext } from '../http/context.js';
import { clientInfo } from '../http/context.js';

/** Codes of patient-data access, recorded by the operations modules' data-access layer. */
export const OPERATION_AUDIT_ACTIONS = [
  'patient.list',
  'patient.read',
  'patient.create',
  'patient.update',
  'patient.export',
  'patient.duplicate_check',
  'booking.list',
  'booking.read',
  'booking.create',
  'booking.status_change',
  'booking.extend',
  'booking.reduce',
  'booking.eligibility',
  'agreement.initiate',
  'agreement.resign',
  'dashboard.availability',
  'search.query',
  'ghl.sync',
  'ghl.report',
  'ghl.resolve',
] as const;
export type OperationAuditAction = (typeof OPERATION_AUDIT_ACTIONS)[number];

/**
 * Every kind of event the audit trail records. Codes are `<area>.<verb>`; add new ones here so
 * reports can rely on a closed list.
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.logout',
  'auth.lockout',
  'auth.session_idle_timeout',
  'auth.session_revoke',
  'auth.password_change',
  'auth.password_set',
  'auth.two_factor_setup',
  'auth.two_factor_enable',
  'auth.two_factor_disable',
  'auth.recovery_code_use',
  'auth.trusted_device_add',
  'auth.trusted_device_revoke',
  'privacy.acknowledge',
  'registration.create',
  'registration.approve',
  'registration.reject',
  'user.create',
  'user.update',
  'user.password_reset',
  'user.sessions_revoke',
  'user.unlock',
  'setting.update',
  'setting.test_connection',
  'audit_log.read',
  'audit_log.view',
  'audit_log.export',
  'audit_chain.verify',
  // A request to patient data refused (401, 403) or aimed at a record out of reach (404).
  'access.denied',
  // Webhooks (modules/webhooks): received, listed, replayed.
  'webhook.receive',
  'webhook_log.list',
  'webhook_log.replay',
  ...OPERATION_AUDIT_ACTIONS,
  // Inventory and scanning (modules/kits, scans, inventory).
  'kit.create',
  'kit.update',
  'kit.retire',
  'kit.cleaning',
  'kit.maintenance',
  'kit.history',
  'kit.scan',
  'maintenance_schedule.update',
  'inventory.overview',
  // Public forms and what staff do with them (modules/public, embed-keys, referrals, agreements, dropoffs).
  'embed_key.create',
  'embed_key.update',
  'embed_key.revoke',
  'embed_key.restore',
  'embed_key.replace',
  'public.booking_request',
  'public.referral',
  'public.physician_signup',
  'public.dropoff',
  'public.refused',
  'booking_request.list',
  'referral.list',
  'physician_signup.list',
  'physician_signup.approve',
  'physician_signup.reject',
  'agreement.view',
  'agreement.sign',
  'agreement.list',
  'agreement.pdf',
  'dropoff.list',
  'dropoff.confirm',
  // E-forms (modules/forms): templates, submissions of patients' answers, token links, files.
  'form_template.create',
  'form_template.update',
  'form_template.publish',
  'form_template.archive',
  'form_submission.create',
  'form_submission.list',
  'form_submission.read',
  'form_submission.pdf',
  'form_submission.file',
  'form_link.create',
  'form_link.view',
  'form_file.upload',
  // Templates, deliveries and delivery settings (modules/templates, deliveries).
  'template.create',
  'template.update',
  'template.test_send',
  'delivery.list',
  'delivery.view',
  'delivery.retry',
  'messaging_settings.update',
  // Workflows (modules/workflows): changes, a dry run against a record, a step retried, what runs do.
  'workflow.create',
  'workflow.update',
  'workflow.enable',
  'workflow.disable',
  'workflow.duplicate',
  'workflow.delete',
  'workflow.install',
  'workflow.test',
  'workflow.step_retry',
  'workflow.action',
  // Housekeeping (modules/housekeeping): a purge run, a retention changed.
  'housekeeping.run',
  'housekeeping_settings.update',
  // The clinical pathway (modules/physicians, referrals, interpretations, sla).
  'physician.list',
  'physician.read',
  'physician.create',
  'physician.update',
  'physician.approve',
  'physician.reject',
  'physician.export',
  'physician.link_user',
  'physician.unlink_user',
  'referral.read',
  'referral.create',
  'referral.status_change',
  'referral.link_booking',
  'referral.link_patient',
  'referral.patient_matches',
  'referral.attachment_upload',
  'referral.attachment_read',
  'interpretation.list',
  'interpretation.read',
  'interpretation.assign',
  'interpretation.update',
  'interpretation.sign',
  'interpretation.addendum',
  'report.download',
  'sla_definition.create',
  'sla_definition.update',
  'sla_definition.delete',
  'sla.dashboard',
  // The read-only FHIR R4 API (modules/fhir): a resource read, a search.
  'fhir.read',
  'fhir.search',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditOutcome = 'success' | 'failure' | 'denied';

/** Identifiers, counts and reason codes only: never names, contact details or clinical data. */
export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditEvent {
  action: AuditAction;
  outcome: AuditOutcome;
  entityType?: string;
  entityId?: string | number | null;
  details?: AuditDetails;
  /** Who acted, when it is not (yet) the request's signed-in user, e.g. at sign-in or from the CLI. */
  actor?: { id: number | null; username: string | null };
}

export interface AuditEventRow {
  id: number;
  occurred_at: Date;
  actor_user_id: number | null;
  actor_username: string | null;
  action: AuditAction;
  entity_type: string | null;
  entity_id: string | null;
  outcome: AuditOutcome;
  ip: string | null;
  user_agent: string | null;
  details: AuditDetails;
}

/**
 * Appends one event to the audit trail. Pass the request's transaction as `db` when there is
 * one, so the event commits or rolls back with the change it describes.
 */
export async function audit(db: Knex, ctx: AppContext | undefined, event: AuditEvent): Promise<void> {
  await auditInsert(db, ctx, event)
    // Prepared once per connection (the same columns every time): most requests write one.
    .options({ name: 'wellrest-audit-event' });
}

/**
 * The insert of one audit event, not yet run: for a request that writes it together with the
 * statement it ends on (a data-modifying `WITH`), one round trip for both.
 */
export function auditInsert(db: Knex, ctx: AppContext | undefined, event: AuditEvent): Knex.QueryBuilder {
  return db('audit_events').insert({
    ...auditColumns(ctx, event),
    entity_id: event.entityId == null ? null : String(event.entityId),
    details: JSON.stringify(event.details ?? {}),
  });
}

/** An event's columns but its record and details: who acted, what, and from where. */
function auditColumns(ctx: AppContext | undefined, event: Omit<AuditEvent, 'entityId' | 'details'>) {
  const user = ctx?.state.user;
  const actor =
    event.actor ?? (user ? { id: user.id, username: user.username } : { id: null, username: null });
  const client = ctx ? clientInfo(ctx) : { ip: null, userAgent: null };
  return {
    actor_user_id: actor.id,
    actor_username: actor.username,
    action: event.action,
    entity_type: event.entityType ?? null,
    outcome: event.outcome,
    ip: client.ip,
    user_agent: client.userAgent,
  };
}

/**
 * The insert of one audit event whose record id and details the statement it is written with
 * computes (a data-modifying `WITH` of a statement written as SQL text): `entityId` and
 * `details` are expressions over `from`, which yields one row, aggregated; with `having`, only
 * when that holds.
 */
export function auditInsertSelecting(
  ctx: AppContext,
  event: Omit<AuditEvent, 'entityId' | 'details'>,
  computed: { from: Sql; entityId: Sql; details: Sql; having?: Sql | undefined },
): Sql {
  const columns = Object.entries(auditColumns(ctx, event));
  return sql`INSERT INTO audit_events (${raw(columns.map(([column]) => column).join(', '))}, entity_id, details)
    SELECT ${join(columns.map(([, value]) => value))}, ${computed.entityId}, ${computed.details}
    FROM ${computed.from}${computed.having ? sql` HAVING ${computed.having}` : empty}`;
}
