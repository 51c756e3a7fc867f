import { pino } from 'pino';
import type { Config } from './config.js';

export type Logger = pino.Logger;

/**
 * JSON logs on stdout. Request and error logs carry no bodies, query strings or patient data;
 * the redaction below is a second line of defence for fields that must never appear.
 */
export function createLogger(level: Config['logLevel'], destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'wellrest-api' },
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
