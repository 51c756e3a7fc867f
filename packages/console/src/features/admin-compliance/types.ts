// What the administration screens read from the API (packages/api/src/modules/audit, admin-overview).

export interface AuditEventView {
  id: number;
  occurredAt: string;
  actorUserId: number | null;
  actorUsername: string | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  outcome: string;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

export interface AuditEventDetail extends AuditEventView {
  chain: { lane: number; seq: number; prevHash: string; hash: string } | null;
}

export interface AuditPage {
  items: AuditEventView[];
  nextCursor: string | null;
  pageSize: number;
}

export interface ChainVerification {
  ok: boolean;
  checked: number;
  heads: { lane: number; seq: number; hash: string }[];
  firstBroken: { lane: number | null; seq: number | null; eventId: number; reason: string } | null;
  verifiedAt: string;
  durationMs: number;
}

/** The audit log's filters, as the URL's query string carries them. */
export const AUDIT_FILTER_FIELDS = [
  'actorUsername',
  'action',
  'patientId',
  'entityType',
  'outcome',
  'from',
  'to',
] as const;
export type AuditFilters = Partial<Record<(typeof AUDIT_FILTER_FIELDS)[number], string>>;

export function filtersFromSearch(search: string): AuditFilters {
  const params = new URLSearchParams(search);
  const filters: AuditFilters = {};
  for (const key of AUDIT_FILTER_FIELDS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/** The filters as a query string, in a fixed order (it is also the query key). */
export function filtersToSearch(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const key of AUDIT_FILTER_FIELDS) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  return params.toString();
}

/** The filters as the API takes them: a `to` date includes its whole day. */
export function filtersToApiSearch(filters: AuditFilters): string {
  const to = filters.to?.trim();
  return filtersToSearch({
    ...filters,
    to: to && /^\d{4}-\d{2}-\d{2}$/.test(to) ? `${to}T23:59:59.999Z` : to,
  });
}
