import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for the LeadConnector (GoHighLevel) API v2, answering as its documentation
// describes: bearer token and Version header required, POST /contacts/search with cursor paging
// (searchAfter) or page numbers, POST /contacts/upsert matching by email, then phone.

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
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  status: number;
}

export interface FakeGhl {
  baseUrl: string;
  contacts: FakeContact[];
  requests: RecordedRequest[];
  /** Answer the next `count` requests with 429 and this Retry-After (seconds). */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  addContact(fields: {
    firstName: string;
    lastName: string;
    email?: string | null;
    phone?: string | null;
  }): FakeContact;
  close(): Promise<void>;
}

const MAX_PAGE_LIMIT = 100;

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

export async function startFakeGhl(options: { token?: string; locationId?: string } = {}): Promise<FakeGhl> {
  const token = options.token ?? FAKE_GHL_TOKEN;
  const locationId = options.locationId ?? FAKE_GHL_LOCATION;
  const contacts: FakeContact[] = [];
  const requests: RecordedRequest[] = [];
  let rateLimited = 0;
  let retryAfter = 0;
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

  const answer = (res: ServerResponse, record: RecordedRequest, status: number, body: unknown) => {
    record.status = status;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req).catch((): Record<string, unknown> => ({}));
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const record: RecordedRequest = { method: req.method ?? '', path, body, headers: req.headers, status: 0 };
    requests.push(record);

    if (req.headers.authorization !== `Bearer ${token}`) {
      return answer(res, record, 401, { statusCode: 401, message: 'Invalid JWT' });
    }
    if (req.headers.version !== '2021-07-28') {
      return answer(res, record, 400, { statusCode: 400, message: 'Version header is missing or invalid' });
    }
    if (rateLimited > 0) {
      rateLimited--;
      record.status = 429;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) });
      res.end(JSON.stringify({ statusCode: 429, message: 'Too many requests' }));
      return;
    }
    if (body.locationId !== locationId) {
      return answer(res, record, 403, {
        statusCode: 403,
        message: 'The token does not have access to this location',
      });
    }

    if (req.method === 'POST' && path === '/contacts/search') {
      const pageLimit = Math.min(Number(body.pageLimit ?? 20), MAX_PAGE_LIMIT);
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
      return answer(res, record, 200, { contacts: page, total: contacts.length });
    }

    if (req.method === 'POST' && path === '/contacts/upsert') {
      const email = typeof body.email === 'string' ? body.email.toLowerCase() : null;
      const phone = typeof body.phone === 'string' ? body.phone : null;
      const found =
        (email && contacts.find((c) => c.email?.toLowerCase() === email)) ||
        (phone && contacts.find((c) => c.phone === phone)) ||
        undefined;
      const fields = {
        firstName: String(body.firstName ?? ''),
        lastName: String(body.lastName ?? ''),
        ...(email ? { email } : {}),
        ...(phone ? { phone } : {}),
      };
      if (found) {
        Object.assign(found, fields, { contactName: `${fields.firstName} ${fields.lastName}`.trim() });
        // As documented: tags, when sent, replace every tag of the contact.
        if (Array.isArray(body.tags)) found.tags = body.tags as string[];
        return answer(res, record, 200, { new: false, contact: found });
      }
      const created = addContact({ ...fields, email: email ?? null, phone: phone ?? null });
      if (typeof body.source === 'string') created.source = body.source;
      if (Array.isArray(body.tags)) created.tags = body.tags as string[];
      return answer(res, record, 201, { new: true, contact: created });
    }

    return answer(res, record, 404, { statusCode: 404, message: 'Not found' });
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
    rateLimitNext(count, retryAfterSeconds = 1) {
      rateLimited = count;
      retryAfter = retryAfterSeconds;
    },
    addContact,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
