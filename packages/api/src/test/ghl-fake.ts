import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for the LeadConnector (GoHighLevel) API v2, answering as its documentation
// (the contacts OpenAPI description, Version 2021-07-28, and the rate-limit notes) describes:
// - bearer token and Version header required; 401 { statusCode, message, error };
// - POST /contacts/search with cursor paging (searchAfter) or page numbers;
// - GET /contacts/search/duplicate?locationId&email&number: { contact } (email first, then phone);
// - POST /contacts/upsert matching by email, then phone, and overwriting the names it is sent;
// - POST /contacts/ refused with 400 when the location does not allow duplicates;
// - 422 { statusCode: 422, message: [...], error: 'Unprocessable Entity' } for an invalid email or
//   phone or an unknown property; 400 { statusCode: 400, message } for a bad request;
// - X-RateLimit-Max / -Remaining / -Interval-Milliseconds / -Limit-Daily / -Daily-Remaining on
//   every answer, a burst budget counted in fixed windows and a daily budget, and 429 without
//   Retry-After once either is spent. The window is configurable so tests need not take minutes.

export const FAKE_GHL_TOKEN = 'pit-test-token';
export const FAKE_GHL_LOCATION = 'loc-test-1';

export interface FakeContact {
  id: string;
  firstName: string;
  lastName: string;
  contactName: string;
  email: string | null;
  phone: string | null;
  dateAdded: string;
  tags: string[];
  source?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  status: number;
  at: number;
}

export interface FakeGhlOptions {
  token?: string;
  locationId?: string;
  /** Requests per window: 100 per 10 s for an app, 25 per 10 s for a trial private-integration token. */
  burst?: { max: number; intervalMs: number };
  dailyLimit?: number;
  /** The location's "Allow Duplicate Contact" setting. */
  allowDuplicates?: boolean;
}

export interface FakeGhl {
  baseUrl: string;
  contacts: FakeContact[];
  requests: RecordedRequest[];
  /** Answer the next `count` requests with 429, with this Retry-After (seconds) or none. */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  /** Requests counted against today's budget so far. */
  dailyUsed(): number;
  addContact(fields: {
    firstName: string;
    lastName: string;
    email?: string | null;
    phone?: string | null;
  }): FakeContact;
  /** Renames a contact, as someone editing it in GoHighLevel would. */
  rename(id: string, firstName: string, lastName: string): void;
  close(): Promise<void>;
}

const MAX_PAGE_LIMIT = 100;
const UPSERT_PROPERTIES = new Set([
  'firstName',
  'lastName',
  'name',
  'email',
  'locationId',
  'gender',
  'phone',
  'address1',
  'city',
  'state',
  'postalCode',
  'website',
  'timezone',
  'dnd',
  'tags',
  'customFields',
  'source',
  'country',
  'companyName',
  'assignedTo',
  'dateOfBirth',
]);

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
    });
    req.on('end', () => {
      try {
        resolve(data === '' ? {} : (JSON.parse(data) as Record<string, unknown>));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function cursorOf(contact: FakeContact): [number, string] {
  return [Date.parse(contact.dateAdded), contact.id];
}

function compareCursor(a: [number, string], b: [number, string]): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

const digits = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '');

/** The 422 messages GoHighLevel's validation answers with for the fields the sync sends. */
function validationErrors(body: Record<string, unknown>): string[] {
  const errors: string[] = [];
  for (const key of Object.keys(body)) {
    if (!UPSERT_PROPERTIES.has(key)) errors.push(`property ${key} should not exist`);
  }
  if (typeof body.email === 'string' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email))
    errors.push('email must be an email');
  if (typeof body.phone === 'string') {
    const count = digits(body.phone).length;
    if (!/^\+?[\d\s().-]+$/.test(body.phone) || count < 7 || count > 15)
      errors.push('phone must be a valid phone number');
  }
  return errors;
}

export async function startFakeGhl(options: FakeGhlOptions = {}): Promise<FakeGhl> {
  const token = options.token ?? FAKE_GHL_TOKEN;
  const locationId = options.locationId ?? FAKE_GHL_LOCATION;
  const burst = options.burst ?? { max: 100, intervalMs: 10_000 };
  const dailyLimit = options.dailyLimit ?? 200_000;
  const contacts: FakeContact[] = [];
  const requests: RecordedRequest[] = [];
  let forced429 = 0;
  let forcedRetryAfter: number | undefined;
  let windowStart = 0;
  let windowCount = 0;
  let daily = 0;
  let clock = Date.parse('2025-01-01T00:00:00Z');

  const addContact: FakeGhl['addContact'] = (fields) => {
    clock += 60_000;
    const contact: FakeContact = {
      id: `ghl-${randomUUID().slice(0, 12)}`,
      firstName: fields.firstName,
      lastName: fields.lastName,
      contactName: `${fields.firstName} ${fields.lastName}`.trim(),
      email: fields.email ?? null,
      phone: fields.phone ?? null,
      dateAdded: new Date(clock).toISOString(),
      tags: [],
    };
    contacts.push(contact);
    return contact;
  };

  const byEmail = (email: unknown) =>
    typeof email === 'string' && email !== ''
      ? contacts.find((c) => c.email?.toLowerCase() === email.toLowerCase())
      : undefined;
  const byPhone = (phone: unknown) =>
    typeof phone === 'string' && digits(phone) !== ''
      ? contacts.find((c) => digits(c.phone) === digits(phone))
      : undefined;

  const rateHeaders = (): Record<string, string> => ({
    'x-ratelimit-max': String(burst.max),
    'x-ratelimit-remaining': String(Math.max(0, burst.max - windowCount)),
    'x-ratelimit-interval-milliseconds': String(burst.intervalMs),
    'x-ratelimit-limit-daily': String(dailyLimit),
    'x-ratelimit-daily-remaining': String(Math.max(0, dailyLimit - daily)),
  });

  const answer = (
    res: ServerResponse,
    record: RecordedRequest,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    record.status = status;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const unprocessable = (message: string[]) => ({ statusCode: 422, message, error: 'Unprocessable Entity' });

  const server = createServer(async (req, res) => {
    const body = await readBody(req).catch((): Record<string, unknown> => ({}));
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    const record: RecordedRequest = {
      method: req.method ?? '',
      path,
      query,
      body,
      headers: req.headers,
      status: 0,
      at: Date.now(),
    };
    requests.push(record);

    if (req.headers.authorization !== `Bearer ${token}`) {
      return answer(res, record, 401, {
        statusCode: 401,
        message: 'Invalid JWT',
        error: 'Unauthorized',
      });
    }
    if (req.headers.version !== '2021-07-28') {
      return answer(res, record, 400, { statusCode: 400, message: 'Version header is missing or invalid' });
    }

    // The budget: counted in fixed windows from the first request of each, and per day.
    const now = Date.now();
    if (now - windowStart >= burst.intervalMs) {
      windowStart = now;
      windowCount = 0;
    }
    if (forced429 > 0) {
      forced429--;
      const headers = rateHeaders();
      if (forcedRetryAfter !== undefined) headers['retry-after'] = String(forcedRetryAfter);
      return answer(
        res,
        record,
        429,
        { statusCode: 429, message: 'Too many requests', error: 'Too Many Requests' },
        {
          ...headers,
          'x-ratelimit-remaining': '0',
        },
      );
    }
    if (windowCount >= burst.max || daily >= dailyLimit) {
      return answer(
        res,
        record,
        429,
        { statusCode: 429, message: 'Too many requests', error: 'Too Many Requests' },
        rateHeaders(),
      );
    }
    windowCount++;
    daily++;
    const headers = rateHeaders();

    const location = req.method === 'GET' ? query.locationId : body.locationId;
    if (location !== locationId) {
      return answer(
        res,
        record,
        403,
        { statusCode: 403, message: 'The token does not have access to this location', error: 'Forbidden' },
        headers,
      );
    }

    if (req.method === 'POST' && path === '/contacts/search') {
      if (Number(body.pageLimit ?? 20) > MAX_PAGE_LIMIT) {
        return answer(
          res,
          record,
          422,
          unprocessable([`pageLimit must not be greater than ${MAX_PAGE_LIMIT}`]),
          headers,
        );
      }
      const pageLimit = Number(body.pageLimit ?? 20);
      const sorted = [...contacts].sort((a, b) => compareCursor(cursorOf(a), cursorOf(b)));
      let start = 0;
      if (Array.isArray(body.searchAfter)) {
        const after = body.searchAfter as [number, string];
        start = sorted.findIndex((c) => compareCursor(cursorOf(c), after) > 0);
        if (start === -1) start = sorted.length;
      } else if (typeof body.page === 'number') {
        start = (body.page - 1) * pageLimit;
      }
      const page = sorted.slice(start, start + pageLimit).map((c) => ({ ...c, searchAfter: cursorOf(c) }));
      return answer(res, record, 200, { contacts: page, total: contacts.length }, headers);
    }

    if (req.method === 'GET' && path === '/contacts/search/duplicate') {
      if (!query.email && !query.number) {
        return answer(
          res,
          record,
          400,
          { statusCode: 400, message: 'Pass at least one of number, email query parameter' },
          headers,
        );
      }
      const found = byEmail(query.email) ?? byPhone(query.number) ?? null;
      return answer(res, record, 200, { contact: found }, headers);
    }

    if (req.method === 'POST' && (path === '/contacts/upsert' || path === '/contacts/')) {
      const errors = validationErrors(body);
      if (errors.length > 0) return answer(res, record, 422, unprocessable(errors), headers);
      if (typeof body.email !== 'string' && typeof body.phone !== 'string') {
        return answer(
          res,
          record,
          400,
          { statusCode: 400, message: 'Pass at least one of phone, email' },
          headers,
        );
      }
      const email = typeof body.email === 'string' ? body.email.toLowerCase() : null;
      const phone = typeof body.phone === 'string' ? body.phone : null;
      const names = { firstName: String(body.firstName ?? ''), lastName: String(body.lastName ?? '') };
      const emailMatch = byEmail(email);
      const found = emailMatch ?? byPhone(phone);

      if (path === '/contacts/') {
        if (found && !options.allowDuplicates) {
          return answer(
            res,
            record,
            400,
            {
              statusCode: 400,
              message: 'This location does not allow duplicated contacts.',
              meta: {
                contactName: found.contactName,
                contactId: found.id,
                matchingField: emailMatch ? 'email' : 'phone',
              },
            },
            headers,
          );
        }
        const created = addContact({ ...names, email, phone });
        if (typeof body.source === 'string') created.source = body.source;
        return answer(res, record, 201, { contact: created }, headers);
      }

      if (found) {
        // The contact matched first is updated; the other field is not added when another
        // contact already holds it (no duplicate is made).
        Object.assign(found, names, { contactName: `${names.firstName} ${names.lastName}`.trim() });
        if (email && !found.email && !byEmail(email)) found.email = email;
        if (phone && !found.phone && !byPhone(phone)) found.phone = phone;
        // As documented: tags, when sent, replace every tag of the contact.
        if (Array.isArray(body.tags)) found.tags = body.tags as string[];
        return answer(res, record, 200, { new: false, contact: found }, headers);
      }
      const created = addContact({ ...names, email, phone });
      if (typeof body.source === 'string') created.source = body.source;
      if (Array.isArray(body.tags)) created.tags = body.tags as string[];
      return answer(res, record, 200, { new: true, contact: created }, headers);
    }

    return answer(res, record, 404, { statusCode: 404, message: 'Not found', error: 'Not Found' }, headers);
  });

  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    contacts,
    requests,
    rateLimitNext(count, retryAfterSeconds) {
      forced429 = count;
      forcedRetryAfter = retryAfterSeconds;
    },
    dailyUsed: () => daily,
    addContact,
    rename(id, firstName, lastName) {
      const contact = contacts.find((c) => c.id === id);
      if (!contact) throw new Error(`no contact ${id}`);
      Object.assign(contact, { firstName, lastName, contactName: `${firstName} ${lastName}`.trim() });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
