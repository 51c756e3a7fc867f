import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { pino } from 'pino';
import type { Config } from './config.js';

export type Logger = pino.Logger;

/** The request being served, so every log line written while serving it names its id. */
export const logContext = new AsyncLocalStorage<{ requestId: string }>();

/**
 * JSON logs on stdout. Request and error logs carry no bodies, query strings or patient data;
 * the redaction below is a second line of defence for fields that must never appear.
 */
export function createLogger(level: Config['logLevel'], destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'wellrest-api' },
    mixin: () => {
      const context = logContext.getStore();
      return context ? { requestId: context.requestId } : {};
    },
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'cookie',
        '*.cookie',
        'authorization',
        '*.authorization',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The first line of a message, capped: the rest of Knex's warnings is a stack trace. */
function firstLine(message: unknown): string {
  const text = typeof message === 'string' ? message : String(message);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/**
 * The database client's own messages (such as "Acquire connection error" while the database is
 * down) as JSON log lines like every other, one line each, without their stack traces.
 */
export function knexLog(logger: Logger): Knex.Logger {
  return {
    warn: (message) =>
      logger.warn({ event: 'database.client', detail: firstLine(message) }, 'database client warning'),
    error: (message) =>
      logger.error({ event: 'database.client', detail: firstLine(message) }, 'database client error'),
    deprecate: (method, alternative) =>
      logger.warn(
        { event: 'database.client', detail: `${method} is deprecated; use ${alternative}` },
        'database client warning',
      ),
    debug: (message) =>
      logger.debug({ event: 'database.client', detail: firstLine(message) }, 'database client debug'),
  };
}
