import type { Knex } from 'knex';
import type { Logger } from '../logger.js';

/** The statement with every literal replaced: its shape, never a value (bindings are not logged). */
export function statementShape(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, "'?'")
    .replace(/\b\d+(\.\d+)?\b/g, '0')
    .replace(/\s+/g, ' ')
    .slice(0, 240);
}

/**
 * At debug level, one log line per database statement: its shape and how long it took. The
 * request id comes with it (logger.ts), so a slow request's statements can be found.
 */
export function logQueryTimings(knex: Knex, logger: Logger): void {
  if (!logger.isLevelEnabled('debug')) return;
  const started = new Map<string, number>();
  knex.on('query', (query: { __knexQueryUid?: string }) => {
    if (query.__knexQueryUid) started.set(query.__knexQueryUid, performance.now());
  });
  const finish =
    (failed: boolean) => (_result: unknown, query: { __knexQueryUid?: string; sql?: string }) => {
      const uid = query.__knexQueryUid;
      const start = uid ? started.get(uid) : undefined;
      if (uid) started.delete(uid);
      logger.debug(
        {
          sql: statementShape(query.sql ?? ''),
          ms: start === undefined ? undefined : Math.round((performance.now() - start) * 10) / 10,
          ...(failed ? { failed: true } : {}),
        },
        'query',
      );
    };
  knex.on('query-response', finish(false));
  knex.on('query-error', finish(true));
}
