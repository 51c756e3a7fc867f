import { Readable } from 'node:stream';
import Router from '@koa/router';
import { AuditLogFilter, AuditLogQuery } from '@wellrest/core';
import { type AuditDetails, audit } from '../../audit/audit.js';
import { verifyAuditChain } from '../../audit/chain.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { csvRow } from '../patients/csv.js';
import { accessReportPdf } from './access-report.js';
import { type AuditEventView, auditEvent, auditEventsMatching, auditPage } from './store.js';

// /admin/audit-logs: the trail, keyset-paged and filtered, each event's detail, a streamed CSV
// export and the hash-chain check. Every one of these reads is itself recorded.

/** The filters as audit details: which were used, never free text that could hold PHI. */
function filterDetails(filter: AuditLogFilter): AuditDetails {
  return {
    action: filter.action ?? null,
    entityType: filter.entityType ?? null,
    entityId: filter.entityId ?? null,
    patientId: filter.patientId ?? null,
    outcome: filter.outcome ?? null,
    byActor: Boolean(filter.actorUsername),
    from: filter.from?.toISOString() ?? null,
    to: filter.to?.toISOString() ?? null,
  };
}

async function listAuditEvents(ctx: AppContext & { state: { input: AuditLogQuery } }): Promise<void> {
  const db = dbOf(ctx);
  const query = ctx.state.input;
  const page = await auditPage(db, query);
  await audit(db, ctx, {
    action: 'audit_log.read',
    outcome: 'success',
    entityType: 'audit_log',
    details: { ...filterDetails(query), pageSize: query.pageSize, paged: Boolean(query.cursor) },
  });
  ctx.body = page;
}

async function showAuditEvent(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const event = await auditEvent(db, idParam(ctx));
  if (!event) throw notFound();
  await audit(db, ctx, {
    action: 'audit_log.view',
    outcome: 'success',
    entityType: 'audit_event',
    entityId: event.id,
  });
  ctx.body = event;
}

export const AUDIT_CSV_HEADER = [
  'Event',
  'Time (UTC)',
  'User',
  'User id',
  'Action',
  'Outcome',
  'Record type',
  'Record id',
  'IP address',
  'User agent',
  'Details',
] as const;

async function exportAuditEvents(ctx: AppContext & { state: { input: AuditLogFilter } }): Promise<void> {
  const filter = ctx.state.input;
  const db = ctx.services.db.knex;
  // The first batch is read before anything is written or sent: a filter the database refuses
  // (a value it cannot compare) is answered 400, with no export recorded.
  const events = auditEventsMatching(db, filter);
  const first = await events.next();
  // Recorded before the first byte leaves: an export cut short was still an export.
  await audit(db, ctx, {
    action: 'audit_log.export',
    outcome: 'success',
    entityType: 'audit_log',
    details: filterDetails(filter),
  });
  async function* all(): AsyncGenerator<AuditEventView> {
    if (first.done) return;
    yield first.value;
    yield* events;
  }
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${csvRow([...AUDIT_CSV_HEADER])}`;
    let chunk = '';
    for await (const e of all()) {
      chunk += csvRow([
        e.id,
        e.occurredAt,
        e.actorUsername,
        e.actorUserId,
        e.action,
        e.outcome,
        e.entityType,
        e.entityId,
        e.ip,
        e.userAgent,
        JSON.stringify(e.details),
      ]);
      if (chunk.length > 64_000) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set(
    'Content-Disposition',
    `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
  );
  ctx.set('Cache-Control', 'no-store');
  const body = Readable.from(lines());
  // Once the answer has started its status cannot change: a batch that fails later (the database
  // gone) ends the connection, so the download fails instead of waiting for the rest forever.
  body.once('error', () => ctx.res.destroy());
  ctx.body = body;
}

/** At most this many events in one PDF; the CSV export has no limit. */
const ACCESS_REPORT_LIMIT = 10_000;

async function accessReport(ctx: AppContext): Promise<void> {
  const patientId = idParam(ctx, 'patientId');
  const db = ctx.services.db.knex;
  const patient = await db('patients').where({ id: patientId }).first<{ name: string } | undefined>('name');
  if (!patient) throw notFound();
  const events: AuditEventView[] = [];
  for await (const event of auditEventsMatching(db, { patientId })) {
    events.push(event);
    if (events.length >= ACCESS_REPORT_LIMIT) break;
  }
  await audit(db, ctx, {
    action: 'audit_log.export',
    outcome: 'success',
    entityType: 'patient',
    entityId: patientId,
    details: { format: 'pdf', patientId, count: events.length },
  });
  const pdf = await accessReportPdf({
    patientId,
    patientName: patient.name,
    practiceName: await ctx.services.settings.get('practiceName'),
    generatedAt: new Date(),
    events,
  });
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `attachment; filename="access-report-patient-${patientId}.pdf"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Buffer.from(pdf);
}

async function verifyChain(ctx: AppContext): Promise<void> {
  const db = ctx.services.db.knex;
  const result = await verifyAuditChain(db);
  await audit(db, ctx, {
    action: 'audit_chain.verify',
    outcome: result.ok ? 'success' : 'failure',
    entityType: 'audit_log',
    details: {
      ok: result.ok,
      checked: result.checked,
      brokenLane: result.firstBroken?.lane ?? null,
      brokenSeq: result.firstBroken?.seq ?? null,
      brokenEventId: result.firstBroken?.eventId ?? null,
      reason: result.firstBroken?.reason ?? null,
    },
  });
  ctx.body = result;
}

export function auditRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get<{ input: AuditLogQuery }>(
    '/api/admin/audit-logs',
    can('read', 'AuditLog'),
    validate(AuditLogQuery, 'query'),
    listAuditEvents,
  );
  router.get<{ input: AuditLogFilter }>(
    '/api/admin/audit-logs/export',
    can('read', 'AuditLog'),
    validate(AuditLogFilter, 'query'),
    exportAuditEvents,
  );
  router.get('/api/admin/audit-logs/verification', can('read', 'AuditLog'), verifyChain);
  router.get('/api/admin/hipaa/access-report/:patientId', can('read', 'AuditLog'), accessReport);
  router.get('/api/admin/audit-logs/:id', can('read', 'AuditLog'), showAuditEvent);
  return router;
}
