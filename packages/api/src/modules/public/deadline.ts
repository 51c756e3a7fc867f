/**
 * How long the public API waits for the database before answering 503: an unreachable database
 * makes the connection pool retry for up to a minute, longer than a widget waits for an answer.
 */
export const PUBLIC_DATABASE_DEADLINE_MS = 3_000;

/** `work`, or a rejection once `ms` have passed without an answer. */
export async function withinDeadline<T>(work: Promise<T>, ms = PUBLIC_DATABASE_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database did not answer in time')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
