import { isAllowedGhlBaseUrl } from '@wellrest/core';
import type { Knex } from 'knex';
import { DailyBudgetSpent, type GhlClock, RateBudget, readRateHeaders, systemClock } from './pacer.js';

// A client for the LeadConnector (GoHighLevel) API v2: contact search with cursor paging, the
// duplicate search, contact upsert and create. Every request first takes its place in the
// location's budget, shared through the database (pacer.ts). It sends only what the caller
// passes; the sync passes name, email and phone, nothing clinical.

export const GHL_API_VERSION = '2021-07-28';
/** Largest page the contact search returns. */
export const GHL_PAGE_LIMIT = 100;
/** Attempts of one request: 429s and 5xx or network failures are retried. */
const MAX_ATTEMPTS = 6;
/** A Retry-After longer than this is not waited for: the sync fails and can be run again. */
const MAX_RETRY_WAIT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** GoHighLevel's own words about a refused contact are kept up to this length. */
const REMOTE_MESSAGE_MAX = 300;

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

export type GhlErrorKind =
  | 'unauthorized'
  | 'unavailable'
  | 'rate_limited'
  | 'daily_limit'
  | 'rejected'
  | 'bad_response'
  | 'insecure_url';

/**
 * Why a call to GoHighLevel failed. The message names the kind and status only; what the remote
 * side said about a refused contact (it may quote the contact) is in `remoteMessage`, for the
 * patient's record, never for logs.
 */
export class GhlError extends Error {
  override name = 'GhlError';
  constructor(
    readonly kind: GhlErrorKind,
    readonly status: number | null,
    readonly detail: { field?: string; remoteMessage?: string; resumesAt?: Date } = {},
  ) {
    super(`GoHighLevel request failed: ${kind}${status === null ? '' : ` (${status})`}`);
  }
}

const CONTACT_FIELDS = ['phone', 'email', 'firstName', 'lastName', 'name', 'locationId'] as const;

/**
 * GoHighLevel's error body, `{ statusCode, message, error }` where message is a string (400) or
 * a list of strings (422): its words, and the contact field they are about.
 */
export function readErrorBody(body: unknown): { field: string; remoteMessage: string } {
  const raw = (body as { message?: unknown } | null)?.message;
  const parts = (Array.isArray(raw) ? raw : [raw]).filter(
    (p): p is string => typeof p === 'string' && p.trim() !== '',
  );
  const remoteMessage = (parts.join('; ') || 'no reason given').slice(0, REMOTE_MESSAGE_MAX);
  const lower = remoteMessage.toLowerCase();
  const field =
    CONTACT_FIELDS.find((f) => lower.startsWith(f.toLowerCase())) ??
    (lower.includes('phone') ? 'phone' : lower.includes('email') ? 'email' : 'contact');
  return { field, remoteMessage };
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

export interface GhlClientOptions {
  clock?: GhlClock;
}

export class GhlClient {
  private readonly budget: RateBudget;
  private readonly clock: GhlClock;

  /** Refuses a base URL that would send the token in clear (http:// to anything but loopback). */
  constructor(
    db: Knex,
    private readonly settings: GhlSettings,
    options: GhlClientOptions = {},
  ) {
    if (!isAllowedGhlBaseUrl(settings.baseUrl)) throw new GhlError('insecure_url', null);
    this.clock = options.clock ?? systemClock;
    this.budget = new RateBudget(
      db,
      `${new URL(settings.baseUrl).origin}|${settings.locationId}`,
      this.clock,
    );
  }

  /**
   * One API call within the location's budget. A 429 pauses every sender of the location for
   * Retry-After, or without it for the announced interval with jitter, then retries; 5xx and
   * network failures are retried with back-off; 401/403 fail at once; another 4xx is `rejected`
   * with GoHighLevel's words.
   */
  async request<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), `${this.settings.baseUrl.replace(/\/+$/, '')}/`);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.budget.take();
      } catch (error) {
        if (error instanceof DailyBudgetSpent)
          throw new GhlError('daily_limit', null, { resumesAt: error.resumesAt });
        throw error;
      }
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
          redirect: 'error',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch {
        if (attempt >= MAX_ATTEMPTS) throw new GhlError('unavailable', null);
        await sleep(backoffMs(attempt));
        continue;
      }
      const announced = readRateHeaders(response.headers);
      // A 429's own pause (below) stands for its burst figures.
      await this.budget.observe(response.status === 429 ? { ...announced, remaining: undefined } : announced);
      if (response.ok) {
        try {
          return (await response.json()) as T;
        } catch {
          throw new GhlError('bad_response', response.status);
        }
      }
      const text = await response.text().catch(() => '');
      if (response.status === 401 || response.status === 403) {
        throw new GhlError('unauthorized', response.status);
      }
      if (response.status === 429) {
        if (await this.budget.dailySpentUntil()) continue; // take() reports the spent day
        const asked = retryAfterMs(response.headers.get('retry-after'), this.clock.now());
        if (attempt >= MAX_ATTEMPTS || (asked !== undefined && asked > MAX_RETRY_WAIT_MS))
          throw new GhlError('rate_limited', 429);
        await this.budget.pause(asked);
        continue;
      }
      if (response.status >= 500) {
        if (attempt < MAX_ATTEMPTS) {
          await sleep(backoffMs(attempt));
          continue;
        }
        throw new GhlError('unavailable', response.status);
      }
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
      throw new GhlError('rejected', response.status, readErrorBody(parsed));
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
   * The contact GoHighLevel's upsert would match for this email and phone (its duplicate
   * search: email first, then phone, per the location's settings), or undefined.
   */
  async findDuplicate(input: {
    email?: string | undefined;
    phone?: string | undefined;
  }): Promise<GhlContact | undefined> {
    const query = new URLSearchParams({ locationId: this.settings.locationId });
    if (input.email) query.set('email', input.email);
    if (input.phone) query.set('number', input.phone);
    const answer = await this.request<{ contact?: GhlContact | null }>(
      'GET',
      `/contacts/search/duplicate?${query}`,
    );
    const contact = answer?.contact;
    return contact && typeof contact.id === 'string' && contact.id !== '' ? contact : undefined;
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

  /** Creates a new contact (POST /contacts/); refused when the location allows no duplicates. */
  async createContact(input: GhlUpsertInput): Promise<{ id: string }> {
    const answer = await this.request<{ contact?: { id?: unknown } }>('POST', '/contacts/', {
      locationId: this.settings.locationId,
      ...input,
    });
    const id = answer.contact?.id;
    if (typeof id !== 'string' || id === '') throw new GhlError('bad_response', 201);
    return { id };
  }
}

function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 8000);
}
