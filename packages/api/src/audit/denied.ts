import type { SubjectName } from '@wellrest/core';
import type { Middleware } from 'koa';
import type { AppContext, AppContextExtension, AppState } from '../http/context.js';
import { HttpError } from '../http/errors.js';
import { routeOf } from '../http/request-log.js';
import { audit } from './audit.js';

// HIPAA 164.312(b) asks for attempts too: a request to a route holding patient data that was
// refused (401, 403) or aimed at a record out of the caller's reach (404: a physician asking for
// another physician's patient gets the same answer as for one that does not exist) is recorded
// as `access.denied`. Recording is rate-limited per caller, so a flood of refused requests
// cannot fill the table: past the limit they are counted, and the count rides on the next event
// that is written.

/** Subjects whose routes hold patient data (or, for the audit log, who looked at it). */
export const PHI_SUBJECTS: ReadonlySet<SubjectName> = new Set<SubjectName>([
  'Patient',
  'Booking',
  'Referral',
  'Agreement',
  'FormSubmission',
  'Search',
  'Dashboard',
  'Delivery',
  'WebhookLog',
  'AuditLog',
]);

const AUDITED_STATUSES = new Set([401, 403, 404]);

export interface DeniedAuditLimits {
  /** Events recorded per caller (user, else address) per window. */
  perCaller: number;
  /** Events recorded per process per window, whoever the callers. */
  total: number;
  windowMs: number;
}

export const DENIED_AUDIT_LIMITS: DeniedAuditLimits = { perCaller: 20, total: 600, windowMs: 60_000 };

interface Bucket {
  windowStart: number;
  recorded: number;
  suppressed: number;
}

/** Decides, per caller and window, whether one more refusal is recorded. */
export class DeniedAuditLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private windowStart = 0;
  private recordedTotal = 0;

  constructor(private readonly limits: DeniedAuditLimits = DENIED_AUDIT_LIMITS) {}

  /** Whether to record; when yes, how many refusals of this caller went unrecorded before it. */
  take(key: string, now = Date.now()): { record: false } | { record: true; suppressed: number } {
    if (now - this.windowStart >= this.limits.windowMs) {
      this.windowStart = now;
      this.recordedTotal = 0;
      // Old windows go; callers with an unreported count keep it until their next event.
      for (const [k, bucket] of this.buckets) if (bucket.suppressed === 0) this.buckets.delete(k);
    }
    let bucket = this.buckets.get(key);
    if (!bucket || now - bucket.windowStart >= this.limits.windowMs) {
      bucket = { windowStart: now, recorded: 0, suppressed: bucket?.suppressed ?? 0 };
      this.buckets.set(key, bucket);
    }
    if (bucket.recorded >= this.limits.perCaller || this.recordedTotal >= this.limits.total) {
      bucket.suppressed++;
      return { record: false };
    }
    bucket.recorded++;
    this.recordedTotal++;
    const suppressed = bucket.suppressed;
    bucket.suppressed = 0;
    return { record: true, suppressed };
  }
}

function entityIdOf(ctx: AppContext): string | null {
  const id = (ctx as AppContext & { params?: Record<string, string> }).params?.id;
  // Ids only: a path segment that is not one is left out rather than copied into the trail.
  return id && /^[0-9a-zA-Z-]{1,64}$/.test(id) ? id : null;
}

/** Records refused requests to patient-data routes; mount after the session is loaded. */
export function auditDeniedAccess(
  limiter = new DeniedAuditLimiter(),
): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const access = ctx.state.access;
      if (
        error instanceof HttpError &&
        AUDITED_STATUSES.has(error.status) &&
        access &&
        PHI_SUBJECTS.has(access.subject)
      ) {
        const user = ctx.state.user;
        const decision = limiter.take(user ? `user:${user.id}` : `ip:${ctx.ip}`);
        if (decision.record) {
          try {
            await audit(ctx.services.db.knex, ctx, {
              action: 'access.denied',
              outcome: error.status === 404 ? 'failure' : 'denied',
              entityType: access.subject.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(),
              entityId: entityIdOf(ctx),
              details: {
                status: error.status,
                method: ctx.method,
                route: routeOf(ctx),
                ability: access.action,
                ...(decision.suppressed > 0 ? { unrecordedBefore: decision.suppressed } : {}),
              },
            });
          } catch (auditError) {
            // The refusal stands either way; a failed record is logged, never answered as a 500.
            ctx.services.logger.error(
              { err: { kind: (auditError as Error)?.name }, route: routeOf(ctx) },
              'could not record a refused request',
            );
          }
        }
      }
      throw error;
    }
  };
}
