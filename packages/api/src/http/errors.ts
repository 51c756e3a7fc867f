import { messages } from '@wellrest/core';
import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import type { Logger } from '../logger.js';
import type { AppContextExtension, AppState } from './context.js';
import { isApiPath } from './paths.js';
import { routeOf } from './request-log.js';

/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    /** Extra fields merged into the JSON body. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(400, message, extra);
export const unauthorized = (
  message: string = messages.common.authenticationRequired,
  extra?: Record<string, unknown>,
) => new HttpError(401, message, extra);
export const forbidden = (message: string = messages.common.forbidden) => new HttpError(403, message);
export const notFound = (message: string = messages.common.notFound) => new HttpError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(409, message, extra);

/** Protocol-level messages not (yet) in core's catalogue. */
export const HTTP_MESSAGES = {
  malformedBody: 'Malformed request body',
  methodNotAllowed: 'Method not allowed',
  bodyTooLarge: 'Request body too large',
  unsupportedMediaType: 'Unsupported content type',
  unsupportedEncoding: 'Unsupported content encoding: send the body as identity, gzip, deflate or br',
  notImplemented: 'Not implemented',
  badRequest: 'Bad request',
} as const;

/** Messages for the client-caused errors raised by Koa, the router and the body parser. */
const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: HTTP_MESSAGES.malformedBody,
  401: messages.common.authenticationRequired,
  403: messages.common.forbidden,
  404: messages.common.notFound,
  405: HTTP_MESSAGES.methodNotAllowed,
  413: HTTP_MESSAGES.bodyTooLarge,
  415: HTTP_MESSAGES.unsupportedMediaType,
  501: HTTP_MESSAGES.notImplemented,
};

interface DatabaseErrorLike {
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

/** PostgreSQL errors carry a five-character SQLSTATE in `code`. */
function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code) &&
    'severity' in error
  );
}

interface Problem {
  status: number;
  body: Record<string, unknown>;
}

function zodProblem(error: ZodError): Problem {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'body';
    fields[key] ??= issue.message;
  }
  return { status: 400, body: { error: messages.common.invalidRequest, fields } };
}

/** Maps what the database refused because of the request to a client error. */
function databaseProblem(error: DatabaseErrorLike): Problem | undefined {
  switch (error.code) {
    case '23505':
    case '23P01':
      return { status: 409, body: { error: messages.common.conflict } };
    case '23503':
    case '23514':
      return { status: 400, body: { error: messages.common.invalidRequest } };
    default:
      // Class 22: data exceptions (a value out of range or in the wrong format).
      return error.code.startsWith('22')
        ? { status: 400, body: { error: messages.common.invalidRequest } }
        : undefined;
  }
}

/** Seconds a client is asked to wait (Retry-After) while the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Network errors of a connection to the database, and the server saying it is not there. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNREACHABLE_MESSAGES =
  /Connection terminated|Connection ended unexpectedly|connection timeout|Client has encountered a connection error|terminating connection|not queryable|Unable to acquire a connection/i;

/**
 * True when an error means the database could not be reached (refused, cut off, restarting, or
 * no pooled connection came in time), rather than that it refused the request: an outage, which
 * is answered 503 with Retry-After, never 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGES.test(message);
}

function problemFor(error: unknown): Problem | undefined {
  if (error instanceof HttpError)
    return { status: error.status, body: { ...error.extra, error: error.message } };
  if (error instanceof ZodError) return zodProblem(error);
  if (isDatabaseError(error)) return databaseProblem(error);
  // Errors raised by Koa, @koa/router and the body parser (http-errors): client mistakes.
  const status = (error as { status?: unknown } | null)?.status;
  // Their 4xx statuses always describe the request (co-body's JSON errors are not marked `expose`).
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { error: CLIENT_ERROR_MESSAGES[status] ?? HTTP_MESSAGES.badRequest } };
  }
  return undefined;
}

/** Engine errors about code (not data), whose messages are safe to log. */
const CODE_ERRORS = new Set(['TypeError', 'ReferenceError', 'RangeError']);

/**
 * What a log line may say about an unexpected error. Database errors are reduced to their
 * SQLSTATE and object names: their messages can quote the values of the failing row. Other
 * messages (a JSON parse error quotes its input, Knex quotes a query's bindings) are left out,
 * except those of plain programming errors; the stack frames locate the fault.
 */
function describeForLog(error: unknown): Record<string, unknown> {
  if (isDatabaseError(error)) {
    return {
      kind: 'database',
      code: error.code,
      constraint: error.constraint,
      table: error.table,
      column: error.column,
      routine: error.routine,
    };
  }
  if (error instanceof Error) {
    return {
      kind: error.name,
      message: CODE_ERRORS.has(error.name) ? error.message.slice(0, 200) : undefined,
      stack: error.stack?.split('\n').slice(1, 8).join('\n'),
    };
  }
  return { kind: typeof error };
}

/** Turns every failure into a JSON error answer; unexpected ones become a logged, generic 500. */
export function errorHandler(logger: Logger): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        logger.warn(
          {
            err: { kind: (error as Error).name, code: (error as { code?: unknown }).code },
            method: ctx.method,
            route: routeOf(ctx),
          },
          'database unavailable',
        );
        ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
        ctx.status = 503;
        ctx.body = { error: messages.common.temporarilyUnavailable };
        return;
      }
      let problem = problemFor(error);
      if (problem && isDatabaseError(error)) {
        // Refused by a constraint: the client's fault, but worth seeing in case a check is missing upstream.
        logger.warn(
          { err: describeForLog(error), method: ctx.method, route: routeOf(ctx) },
          'database refused request',
        );
      }
      if (!problem) {
        logger.error(
          { err: describeForLog(error), method: ctx.method, route: routeOf(ctx) },
          'request failed',
        );
        problem = { status: 500, body: { error: messages.common.unexpectedError } };
      }
      ctx.status = problem.status;
      ctx.body = problem.body;
    }
  };
}

/**
 * Gives bodiless API answers a JSON body: a path no route answered is a JSON 404 (never the
 * console's index.html), a known path with the wrong method a JSON 405 (its Allow header set by
 * the router).
 */
export const apiFallback: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  await next();
  if (!isApiPath(ctx.path) || ctx.body != null) return;
  if (ctx.status === 404) throw notFound();
  const message = CLIENT_ERROR_MESSAGES[ctx.status];
  if (ctx.status >= 400 && message) {
    const status = ctx.status;
    ctx.body = { error: message };
    ctx.status = status;
  }
};
