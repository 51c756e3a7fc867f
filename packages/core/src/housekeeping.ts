import { z } from 'zod';

// Housekeeping: rows that stop mattering once they expire are purged on a schedule, each kind
// after its own retention. Audit events are never purged: HIPAA (45 CFR 164.316(b)(2)) asks
// that the documentation be kept six years, and the trail is that documentation.

export const HOUSEKEEPING_TASKS = [
  'sessions',
  'trustedDevices',
  'passwordTokens',
  'loginFailures',
  'publicSubmissions',
  'dispatchedEvents',
  'finishedJobs',
] as const;
export type HousekeepingTask = (typeof HOUSEKEEPING_TASKS)[number];

/** Days a row is kept after it expired, was used or finished, before it is purged. */
export const HOUSEKEEPING_RETENTION_DEFAULTS: Readonly<Record<HousekeepingTask, number>> = {
  sessions: 30,
  trustedDevices: 30,
  passwordTokens: 30,
  loginFailures: 7,
  publicSubmissions: 90,
  dispatchedEvents: 30,
  finishedJobs: 14,
};

export const HOUSEKEEPING_RETENTION_MAX_DAYS = 3650;
/** The audit trail's documented retention (it is never purged by housekeeping). */
export const AUDIT_RETENTION_YEARS = 6;

const RetentionDays = z
  .number()
  .int('Enter a whole number of days')
  .min(1, 'Keep rows at least 1 day')
  .max(HOUSEKEEPING_RETENTION_MAX_DAYS, `Keep rows at most ${HOUSEKEEPING_RETENTION_MAX_DAYS} days`);

export const HousekeepingPatch = z
  .object(
    Object.fromEntries(HOUSEKEEPING_TASKS.map((task) => [task, RetentionDays.optional()])) as Record<
      HousekeepingTask,
      z.ZodOptional<typeof RetentionDays>
    >,
  )
  .strict();
export type HousekeepingPatch = z.infer<typeof HousekeepingPatch>;

export interface HousekeepingTaskStatus {
  task: HousekeepingTask;
  retentionDays: number;
  lastRunAt: string | null;
  lastRemoved: number | null;
  totalRemoved: number;
}

export const housekeepingMessages = {
  title: 'Housekeeping',
  description:
    'Expired rows are purged every night at 03:30 practice time, each kind after its retention. Audit events are never purged: they are kept at least six years.',
  runNow: 'Run now',
  saveRetention: 'Save retention',
  ran: (removed: number): string => `Housekeeping ran: ${removed} ${removed === 1 ? 'row' : 'rows'} removed`,
  never: 'Not run yet',
  retention: 'Retention (days)',
  lastRun: 'Last run',
  removed: 'Removed',
  saved: 'Retention saved',
  tasks: {
    sessions: 'Expired and signed-out sessions',
    trustedDevices: 'Expired and revoked trusted devices',
    passwordTokens: 'Used and expired password links',
    loginFailures: 'Failed sign-ins under unknown names',
    publicSubmissions: 'Public form submission records (rate limits and replays)',
    dispatchedEvents: 'Dispatched domain events',
    finishedJobs: 'Finished background jobs',
  } satisfies Record<HousekeepingTask, string>,
} as const;
