import Router from '@koa/router';
import {
  GHL_ACTIONS_BY_KIND,
  type GhlIssue,
  type GhlIssueKind,
  GhlResolveInput,
  type GhlSyncReport,
  type GhlSyncResult,
  type GhlSyncRun,
  ghlMessages,
  messages,
  operationMessages,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppServices, AppState } from '../../http/context.js';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { idParam } from '../patients/access.js';
import { GhlError, type GhlSettings } from './client.js';
import {
  fingerprint,
  GHL_CONTACT_SOURCE,
  ghlClient,
  rememberSyncedName,
  runGhlSync,
  splitName,
} from './sync.js';

/** The queue GoHighLevel syncs run on (one waiting and one running at most per key). */
export const GHL_SYNC_QUEUE = 'ghl-sync';
/** The singleton key of a sync staff asked for: a second click joins the waiting run. */
export const GHL_SYNC_KEY = 'ghl.sync';
/** The singleton key of the run that resumes a sync stopped by the daily budget. */
export const GHL_RESUME_KEY = 'ghl.sync.resume';
/** How long the sync call waits for the job before answering that it continues in the background. */
export const GHL_SYNC_WAIT_MS = 20_000;
/** Runs the sync report lists. */
const REPORT_RUNS = 10;
/** Issues the sync report lists at most. */
const REPORT_ISSUES = 500;

/** The GoHighLevel connection settings, or undefined when an administrator has not set them. */
async function ghlSettings(services: AppServices): Promise<GhlSettings | undefined> {
  const settings = await services.settings.all(services.db.knex);
  if (settings.ghlToken === '' || settings.ghlLocationId === '') return undefined;
  return { token: settings.ghlToken, locationId: settings.ghlLocationId, baseUrl: settings.ghlBaseUrl };
}

interface GhlSyncJobData {
  createdBy: number | null;
}

/** Thrown by the sync job to fail with a code the waiting request turns into a message. */
class GhlSyncFailure extends Error {
  override name = 'GhlSyncFailure';
  constructor(readonly code: string) {
    super(code);
  }
}

/**
 * Declares the sync queue on the app's job runtime. A failed sync is not retried by the queue:
 * the person who asked is told why, and a spent daily budget queues its own resume for the
 * next day.
 */
export function defineGhlSyncQueue(services: AppServices): void {
  const db = services.db.knex;
  services.jobs.define<GhlSyncJobData>({
    name: GHL_SYNC_QUEUE,
    policy: 'stately',
    retryLimit: 0,
    expireInSeconds: 60 * 60,
    handler: async (job) => {
      const createdBy = job.data.createdBy ?? null;
      const settings = await ghlSettings(services);
      if (!settings) throw new GhlSyncFailure('not_configured');
      const actor = { id: createdBy, username: null };
      try {
        const outcome = await runGhlSync(db, settings, { createdBy });
        await audit(db, undefined, {
          action: 'ghl.sync',
          outcome: 'success',
          entityType: 'patient',
          actor,
          details: {
            job: job.id,
            run: outcome.runId,
            imported: outcome.imported,
            pushed: outcome.pushed,
            rejected: outcome.rejected,
            conflicts: outcome.conflicts,
            importedIds: outcome.importedIds.slice(0, 500).join(','),
            pushedIds: outcome.pushedIds.slice(0, 500).join(','),
          },
        });
        return {
          run: outcome.runId,
          imported: outcome.imported,
          pushed: outcome.pushed,
          rejected: outcome.rejected,
          conflicts: outcome.conflicts,
        };
      } catch (error) {
        if (!(error instanceof GhlError)) throw error;
        services.logger.warn(
          { job: job.id, kind: error.kind, status: error.status },
          'GoHighLevel sync failed',
        );
        await audit(db, undefined, {
          action: 'ghl.sync',
          outcome: 'failure',
          entityType: 'patient',
          actor,
          details: { job: job.id, reason: error.kind },
        });
        const resumesAt = error.detail.resumesAt;
        if (error.kind === 'daily_limit' && resumesAt) {
          // The next day's budget finishes the work: a run is queued for then.
          await services.jobs.send(GHL_SYNC_QUEUE, { createdBy } satisfies GhlSyncJobData, {
            singletonKey: GHL_RESUME_KEY,
            startAfter: resumesAt,
          });
        }
        throw new GhlSyncFailure(error.kind);
      }
    },
  });
}

function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

async function failureFor(db: Knex, code: string): Promise<HttpError> {
  switch (code) {
    case 'not_configured':
      return badRequest(messages.ghl.notConfigured);
    case 'insecure_url':
      return badRequest(ghlMessages.insecureBaseUrl, { fields: { ghlBaseUrl: ghlMessages.insecureBaseUrl } });
    case 'unauthorized':
      return new HttpError(502, operationMessages.ghlUnauthorized);
    case 'rejected':
      return new HttpError(502, ghlMessages.requestRefused);
    case 'rate_limited':
      return new HttpError(503, ghlMessages.rateLimited);
    case 'daily_limit': {
      const run = await db('ghl_sync_runs')
        .where({ stop_code: 'daily_limit' })
        .orderBy('id', 'desc')
        .first('resumes_at');
      const resumesAt = run?.resumes_at ? new Date(run.resumes_at) : new Date();
      return new HttpError(503, ghlMessages.dailyLimit(formatUtc(resumesAt)));
    }
    default:
      return new HttpError(502, operationMessages.ghlUnavailable);
  }
}

/**
 * Queues a sync (or joins the one already running), works the queue, and answers with the
 * outcome when it is done within GHL_SYNC_WAIT_MS; otherwise 202, and the sync goes on.
 */
async function syncGhl(ctx: AppContext): Promise<void> {
  const { services } = ctx;
  if (!(await ghlSettings(services))) throw badRequest(messages.ghl.notConfigured);
  const data: GhlSyncJobData = { createdBy: ctx.state.user?.id ?? null };
  const id =
    (await services.jobs.send(GHL_SYNC_QUEUE, data, { singletonKey: GHL_SYNC_KEY })) ??
    (await services.jobs.waitingOrActive(GHL_SYNC_QUEUE, GHL_SYNC_KEY));
  const job = id ? await services.jobs.waitFor<GhlSyncJobData>(GHL_SYNC_QUEUE, id, GHL_SYNC_WAIT_MS) : null;
  const output = (job?.output ?? {}) as Record<string, unknown>;
  if (job?.state === 'failed') throw await failureFor(services.db.knex, String(output.code ?? 'internal'));
  if (job?.state !== 'completed') {
    ctx.status = 202;
    ctx.body = { message: operationMessages.ghlSyncContinues } satisfies GhlSyncResult;
    return;
  }
  const counts = {
    imported: Number(output.imported ?? 0),
    pushed: Number(output.pushed ?? 0),
    rejected: Number(output.rejected ?? 0),
    conflicts: Number(output.conflicts ?? 0),
  };
  ctx.body = { message: ghlMessages.syncSummary(counts), ...counts } satisfies GhlSyncResult;
}

interface IssueRow {
  id: number;
  patient_id: number;
  patient_name: string;
  kind: GhlIssueKind;
  field: string | null;
  remote_message: string | null;
  contact_id: string | null;
  other_patient_id: number | null;
  other_patient_name: string | null;
  local_name: string | null;
  remote_name: string | null;
  created_at: Date | string;
}

function issueMessage(row: Pick<IssueRow, 'kind' | 'field' | 'remote_message'>): string {
  if (row.kind === 'rejected') return ghlMessages.rejected(row.field ?? 'contact', row.remote_message ?? '');
  return row.kind === 'duplicate' ? ghlMessages.duplicateConflict : ghlMessages.nameConflict;
}

function toIssue(row: IssueRow): GhlIssue {
  return {
    id: row.id,
    patientId: row.patient_id,
    patientName: row.patient_name,
    kind: row.kind,
    field: row.field,
    message: issueMessage(row),
    contactId: row.contact_id,
    otherPatientId: row.other_patient_id,
    otherPatientName: row.other_patient_name,
    localName: row.local_name,
    remoteName: row.remote_name,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function runMessage(row: {
  status: string;
  stop_code: string | null;
  resumes_at: Date | string | null;
}): string | null {
  if (row.status === 'stopped' && row.stop_code === 'daily_limit')
    return ghlMessages.dailyLimit(formatUtc(new Date(row.resumes_at ?? Date.now())));
  if (row.status !== 'failed') return null;
  if (row.stop_code === 'unauthorized') return operationMessages.ghlUnauthorized;
  if (row.stop_code === 'rejected') return ghlMessages.requestRefused;
  if (row.stop_code === 'rate_limited') return ghlMessages.rateLimited;
  if (row.stop_code === 'insecure_url') return ghlMessages.insecureBaseUrl;
  return operationMessages.ghlUnavailable;
}

// Unknown keys (the console's `_t` cache buster) are ignored.
const ReportQuery = z.object({ patientId: z.coerce.number().int().min(1).max(2_147_483_647).optional() });

/** The sync report: recent runs with their counts, and the open rejections and conflicts. */
async function report(ctx: AppContext & { state: { input: z.infer<typeof ReportQuery> } }): Promise<void> {
  const db = ctx.services.db.knex;
  const { patientId } = ctx.state.input;
  const runs = await db('ghl_sync_runs').orderBy('id', 'desc').limit(REPORT_RUNS);
  const issueQuery = db('ghl_sync_issues as i')
    .join('patients as p', 'p.id', 'i.patient_id')
    .leftJoin('patients as o', 'o.id', 'i.other_patient_id')
    .where('i.status', 'open')
    .orderBy('i.id')
    .limit(REPORT_ISSUES)
    .select('i.*', 'p.name as patient_name', 'o.name as other_patient_name');
  if (patientId !== undefined) issueQuery.where('i.patient_id', patientId);
  const issues = ((await issueQuery) as IssueRow[]).map(toIssue);
  const totals = await db('ghl_sync_issues')
    .where({ status: 'open' })
    .modify((q) => {
      if (patientId !== undefined) q.where({ patient_id: patientId });
    })
    .select(db.raw("count(*) FILTER (WHERE kind = 'rejected')::int AS rejected"))
    .select(db.raw("count(*) FILTER (WHERE kind <> 'rejected')::int AS conflicts"))
    .first();
  const patientIds = [
    ...new Set(issues.flatMap((i) => [i.patientId, ...(i.otherPatientId ? [i.otherPatientId] : [])])),
  ];
  await audit(db, ctx, {
    action: 'ghl.report',
    outcome: 'success',
    entityType: 'patient',
    entityId: patientId ?? null,
    details: { count: patientIds.length, ids: patientIds.slice(0, 500).join(',') },
  });
  ctx.body = {
    runs: runs.map(
      (row): GhlSyncRun => ({
        id: row.id,
        status: row.status,
        imported: row.imported,
        pushed: row.pushed,
        rejected: row.rejected,
        conflicts: row.conflicts,
        message: runMessage(row),
        startedAt: new Date(row.started_at).toISOString(),
        finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
      }),
    ),
    issues,
    counts: { rejected: Number(totals?.rejected ?? 0), conflicts: Number(totals?.conflicts ?? 0) },
  } satisfies GhlSyncReport;
}

/** Staff decide a conflict: link, create a separate contact, skip; or, for a name, which wins. */
async function resolve(ctx: AppContext & { state: { input: GhlResolveInput } }): Promise<void> {
  const db = ctx.services.db.knex;
  const id = idParam(ctx);
  const { action } = ctx.state.input;
  const issue = await db('ghl_sync_issues').where({ id }).first();
  if (!issue) throw notFound(ghlMessages.conflictNotFound);
  if (issue.status !== 'open') throw conflict(ghlMessages.conflictResolved);
  if (!GHL_ACTIONS_BY_KIND[issue.kind as GhlIssueKind].includes(action))
    throw badRequest(ghlMessages.actionNotAllowed, { fields: { action: ghlMessages.actionNotAllowed } });
  const patient = await db('patients')
    .where({ id: issue.patient_id })
    .first('id', 'name', 'email', 'phone', 'ghl_id');
  if (!patient) throw notFound(ghlMessages.conflictNotFound);
  const details: Record<string, string | number | null> = { issue: id, kind: issue.kind, action };

  if (action === 'separate') {
    const settings = await ghlSettings(ctx.services);
    if (!settings) throw badRequest(messages.ghl.notConfigured);
    const email = patient.email.trim();
    const phone = patient.phone.trim();
    let contactId: string;
    try {
      const client = ghlClient(db, settings);
      ({ id: contactId } = await client.createContact({
        ...splitName(patient.name),
        ...(email ? { email } : {}),
        ...(phone ? { phone } : {}),
        source: GHL_CONTACT_SOURCE,
      }));
    } catch (error) {
      if (!(error instanceof GhlError)) throw error;
      await audit(db, ctx, {
        action: 'ghl.resolve',
        outcome: 'failure',
        entityType: 'patient',
        entityId: patient.id,
        details: { ...details, reason: error.kind },
      });
      if (error.kind === 'rejected')
        throw new HttpError(422, ghlMessages.separateRefused(error.detail.remoteMessage ?? ''));
      throw await failureFor(db, error.kind);
    }
    await db.transaction(async (trx) => {
      await trx('patients').where({ id: patient.id }).update({ ghl_id: contactId, updated_at: trx.fn.now() });
      await rememberSyncedName(trx, patient.id, contactId, patient.name);
      await closeIssue(trx, ctx, id, action);
    });
    details.contact = contactId;
  } else {
    await db.transaction(async (trx) => {
      if (action === 'link') {
        // The contact stands for this patient from now on; the patient it stood for is unlinked
        // (and meets the conflict again at the next push, for staff to decide).
        const other = await trx('patients')
          .where({ ghl_id: issue.contact_id })
          .whereNot({ id: patient.id })
          .first('id');
        if (other) {
          await trx('patients').where({ id: other.id }).update({ ghl_id: null, updated_at: trx.fn.now() });
          await trx('ghl_contact_state').where({ patient_id: other.id }).delete();
          details.unlinked = other.id;
        }
        await trx('patients')
          .where({ id: patient.id })
          .update({ ghl_id: issue.contact_id, updated_at: trx.fn.now() });
        await rememberSyncedName(trx, patient.id, issue.contact_id, issue.remote_name ?? patient.name);
      } else if (action === 'theirs') {
        await trx('patients')
          .where({ id: patient.id })
          .update({ name: issue.remote_name, updated_at: trx.fn.now() });
        await rememberSyncedName(trx, patient.id, issue.contact_id, issue.remote_name);
      } else if (action === 'ours') {
        // GoHighLevel's name counts as seen: from now on only a new change on its side comes in.
        await rememberSyncedName(trx, patient.id, issue.contact_id, issue.remote_name);
      } else if (action === 'skip') {
        // Stays out of the push for the details it has now.
        await trx('ghl_sync_issues')
          .where({ id })
          .update({ fingerprint: fingerprint(patient) });
      }
      await closeIssue(trx, ctx, id, action);
    });
  }
  await audit(db, ctx, {
    action: 'ghl.resolve',
    outcome: 'success',
    entityType: 'patient',
    entityId: patient.id,
    details,
  });
  ctx.body = { message: ghlMessages.resolved[action] };
}

async function closeIssue(trx: Knex, ctx: AppContext, id: number, action: string): Promise<void> {
  await trx('ghl_sync_issues')
    .where({ id })
    .update({
      status: 'resolved',
      resolution: action,
      resolved_by: ctx.state.user?.id ?? null,
      resolved_at: trx.fn.now(),
    });
}

export function ghlRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  // No request transaction: the job commits on its own and the answer waits for it.
  router.post('/api/ghl/sync', can('sync', 'Ghl'), syncGhl);
  router.get<{ input: z.infer<typeof ReportQuery> }>(
    '/api/ghl/report',
    can('sync', 'Ghl'),
    validate(ReportQuery, 'query'),
    report,
  );
  router.post<{ input: GhlResolveInput }>(
    '/api/ghl/issues/:id/resolve',
    can('sync', 'Ghl'),
    validate(GhlResolveInput),
    resolve,
  );
  return router;
}
