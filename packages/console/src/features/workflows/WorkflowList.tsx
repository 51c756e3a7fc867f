import { workflowMessages as m, type WorkflowListItem } from '@wellrest/core';
import { Copy, History, Pencil, Power, PowerOff } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatDateTime } from '@/lib/utils';
import { RUN_TONE, STATUS_TONE, triggerText } from './labels';

export type ListAction = 'enable' | 'disable' | 'duplicate';

/** The workflows of the practice: trigger, status, last run, runs and failures of the last 7 days. */
export function WorkflowList({
  rows,
  canEdit,
  busyId = null,
  onAction,
  onHistory,
}: {
  rows: readonly WorkflowListItem[];
  canEdit: boolean;
  /** The workflow an action is under way for: its buttons wait. */
  busyId?: number | null;
  onAction: (row: WorkflowListItem, action: ListAction) => void;
  onHistory: (row: WorkflowListItem) => void;
}) {
  return (
    <Card>
      <CardContent className="overflow-x-auto p-0">
        <table className="w-full text-left text-sm" aria-label={m.title}>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-4 py-3 font-medium">{m.columns.name}</th>
              <th className="hidden px-4 py-3 font-medium md:table-cell">{m.columns.trigger}</th>
              <th className="px-4 py-3 font-medium">{m.columns.status}</th>
              <th className="hidden px-4 py-3 font-medium lg:table-cell">{m.columns.lastRun}</th>
              <th className="hidden px-4 py-3 text-right font-medium sm:table-cell">{m.columns.runs7d}</th>
              <th className="hidden px-4 py-3 text-right font-medium sm:table-cell">
                {m.columns.failures7d}
              </th>
              <th className="px-4 py-3 font-medium">
                <span className="sr-only">{m.edit}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => {
              const busy = busyId === row.id;
              return (
                <tr key={row.id} data-testid={`workflow-row-${row.id}`}>
                  <td className="px-4 py-3 align-top">
                    {canEdit ? (
                      <Link
                        href={`/workflow-builder/${row.id}`}
                        className="font-medium text-slate-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
                      >
                        {row.name || m.builder.untitled}
                      </Link>
                    ) : (
                      <span className="font-medium text-slate-900">{row.name || m.builder.untitled}</span>
                    )}
                    <p className="mt-0.5 text-xs text-slate-600 md:hidden">{triggerText(row.trigger)}</p>
                    <div className="mt-1 flex flex-wrap gap-1">
                      {row.version !== null && <Badge>{m.version(row.version)}</Badge>}
                      {row.hasUnpublishedChanges && row.status === 'enabled' && (
                        <Badge tone="orange">{m.unpublishedChanges}</Badge>
                      )}
                    </div>
                    <p className="mt-1 text-xs text-slate-600 sm:hidden">
                      {m.columns.runs7d}: {row.runs7d} · {m.columns.failures7d}: {row.failures7d}
                    </p>
                  </td>
                  <td className="hidden px-4 py-3 align-top md:table-cell">{triggerText(row.trigger)}</td>
                  <td className="px-4 py-3 align-top">
                    <Badge tone={STATUS_TONE[row.status]}>{m.status[row.status]}</Badge>
                  </td>
                  <td className="hidden px-4 py-3 align-top lg:table-cell">
                    {row.lastRunAt ? (
                      <span className="flex flex-col gap-1">
                        <span>{formatDateTime(row.lastRunAt)}</span>
                        {row.lastRunStatus && (
                          <Badge tone={RUN_TONE[row.lastRunStatus]} className="self-start">
                            {m.runs.status[row.lastRunStatus]}
                          </Badge>
                        )}
                      </span>
                    ) : (
                      <span className="text-slate-500">{m.never}</span>
                    )}
                  </td>
                  <td className="hidden px-4 py-3 text-right align-top tabular-nums sm:table-cell">
                    {row.runs7d}
                  </td>
                  <td
                    className={`hidden px-4 py-3 text-right align-top tabular-nums sm:table-cell ${row.failures7d > 0 ? 'font-semibold text-red-700' : ''}`}
                  >
                    {row.failures7d}
                  </td>
                  <td className="px-4 py-3 align-top">
                    <div className="flex flex-wrap justify-end gap-1 sm:flex-nowrap">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => onHistory(row)}
                        aria-label={`${m.history}: ${row.name}`}
                      >
                        <History aria-hidden />
                        <span className="hidden 2xl:inline">{m.history}</span>
                      </Button>
                      {canEdit && (
                        <>
                          {row.status === 'enabled' ? (
                            <Button
                              variant="outline"
                              size="sm"
                              disabled={busy}
                              onClick={() => onAction(row, 'disable')}
                              aria-label={`${m.disable}: ${row.name}`}
                            >
                              <PowerOff aria-hidden />
                              <span className="hidden 2xl:inline">{m.disable}</span>
                            </Button>
                          ) : (
                            <Button
                              variant="outline"
                              size="sm"
                              disabled={busy}
                              onClick={() => onAction(row, 'enable')}
                              aria-label={`${m.enable}: ${row.name}`}
                            >
                              <Power aria-hidden />
                              <span className="hidden 2xl:inline">{m.enable}</span>
                            </Button>
                          )}
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={busy}
                            onClick={() => onAction(row, 'duplicate')}
                            aria-label={`${m.duplicate}: ${row.name}`}
                          >
                            <Copy aria-hidden />
                            <span className="hidden 2xl:inline">{m.duplicate}</span>
                          </Button>
                          <Button asChild variant="ghost" size="sm">
                            <Link href={`/workflow-builder/${row.id}`} aria-label={`${m.edit}: ${row.name}`}>
                              <Pencil aria-hidden />
                            </Link>
                          </Button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

/** The list while it loads: rows shaped like the real ones. */
export function WorkflowListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <Card role="region" aria-busy="true" aria-label={m.title}>
      <CardContent className="divide-y divide-slate-100 p-0">
        {Array.from({ length: rows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
          <div key={i} className="flex items-center gap-4 px-4 py-4">
            <div className="flex-1 space-y-2">
              <div className="h-4 w-48 max-w-full animate-pulse rounded bg-slate-200" />
              <div className="h-3 w-32 animate-pulse rounded bg-slate-100" />
            </div>
            <div className="hidden h-4 w-32 animate-pulse rounded bg-slate-100 md:block" />
            <div className="h-5 w-16 animate-pulse rounded-full bg-slate-100" />
            <div className="hidden h-4 w-10 animate-pulse rounded bg-slate-100 sm:block" />
            <div className="h-8 w-24 animate-pulse rounded bg-slate-100" />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
