// A client for the LeadConnector (GoHighLevel) API v2: contact search with cursor paging and
// contact upsert, within the API's rate limit. It sends only what the caller passes; the sync
// passes name, email and phone, nothing clinical.

export const GHL_API_VERSION = '2021-07-28';
/** LeadConnector allows 100 requests per 10 seconds per location. */
export const GHL_RATE_LIMIT = { requests: 100, perMs: 10_000 } as const;
/** Largest page the contact search returns. */
export const GHL_PAGE_LIMIT = 100;
const MAX_ATTEMPTS = 5;
/** A Retry-After longer than this is not waited for: the sync fails and can be run again. */
const MAX_RETRY_WAIT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;

export interface GhlSettings {
  baseUrl: string;
  token: string;
  locationId: string;
}

export interface GhlContact {
  id: string;
  firstName?: string | null;
  lastName?: string | null;
  contactName?: string | null;
  email?: string | null;
  phone?: string | null;
  dateAdded?: string | null;
  tags?: string[];
  searchAfter?: unknown[];
}

export interface GhlUpsertInput {
  firstName: string;
  lastName: string;
  email?: string | undefined;
  phone?: string | undefined;
  source: string;
}

/** Why a call to GoHighLevel failed, without anything the remote side said (it may echo data). */
export class GhlError extends Error {
  override name = 'GhlError';
  constructor(
    readonly kind: 'unauthorized' | 'unavailable' | 'rate_limited' | 'bad_response',
    readonly status: number | null,
  ) {
    super(`GoHighLevel request failed: ${kind}${status === null ? '' : ` (${status})`}`);
  }
}

/**
 * A token bucket: up to `capacity` requests at once, refilled continuously at capacity per
 * `perMs`. Shared by every client of one location in this process.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt = Date.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly capacity: number,
    private readonly perMs: number,
  ) {
    this.tokens = capacity;
  }

  /** Resolves when a request may be sent. Waiters are served in order. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.takeNow());
    this.queue = turn.catch(() => {});
    return turn;
  }

  /** Empties the bucket, e.g. after the server answered 429. */
  drain(): void {
    this.refill();
    this.tokens = 0;
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(
      this.capacity,
      this.tokens + ((now - this.updatedAt) * this.capacity) / this.perMs,
    );
    this.updatedAt = now;
  }

  private async takeNow(): Promise<void> {
    this.refill();
    if (this.tokens < 1) {
      await sleep(Math.ceil(((1 - this.tokens) * this.perMs) / this.capacity));
      this.refill();
    }
    this.tokens -= 1;
  }
}

const buckets = new Map<string, TokenBucket>();
function bucketFor(settings: GhlSettings): TokenBucket {
  const key = `${settings.baseUrl}|${settings.locationId}`;
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = new TokenBucket(GHL_RATE_LIMIT.requests, GHL_RATE_LIMIT.perMs);
    buckets.set(key, bucket);
  }
  return bucket;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export class GhlClient {
  private readonly bucket: TokenBucket;

  constructor(private readonly settings: GhlSettings) {
    this.bucket = bucketFor(settings);
  }

  /**
   * One API call: waits for the rate limit, retries 429 (honouring Retry-After) and 5xx or
   * network failures with exponential back-off; 401/403 fail at once.
   */
  async request<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), `${this.settings.baseUrl.replace(/\/+$/, '')}/`);
    for (let attempt = 1; ; attempt++) {
      await this.bucket.take();
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            Authorization: `Bearer ${this.settings.token}`,
            Version: GHL_API_VERSION,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch {
        if (attempt >= MAX_ATTEMPTS) throw new GhlError('unavailable', null);
        await sleep(backoffMs(attempt));
        continue;
      }
      if (response.ok) {
        try {
          return (await response.json()) as T;
        } catch {
          throw new GhlError('bad_response', response.status);
        }
      }
      // The body may quote contact data: it is read and dropped, never logged.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 401 || response.status === 403) {
        throw new GhlError('unauthorized', response.status);
      }
      if (response.status === 429) {
        this.bucket.drain();
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt);
        if (attempt >= MAX_ATTEMPTS || wait > MAX_RETRY_WAIT_MS) throw new GhlError('rate_limited', 429);
        await sleep(wait);
        continue;
      }
      if (response.status >= 500 && attempt < MAX_ATTEMPTS) {
        await sleep(backoffMs(attempt));
        continue;
      }
      throw new GhlError(response.status >= 500 ? 'unavailable' : 'bad_response', response.status);
    }
  }

  /** Every contact of the location, page by page (cursor paging with `searchAfter`). */
  async *contactPages(pageLimit = GHL_PAGE_LIMIT): AsyncGenerator<GhlContact[]> {
    let searchAfter: unknown[] | undefined;
    for (;;) {
      const page = await this.request<{ contacts?: GhlContact[]; total?: number }>(
        'POST',
        '/contacts/search',
        {
          locationId: this.settings.locationId,
          pageLimit,
          ...(searchAfter ? { searchAfter } : {}),
        },
      );
      const contacts = Array.isArray(page.contacts) ? page.contacts : [];
      if (contacts.length > 0) yield contacts;
      const last = contacts.at(-1);
      if (contacts.length < pageLimit || !last?.searchAfter || last.searchAfter.length === 0) return;
      searchAfter = last.searchAfter;
    }
  }

  /**
   * Creates the contact, or updates the one GoHighLevel matches by email or phone. Tags are
   * never sent: on an update they would replace the contact's existing tags.
   */
  async upsertContact(input: GhlUpsertInput): Promise<{ new: boolean; contact: { id: string } }> {
    const answer = await this.request<{ new?: boolean; contact?: { id?: unknown } }>(
      'POST',
      '/contacts/upsert',
      {
        locationId: this.settings.locationId,
        ...input,
      },
    );
    const id = answer.contact?.id;
    if (typeof id !== 'string' || id === '') throw new GhlError('bad_response', 200);
    return { new: answer.new === true, contact: { id } };
  }
}

function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 8000);
}
