import type { Middleware } from 'koa';
import { type AuditEvent, audit } from '../../audit/audit.js';
import type { AppContextExtension, AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';

// A record outside the caller's scope answers 404, exactly as a missing one does, and the
// attempt is audited. The audit row is written outside the request's transaction, which the
// 404 rolls back.

export class DeniedError extends Error {
  override name = 'DeniedError';
  constructor(readonly event: AuditEvent) {
    super('denied');
  }
}

export function denied(event: Omit<AuditEvent, 'outcome'>): DeniedError {
  return new DeniedError({ ...event, outcome: 'denied' });
}

/** Put before `inTransaction`: records a DeniedError's attempt, then answers 404. */
export const auditDenials: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof DeniedError)) throw error;
    await audit(ctx.services.db.knex, ctx, error.event);
    throw notFound();
  }
};
