import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { AUDIT_OUTCOMES, adminMessages } from '@wellrest/core';
import { Download, ScrollText, ShieldAlert, ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';
import {
  type AuditEventDetail,
  type AuditEventView,
  type AuditFilters,
  type AuditPage,
  type ChainVerification,
  filtersFromSearch,
  filtersToApiSearch,
  filtersToSearch,
} from './types';

const text = adminMessages.audit;

const OUTCOME_TONE = { success: 'green', failure: 'amber', denied: 'red' } as const;

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <Badge tone={OUTCOME_TONE[outcome as keyof typeof OUTCOME_TONE] ?? 'grey'}>
      {text.outcomes[outcome] ?? outcome}
    </Badge>
  );
}

const recordOf = (event: AuditEventView) =>
  event.entityType ? `${event.entityType}${event.entityId ? ` #${event.entityId}` : ''}` : '—';

/** The filter form: every field is applied at once with the Apply button (or Enter). */
function FilterForm({ filters, onApply }: { filters: AuditFilters; onApply: (f: AuditFilters) => void }) {
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const field = (key: keyof AuditFilters) => ({
    id: `audit-filter-${key}`,
    value: draft[key] ?? '',
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <Card className="mb-4 p-4">
      <form
        onSubmit={submit}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        aria-label="Audit log filters"
      >
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-actorUsername">{text.filterUser}</Label>
          <Input {...field('actorUsername')} autoComplete="off" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-action">{text.filterAction}</Label>
          <Input {...field('action')} placeholder="patient.read" autoComplete="off" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-patientId">{text.filterPatient}</Label>
          <Input {...field('patientId')} inputMode="numeric" autoComplete="off" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-entityType">{text.filterRecordType}</Label>
          <Input {...field('entityType')} placeholder="patient" autoComplete="off" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-outcome">{text.filterOutcome}</Label>
          <NativeSelect {...field('outcome')}>
            <option value="">{text.anyOutcome}</option>
            {AUDIT_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {text.outcomes[outcome]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-from">{text.filterFrom}</Label>
          <Input {...field('from')} type="date" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-filter-to">{text.filterTo}</Label>
          <Input {...field('to')} type="date" />
        </div>
        <div className="flex items-end gap-2">
          <Button type="submit">{text.apply}</Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setDraft({});
              onApply({});
            }}
          >
            {text.clear}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Walks the hash chain on the server and says whether it holds. */
export function ChainCheck() {
  const verify = useMutation({
    mutationFn: () => apiRequest<ChainVerification>('GET', '/api/admin/audit-logs/verification'),
  });
  const result = verify.data;
  return (
    <div className="mb-4 grid gap-3">
      {result &&
        (result.ok ? (
          <Alert>
            <ShieldCheck aria-hidden />
            <AlertTitle role="status">{text.chainIntact(result.checked)}</AlertTitle>
            {result.heads.length > 0 && (
              <AlertDescription className="break-all font-mono text-xs">
                {result.heads.map((h) => `${h.lane}.${h.seq} ${h.hash}`).join('\n')}
              </AlertDescription>
            )}
          </Alert>
        ) : (
          <Alert variant="destructive">
            <ShieldAlert aria-hidden />
            <AlertTitle role="status">
              {result.firstBroken
                ? text.chainBroken(result.firstBroken.eventId, result.firstBroken.reason)
                : text.chainNotVerified}
            </AlertTitle>
          </Alert>
        ))}
      {verify.isError && <ErrorState error={verify.error} />}
      <div>
        <Button variant="outline" onClick={() => verify.mutate()} disabled={verify.isPending}>
          {verify.isPending ? <Spinner className="size-4" /> : <ShieldCheck aria-hidden />}
          {verify.isPending ? text.verifying : text.verifyChain}
        </Button>
      </div>
    </div>
  );
}

function EventDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useQuery<AuditEventDetail>({ queryKey: [`/api/admin/audit-logs/${id}`] });
  const event = detail.data;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{text.detailTitle(id)}</DialogTitle>
          <DialogDescription>{event ? formatDateTime(event.occurredAt) : ''}</DialogDescription>
        </DialogHeader>
        {detail.isPending && <PageSpinner />}
        {detail.isError && <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />}
        {event && (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-600">{text.columns.user}</dt>
            <dd>{event.actorUsername ?? text.anonymous}</dd>
            <dt className="text-slate-600">{text.columns.action}</dt>
            <dd className="font-mono">{event.action}</dd>
            <dt className="text-slate-600">{text.columns.outcome}</dt>
            <dd>
              <OutcomeBadge outcome={event.outcome} />
            </dd>
            <dt className="text-slate-600">{text.columns.record}</dt>
            <dd>{recordOf(event)}</dd>
            <dt className="text-slate-600">{text.columns.ip}</dt>
            <dd>{event.ip ?? '—'}</dd>
            <dt className="text-slate-600">User agent</dt>
            <dd className="break-all">{event.userAgent ?? '—'}</dd>
            <dt className="text-slate-600">Details</dt>
            <dd>
              <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(event.details, null, 2)}
              </pre>
            </dd>
            <dt className="text-slate-600">{text.detailChain}</dt>
            <dd className="break-all font-mono text-xs">
              {event.chain ? `#${event.chain.lane}.${event.chain.seq} ${event.chain.hash}` : '—'}
            </dd>
          </dl>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The events, as a table on wide screens and as cards on a phone. */
export function AuditEventList({
  events,
  onOpen,
}: {
  events: AuditEventView[];
  onOpen: (id: number) => void;
}) {
  return (
    <>
      <ul className="grid gap-2 md:hidden">
        {events.map((event) => (
          <li key={event.id}>
            <button
              type="button"
              className="w-full rounded-lg border border-slate-200 bg-white p-3 text-left focus-visible:outline-2 focus-visible:outline-accent-600"
              onClick={() => onOpen(event.id)}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-mono text-sm">{event.action}</span>
                <OutcomeBadge outcome={event.outcome} />
              </span>
              <span className="mt-1 block text-xs text-slate-600">
                {formatDateTime(event.occurredAt)} · {event.actorUsername ?? text.anonymous} ·{' '}
                {recordOf(event)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Card className="hidden overflow-hidden md:block">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-600 uppercase">
              <tr>
                {[
                  text.columns.time,
                  text.columns.user,
                  text.columns.action,
                  text.columns.record,
                  text.columns.outcome,
                  text.columns.ip,
                ].map((label) => (
                  <th key={label} scope="col" className="px-4 py-3">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {events.map((event) => (
                <tr key={event.id}>
                  <td className="px-4 py-2 whitespace-nowrap">
                    <button
                      type="button"
                      className="text-accent-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
                      onClick={() => onOpen(event.id)}
                      aria-label={`Open event ${event.id}`}
                    >
                      {formatDateTime(event.occurredAt)}
                    </button>
                  </td>
                  <td className="px-4 py-2">{event.actorUsername ?? text.anonymous}</td>
                  <td className="px-4 py-2 font-mono">{event.action}</td>
                  <td className="px-4 py-2">{recordOf(event)}</td>
                  <td className="px-4 py-2">
                    <OutcomeBadge outcome={event.outcome} />
                  </td>
                  <td className="px-4 py-2 text-slate-600">{event.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}

/** /admin/audit-logs: the trail, filtered, paged by cursor, exported, and its chain verified. */
export default function AuditLogsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = filtersFromSearch(search);
  const query = filtersToApiSearch(filters);
  const [openId, setOpenId] = useState<number | null>(null);

  const pages = useInfiniteQuery({
    queryKey: ['/api/admin/audit-logs', query],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AuditPage>(
        'GET',
        `/api/admin/audit-logs?pageSize=50${query ? `&${query}` : ''}${pageParam ? `&cursor=${pageParam}` : ''}`,
        undefined,
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const events = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const apply = (next: AuditFilters) => {
    const qs = filtersToSearch(next);
    navigate(`/admin/audit-logs${qs ? `?${qs}` : ''}`);
  };

  return (
    <>
      <PageHeader
        title={text.title}
        description={text.description}
        actions={
          <Button asChild variant="outline">
            <a href={`/api/admin/audit-logs/export${query ? `?${query}` : ''}`} download>
              <Download aria-hidden />
              {text.exportCsv}
            </a>
          </Button>
        }
      />
      <ChainCheck />
      <FilterForm key={search} filters={filters} onApply={apply} />
      {pages.isPending ? (
        <PageSpinner />
      ) : pages.isError ? (
        <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />
      ) : events.length === 0 ? (
        <EmptyState icon={<ScrollText className="size-6" aria-hidden />} title={text.empty} />
      ) : (
        <>
          <AuditEventList events={events} onOpen={setOpenId} />
          {pages.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="outline"
                onClick={() => void pages.fetchNextPage()}
                disabled={pages.isFetchingNextPage}
              >
                {pages.isFetchingNextPage && <Spinner className="size-4" />}
                {text.loadMore}
              </Button>
            </div>
          )}
        </>
      )}
      {openId !== null && <EventDetail id={openId} onClose={() => setOpenId(null)} />}
    </>
  );
}
