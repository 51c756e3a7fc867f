import { AsyncLocalStorage } from 'node:async_hooks';
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
