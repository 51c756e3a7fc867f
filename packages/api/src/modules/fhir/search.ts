import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { Knex } from 'knex';
import { z } from 'zod';

// FHIR search parameters as the API reads them (zod schemas, so bad values answer 400 field by
// field and the API description lists them), and searchset Bundles with paging links.

export const FHIR_COUNT_DEFAULT = 20;
export const FHIR_COUNT_MAX = 100;

const DB_ID = /^[1-9]\d{0,9}$/;
const ids = z.string().regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,99}$/, {
  error: 'Expected one id or a comma-separated list of ids',
});
/** `system|value`, `|value`, `system|` or a bare value. */
const token = z.string().trim().min(1).max(200);
const DATE_VALUE = /^(eq|ne|gt|lt|ge|le)?(\d{4}(-\d{2}(-\d{2})?)?)$/;
const dateValue = z.string().regex(DATE_VALUE, {
  error: 'Expected a date (YYYY, YYYY-MM or YYYY-MM-DD) with an optional prefix eq, ne, gt, lt, ge or le',
});
/** `date=ge2026-01-01&date=lt2026-02-01`: up to two bounds. */
const dates = z.union([dateValue, z.array(dateValue).min(1).max(2)]);
const reference = (type: string) =>
  z.string().regex(new RegExp(`^(${type}/)?[1-9]\\d{0,9}$`), { error: `Expected ${type}/<id> or <id>` });

const paging = {
  _id: ids.optional(),
  identifier: token.optional(),
  _count: z.coerce.number().int().min(0).max(FHIR_COUNT_MAX).optional(),
  _offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
};

export const PatientSearch = z.object({
  ...paging,
  name: z.string().trim().min(1).max(200).optional(),
  birthdate: dates.optional(),
});
export const PractitionerSearch = z.object({ ...paging, name: z.string().trim().min(1).max(200).optional() });
export const ServiceRequestSearch = z.object({
  ...paging,
  patient: reference('Patient').optional(),
  requester: reference('Practitioner').optional(),
  status: z.enum(['active', 'completed', 'revoked']).optional(),
  /** When the referral was received (ServiceRequest.authoredOn). */
  date: dates.optional(),
});
export const DeviceRequestSearch = z.object({
  ...paging,
  patient: reference('Patient').optional(),
  status: z.enum(['draft', 'active', 'completed', 'revoked']).optional(),
  /** The first night of the loan (DeviceRequest.occurrencePeriod.start). */
  date: dates.optional(),
});
export const DiagnosticReportSearch = z.object({
  ...paging,
  patient: reference('Patient').optional(),
  /** When the interpretation was signed. */
  date: dates.optional(),
});

export type SearchCommon = {
  _id?: string | undefined;
  identifier?: string | undefined;
  _count?: number | undefined;
  _offset?: number | undefined;
};

/** The id of a `Type/123` or `123` reference. */
export function referencedId(value: string): number {
  return Number(value.split('/').at(-1));
}

export function idList(value: string): number[] {
  return value.split(',').map(Number);
}

/** `system|value` split; a bare value has no system. */
export function parseToken(value: string): { system: string | undefined; value: string } {
  const bar = value.indexOf('|');
  if (bar < 0) return { system: undefined, value };
  return { system: value.slice(0, bar) || undefined, value: value.slice(bar + 1) };
}

/** The first day after a date of the given precision. */
function after(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number?, number?];
  const next =
    d !== undefined
      ? new Date(Date.UTC(y, (m as number) - 1, d + 1))
      : m !== undefined
        ? new Date(Date.UTC(y, m, 1))
        : new Date(Date.UTC(y + 1, 0, 1));
  return next.toISOString().slice(0, 10);
}

/** Narrows `column` by FHIR date search values (a date of any precision is the range it covers). */
export function whereDates(
  query: Knex.QueryBuilder,
  column: string,
  values: string | string[],
  asDate: boolean,
): void {
  for (const raw of Array.isArray(values) ? values : [values]) {
    const match = DATE_VALUE.exec(raw);
    if (!match) continue;
    const prefix = match[1] ?? 'eq';
    const date = match[2] as string;
    const start = date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date;
    const lo = asDate ? start : `${start}T00:00:00Z`;
    const end = after(date);
    const hi = asDate ? end : `${end}T00:00:00Z`;
    if (prefix === 'eq') query.where(column, '>=', lo).where(column, '<', hi);
    else if (prefix === 'ne') query.where((q) => q.where(column, '<', lo).orWhere(column, '>=', hi));
    else if (prefix === 'ge') query.where(column, '>=', lo);
    else if (prefix === 'gt') query.where(column, '>=', hi);
    else if (prefix === 'le') query.where(column, '<', hi);
    else query.where(column, '<', lo);
  }
}

export function isDbId(value: string): boolean {
  return DB_ID.test(value);
}

/** A searchset Bundle of one page, with self / next / previous links. */
export function searchset<T extends Resource>(options: {
  base: string;
  type: string;
  params: Record<string, unknown>;
  resources: T[];
  total: number;
  count: number;
  offset: number;
}): Bundle<T> {
  const { base, type, params, resources, total, count, offset } = options;
  const link = (at: number) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined || name === '_count' || name === '_offset') continue;
      for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
    }
    query.set('_count', String(count));
    query.set('_offset', String(at));
    return `${base}/${type}?${query.toString()}`;
  };
  const links: NonNullable<Bundle['link']> = [{ relation: 'self', url: link(offset) }];
  if (count > 0 && offset + count < total) links.push({ relation: 'next', url: link(offset + count) });
  if (offset > 0) links.push({ relation: 'previous', url: link(Math.max(0, offset - Math.max(count, 1))) });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total,
    link: links,
    entry: resources.map((resource) => ({
      fullUrl: `${base}/${type}/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
}
