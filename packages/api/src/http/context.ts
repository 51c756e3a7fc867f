import type { AppAbility, CurrentUser, SubjectName } from '@wellrest/core';
import type { Knex } from 'knex';
import type { ParameterizedContext } from 'koa';
import type { Config } from '../config.js';
import type { Database } from '../db/connect.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Outbox } from '../jobs/outbox.js';
import type { Logger } from '../logger.js';
import type { SessionToConfirm } from '../modules/auth/sessions.js';
import type { SettingsStore } from '../modules/settings/store.js';
import type { UserRow } from '../modules/users/store.js';
import type { WorkflowEngine } from '../modules/workflows/engine.js';
import type { DataVersions } from './data-versions.js';

export type { AppAbility };

/** Config once the app has started: the session secret is always known by then. */
export type AppConfig = Config & { secret: string };

export interface AppServices {
  config: AppConfig;
  db: Database;
  logger: Logger;
  /** The administrator's settings (idle timeout, lockout, privacy contact, ...), read through one cache. */
  settings: SettingsStore;
  /** The durable job queue of this process (started by server.ts, or on first use). */
  jobs: Jobs;
  /** Hands domain events written in a transaction to the job queue. */
  outbox: Outbox;
  /** Runs workflows: outbox events and time-based triggers into runs, steps as jobs. */
  workflows: WorkflowEngine;
}

/** What middleware puts on `ctx.state` for the handlers after it. */
export interface AppState {
  /** The request's id (X-Request-Id), set first by the request log. */
  requestId?: string;
  /** The signed-in user, when the request carries a live session. */
  user?: CurrentUser;
  /** The full account row of the signed-in user (server-side only). */
  account?: UserRow;
  /** The live session, and when it ends if left idle (or at its absolute expiry, if sooner). */
  session?: { id: string; expiresAt: Date };
  /** The data versions read with the session (see data-versions.ts); absent for anonymous requests. */
  versions?: DataVersions;
  /**
   * Set when the session was resumed from this process's memory (http/session.ts): the statement
   * that reads what the request shows must confirm it still holds (auth/sessions.ts sessionHolds).
   */
  unconfirmed?: SessionToConfirm;
  /** What the signed-in user may do; absent for anonymous requests. */
  ability?: AppAbility;
  /** The request's transaction, opened by `inTransaction`. */
  trx?: Knex.Transaction;
  /** The access rule `can(action, subject)` checked for this request (set before the check). */
  access?: { action: Parameters<AppAbility['can']>[0]; subject: SubjectName };
  /** The request input parsed by `validate(schema)`. */
  input?: unknown;
  /** Set when a workflow's action makes the change: written into its outbox event (the loop guard). */
  workflowOrigin?: { workflowId: number; runId: number };
}

export interface AppContextExtension {
  services: AppServices;
  /** The API route pattern a method and path belong to (for logs), whether or not it ran. */
  routePattern?: (method: string, path: string) => string | undefined;
}

export type AppContext = ParameterizedContext<AppState, AppContextExtension>;

/** The database handle a handler should use: the request's transaction when one is open. */
export function dbOf(ctx: AppContext): Knex {
  return ctx.state.trx ?? ctx.services.db.knex;
}

/**
 * Where a named statement that costs more to plan than to run is run: the request's
 * transaction when one is open, else the connections that keep each statement's generic plan
 * (db/connect.ts `genericPlans`).
 */
export function genericPlansOf(ctx: AppContext): Knex {
  return ctx.state.trx ?? ctx.services.db.genericPlans ?? ctx.services.db.knex;
}

/** The client's address and browser, recorded with sessions and audit events. */
export function clientInfo(ctx: AppContext): { ip: string | null; userAgent: string | null } {
  const userAgent = ctx.get('user-agent');
  return { ip: ctx.ip || null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
