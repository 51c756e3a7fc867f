import type { Database } from '../db/connect.js';
import type { Logger } from '../logger.js';
import {
  DELIVERY_QUEUE,
  DELIVERY_TOPIC,
  type DeliveryHooks,
  deliveryHandler,
} from '../modules/deliveries/service.js';
import { smsStatusCallbackUrl } from '../modules/deliveries/status-callback.js';
import { HOUSEKEEPING_CRON, HOUSEKEEPING_QUEUE, runHousekeeping } from '../modules/housekeeping/service.js';
import type { WorkflowEngineOptions } from '../modules/workflows/engine.js';
import { Jobs, type JobsOptions } from './jobs.js';
import type { OutboxJobData } from './outbox.js';
import { Outbox } from './outbox.js';
import { OVERDUE_SCAN_CRON, OVERDUE_SCAN_QUEUE, scanOverdueReturns } from './overdue.js';
import { SLA_SCAN_CRON, SLA_SCAN_QUEUE, scanSlaClocks } from './sla-alerts.js';

// The product's queues, schedules and outbox subscriptions, in one place.

export interface JobRuntimeOptions extends Partial<JobsOptions> {
  /** How often the outbox is checked for events written by other processes (ms). */
  outboxIntervalMs?: number;
  /** Seconds before a failed delivery is tried again (doubled each time). */
  deliveryRetryDelay?: number;
  /** How long a delivery job may run before it counts as failed (seconds). */
  deliveryExpireInSeconds?: number;
  deliveryHooks?: DeliveryHooks;
  /** Workflow engine timing and clock (tests move the clock instead of sleeping). */
  workflows?: WorkflowEngineOptions;
}

export interface JobRuntime {
  jobs: Jobs;
  outbox: Outbox;
}

export function createJobRuntime(
  deps: { db: Database; logger: Logger; secret: string; timeZone: string; publicUrl?: string | undefined },
  options: JobRuntimeOptions = {},
): JobRuntime {
  const { db, logger } = deps;
  const jobs = new Jobs(db, logger, {
    timeZone: options.timeZone ?? deps.timeZone,
    ...(options.pollingIntervalSeconds !== undefined
      ? { pollingIntervalSeconds: options.pollingIntervalSeconds }
      : {}),
    ...(options.maintenanceIntervalSeconds !== undefined
      ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }
      : {}),
    ...(options.poolMax !== undefined ? { poolMax: options.poolMax } : {}),
  });
  const outbox = new Outbox(db.knex, jobs, logger, options.outboxIntervalMs ?? 1000);

  jobs.define<OutboxJobData>({
    name: DELIVERY_QUEUE,
    // About 8 hours of retries (30 s doubling) before a message is marked failed.
    retryLimit: 10,
    retryDelay: options.deliveryRetryDelay ?? 30,
    expireInSeconds: options.deliveryExpireInSeconds ?? 5 * 60,
    handler: deliveryHandler({
      knex: db.knex,
      secret: deps.secret,
      logger,
      hooks: options.deliveryHooks,
      statusCallbackUrl: smsStatusCallbackUrl(deps.publicUrl),
    }),
  });
  outbox.subscribe(DELIVERY_TOPIC, DELIVERY_QUEUE);

  jobs.define({
    name: OVERDUE_SCAN_QUEUE,
    policy: 'singleton',
    retryLimit: 3,
    handler: async () => scanOverdueReturns(db.knex, options.timeZone ?? deps.timeZone),
  });
  jobs.schedule(OVERDUE_SCAN_QUEUE, OVERDUE_SCAN_CRON);

  jobs.define({
    name: HOUSEKEEPING_QUEUE,
    policy: 'singleton',
    retryLimit: 3,
    handler: async () => runHousekeeping(db.knex),
  });
  jobs.schedule(HOUSEKEEPING_QUEUE, HOUSEKEEPING_CRON);

  jobs.define({
    name: SLA_SCAN_QUEUE,
    policy: 'singleton',
    retryLimit: 3,
    handler: async () => scanSlaClocks(db.knex, options.timeZone ?? deps.timeZone),
  });
  jobs.schedule(SLA_SCAN_QUEUE, SLA_SCAN_CRON);

  return { jobs, outbox };
}
