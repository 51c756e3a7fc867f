import Router from '@koa/router';
import { type GhlSyncResult, messages, operationMessages } from '@wellrest/core';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppServices, AppState } from '../../http/context.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { GhlError, type GhlSettings } from './client.js';
import { JobFailure, JobQueue } from './jobs.js';
import { runGhlSync } from './sync.js';

export const GHL_SYNC_JOB = 'ghl.sync';
/** How long the sync call waits for the job before answering that it continues in the background. */
export const GHL_SYNC_WAIT_MS = 20_000;

/** The GoHighLevel connection settings, or undefined when an administrator has not set them. */
async function ghlSettings(services: AppServices): Promise<GhlSettings | undefined> {
  const settings = await services.settings.all(services.db.knex);
  if (settings.ghlToken === '' || settings.ghlLocationId === '') return undefined;
  return { token: settings.ghlToken, locationId: settings.ghlLocationId, baseUrl: settings.ghlBaseUrl };
}

const queues = new WeakMap<AppServices['db'], JobQueue>();

/** This process's worker for the app's database, created on first use. */
function queueFor(services: AppServices): JobQueue {
  let queue = queues.get(services.db);
  if (!queue) {
    const db = services.db.knex;
    queue = new JobQueue(
      db,
      {
        [GHL_SYNC_JOB]: async (job) => {
          const settings = await ghlSettings(services);
          if (!settings) throw new JobFailure('not_configured');
          try {
            const outcome = await runGhlSync(db, settings);
            await audit(db, undefined, {
              action: 'ghl.sync',
              outcome: 'success',
              entityType: 'patient',
              actor: { id: job.created_by, username: null },
              details: {
                job: job.id,
                imported: outcome.imported,
                pushed: outcome.pushed,
                importedIds: outcome.importedIds.slice(0, 500).join(','),
                pushedIds: outcome.pushedIds.slice(0, 500).join(','),
              },
            });
            return { imported: outcome.imported, pushed: outcome.pushed };
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
              actor: { id: job.created_by, username: null },
              details: { job: job.id, reason: error.kind },
            });
            throw new JobFailure(error.kind);
          }
        },
      },
      services.logger,
    );
    queues.set(services.db, queue);
  }
  return queue;
}

function failureFor(code: string | null): HttpError {
  if (code === 'not_configured') return badRequest(messages.ghl.notConfigured);
  if (code === 'unauthorized') return new HttpError(502, operationMessages.ghlUnauthorized);
  return new HttpError(502, operationMessages.ghlUnavailable);
}

/**
 * Queues a sync (or joins the one already running), works the queue, and answers with the
 * outcome when it is done within GHL_SYNC_WAIT_MS; otherwise 202, and the sync goes on.
 */
async function syncGhl(ctx: AppContext): Promise<void> {
  const { services } = ctx;
  if (!(await ghlSettings(services))) throw badRequest(messages.ghl.notConfigured);
  const queue = queueFor(services);
  const id = await queue.enqueue(GHL_SYNC_JOB, {
    dedupeKey: GHL_SYNC_JOB,
    createdBy: ctx.state.user?.id ?? null,
  });
  queue.poke();
  const job = await queue.waitFor(id, GHL_SYNC_WAIT_MS);
  if (job.status === 'failed') throw failureFor(job.error);
  if (job.status !== 'done') {
    ctx.status = 202;
    ctx.body = { message: operationMessages.ghlSyncContinues } satisfies GhlSyncResult;
    return;
  }
  const imported = Number(job.result?.imported ?? 0);
  const pushed = Number(job.result?.pushed ?? 0);
  ctx.body = {
    message: messages.ghl.syncSummary(imported, pushed),
    imported,
    pushed,
  } satisfies GhlSyncResult;
}

export function ghlRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  // No request transaction: the job commits on its own and the answer waits for it.
  router.post('/api/ghl/sync', can('sync', 'Ghl'), syncGhl);
  return router;
}
