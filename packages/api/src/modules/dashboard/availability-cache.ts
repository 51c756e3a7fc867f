import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Knex } from 'knex';
import { AVAILABILITY_LOCK } from '../../db/migrations/0507_availability_version.js';
import { AVAILABILITY_VERSION_SQL, readQuietVersion, readVersion } from '../../http/data-versions.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Answers kept: one per (today, days) asked for; the dashboard and calendar ask for a few. */
const MAX_ENTRIES = 16;

export type Encoding = 'br' | 'gzip' | 'identity';

/** One computed answer: its JSON, the booking ids it shows (for the audit), compressed copies. */
export interface AvailabilityAnswer {
  version: string;
  json: Buffer;
  ids: readonly number[];
  compressed: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

/**
 * The current availability version: the `availability_version` sequence, which every statement
 * changing bookings, kits or patients' names advances (migration 0507).
 */
export async function availabilityVersion(db: Knex): Promise<string> {
  return (await readVersion(db, AVAILABILITY_VERSION_SQL)) ?? 'none';
}

/** The version to keep a new answer under, or null when a change is in flight (readQuietVersion). */
export function quietVersion(knex: Knex): Promise<string | null> {
  return readQuietVersion(knex, AVAILABILITY_LOCK, AVAILABILITY_VERSION_SQL);
}

/**
 * Daily availability answers kept in memory between requests of one API process, so the
 * dashboards of a whole practice, refreshing together, cost one computation per change rather
 * than one each. Keyed by what the answer depends on besides the data (today's date in the
 * practice's time zone and the number of days); valid while the data's version is unchanged.
 */
export class AvailabilityCache {
  private readonly entries = new Map<string, AvailabilityAnswer>();
  private readonly computing = new Map<string, Promise<unknown>>();

  /**
   * The answer kept for `key` at `version`; when one is being computed for `key`, waits for it
   * first, so requests arriving together share one computation.
   */
  async get(key: string, version: string): Promise<AvailabilityAnswer | undefined> {
    const entry = this.entries.get(key);
    if (entry?.version === version) return entry;
    const pending = this.computing.get(key);
    if (!pending) return undefined;
    await pending.catch(() => undefined);
    const computed = this.entries.get(key);
    return computed?.version === version ? computed : undefined;
  }

  /** Computes the answer for `key` at `version` and keeps it. */
  async compute(
    key: string,
    version: string,
    answer: () => Promise<Omit<AvailabilityAnswer, 'compressed' | 'version'>>,
  ): Promise<AvailabilityAnswer> {
    const work = answer().then((computed) => {
      const entry: AvailabilityAnswer = { ...computed, version, compressed: {} };
      this.entries.delete(key);
      this.entries.set(key, entry);
      while (this.entries.size > MAX_ENTRIES) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
      return entry;
    });
    this.computing.set(key, work);
    try {
      return await work;
    } finally {
      if (this.computing.get(key) === work) this.computing.delete(key);
    }
  }
}

/** Brotli quality of a kept answer's first compressed copy: fast enough for the request waiting. */
const FIRST_BROTLI_QUALITY = 5;
/** Brotli's best, made once per answer off the event loop: a fifth fewer bytes for every request after. */
const KEPT_BROTLI_QUALITY = 11;

function brotliAt(json: Buffer, quality: number): Promise<Buffer> {
  return brotli(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
}

/**
 * The answer's body in `encoding`, compressed once per answer and shared by the requests after.
 * Brotli is made quickly first, then again at its best quality in zlib's thread pool, which
 * replaces the first copy when done if it is smaller.
 */
export function bodyIn(answer: AvailabilityAnswer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'identity') return Promise.resolve(answer.json);
  let body = answer.compressed[encoding];
  if (!body) {
    body =
      encoding === 'br' ? brotliAt(answer.json, FIRST_BROTLI_QUALITY) : gzipAsync(answer.json, { level: 6 });
    answer.compressed[encoding] = body;
    if (encoding === 'br') {
      const quick = body;
      const best = quick.then(() => brotliAt(answer.json, KEPT_BROTLI_QUALITY));
      Promise.all([quick, best]).then(
        ([first, smaller]) => {
          if (smaller.length < first.length) answer.compressed.br = best;
        },
        () => undefined,
      );
    }
  }
  return body;
}
