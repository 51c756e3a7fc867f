import {
  GHL_ACTIONS_BY_KIND,
  type GhlIssue,
  type GhlResolution,
  type GhlSyncRun,
  ghlMessages,
  messages,
} from '@wellrest/core';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/datetime';
import { useGhlReport, useResolveGhlIssue } from './queries';

const RUN_TONES = { running: 'blue', done: 'green', stopped: 'amber', failed: 'red' } as const;

function when(iso: string): string {
  return formatDateTime(iso);
}

function RunList({ runs }: { runs: GhlSyncRun[] }) {
  if (runs.length === 0) return <EmptyState title={ghlMessages.report.noRuns} />;
  return (
    <ul className="grid gap-2">
      {runs.map((run) => (
        <li key={run.id} className="rounded-lg border border-slate-200 px-3 py-2 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={RUN_TONES[run.status]}>{ghlMessages.runStatus[run.status]}</Badge>
            <span className="text-slate-600">{when(run.startedAt)}</span>
          </div>
          <p className="mt-1 text-slate-800">
            {ghlMessages.syncSummary({
              imported: run.imported,
              pushed: run.pushed,
              rejected: run.rejected,
              conflicts: run.conflicts,
            })}
          </p>
          {run.message && <p className="mt-1 text-amber-900">{run.message}</p>}
        </li>
      ))}
    </ul>
  );
}

function IssueActions({ issue }: { issue: GhlIssue }) {
  const resolve = useResolveGhlIssue();
  const actions = GHL_ACTIONS_BY_KIND[issue.kind];
  if (actions.length === 0) return null;
  const decide = (action: GhlResolution) =>
    resolve.mutate(
      { issueId: issue.id, action },
      {
        onSuccess: (result) => toast({ variant: 'success', title: result.message }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: ghlMessages.report.resolveFailed,
            description: errorMessage(error, ghlMessages.report.resolveFailed),
          }),
      },
    );
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      {actions.map((action) => (
        <Button
          key={action}
          size="sm"
          variant={action === 'skip' || action === 'ours' ? 'outline' : 'secondary'}
          disabled={resolve.isPending}
          onClick={() => decide(action)}
        >
          {ghlMessages.actions[action]}
        </Button>
      ))}
    </div>
  );
}

/** One rejection or conflict: who, what happened, and the decisions staff can take. */
export function GhlIssueItem({ issue, showPatient = true }: { issue: GhlIssue; showPatient?: boolean }) {
  return (
    <li className="rounded-lg border border-amber-200 bg-amber-50/60 px-3 py-2 text-sm">
      {showPatient && (
        <a
          className="font-medium text-accent-800 underline-offset-4 hover:underline"
          href={`/patients#patient-${issue.patientId}`}
        >
          {issue.patientName || messages.labels.unknownPatient}
        </a>
      )}
      <p className="text-slate-900">{issue.message}</p>
      {issue.kind === 'duplicate' && issue.otherPatientId !== null && (
        <p className="text-slate-700">
          <a
            className="text-accent-800 underline underline-offset-4"
            href={`/patients#patient-${issue.otherPatientId}`}
          >
            {issue.otherPatientName || messages.labels.unknownPatient}
          </a>
          {issue.remoteName ? ` — ${issue.remoteName}` : ''}
        </p>
      )}
      {issue.kind === 'name' && (
        <p className="text-slate-700">
          {issue.localName} ↔ {issue.remoteName}
        </p>
      )}
      <IssueActions issue={issue} />
    </li>
  );
}

function IssueList({ issues, empty }: { issues: GhlIssue[]; empty: string }) {
  if (issues.length === 0) return <EmptyState icon={<CircleCheck aria-hidden />} title={empty} />;
  return (
    <ul className="grid gap-2">
      {issues.map((issue) => (
        <GhlIssueItem key={issue.id} issue={issue} />
      ))}
    </ul>
  );
}

/** The sync report: counts of recent runs, then the conflicts to resolve and the rejections. */
export function GhlSyncReportView() {
  const report = useGhlReport();
  return (
    <QueryState query={report}>
      {report.data && (
        <div className="grid gap-5">
          <section aria-labelledby="ghl-conflicts" className="grid gap-2">
            <h3 id="ghl-conflicts" className="text-sm font-semibold text-slate-900">
              {ghlMessages.report.conflicts} ({report.data.counts.conflicts})
            </h3>
            <IssueList
              issues={report.data.issues.filter((i) => i.kind !== 'rejected')}
              empty={ghlMessages.report.noConflicts}
            />
          </section>
          <section aria-labelledby="ghl-rejections" className="grid gap-2">
            <h3 id="ghl-rejections" className="text-sm font-semibold text-slate-900">
              {ghlMessages.report.rejections} ({report.data.counts.rejected})
            </h3>
            <IssueList
              issues={report.data.issues.filter((i) => i.kind === 'rejected')}
              empty={ghlMessages.report.noRejections}
            />
          </section>
          <section aria-labelledby="ghl-runs" className="grid gap-2">
            <h3 id="ghl-runs" className="text-sm font-semibold text-slate-900">
              {ghlMessages.report.lastRuns}
            </h3>
            <RunList runs={report.data.runs} />
          </section>
        </div>
      )}
    </QueryState>
  );
}

export function GhlReportDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{ghlMessages.report.title}</DialogTitle>
          <DialogDescription className="sr-only">{ghlMessages.report.link}</DialogDescription>
        </DialogHeader>
        {/* A patient link opens that patient's panel: the report steps aside. */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: only catches clicks of the links inside */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the links inside are reached and followed by keyboard */}
        <div onClick={(event) => (event.target as HTMLElement).closest('a') && onOpenChange(false)}>
          {open && <GhlSyncReportView />}
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** On the patient panel: this patient's rejection or conflicts, if any. */
export function GhlPatientIssues({ patientId }: { patientId: number }) {
  const report = useGhlReport({ patientId });
  const issues = report.data?.issues ?? [];
  if (report.isError || issues.length === 0) return null;
  return (
    <section aria-labelledby={`patient-${patientId}-ghl`} className="grid gap-2">
      <h3
        id={`patient-${patientId}-ghl`}
        className="flex items-center gap-2 text-xs font-semibold tracking-wide text-slate-500 uppercase"
      >
        <TriangleAlert className="size-3.5 text-amber-700" aria-hidden />
        {ghlMessages.report.patientIssues}
      </h3>
      <ul className="grid gap-2">
        {issues.map((issue) => (
          <GhlIssueItem key={issue.id} issue={issue} showPatient={false} />
        ))}
      </ul>
    </section>
  );
}
