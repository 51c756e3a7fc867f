import {
  workflowMessages as m,
  type WorkflowRunDetail,
  type WorkflowRunListItem,
  type WorkflowRunStepView,
} from '@wellrest/core';
import { History, RotateCcw } from 'lucide-react';
import { EmptyState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn, formatDateTime } from '@/lib/utils';
import { duration, RUN_TONE } from './labels';

const r = m.runs;

function recordText(run: WorkflowRunListItem): string {
  return run.record ? `${run.record.type.replace(/_/g, ' ')} #${run.record.id}` : '—';
}

/** The runs of one workflow, newest first; choosing one shows its steps. */
export function RunList({
  runs,
  selectedId,
  onSelect,
}: {
  runs: readonly WorkflowRunListItem[];
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  if (runs.length === 0)
    return <EmptyState icon={<History className="size-8" aria-hidden />} title={r.empty} />;
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label={r.title}>
      {runs.map((run) => (
        <li key={run.id}>
          <button
            type="button"
            aria-current={run.id === selectedId ? 'true' : undefined}
            onClick={() => onSelect(run.id)}
            className={cn(
              'flex w-full flex-col gap-1 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-600',
              run.id === selectedId && 'bg-accent-50',
            )}
          >
            <span className="flex items-center justify-between gap-2">
              <span className="font-medium text-slate-900">{formatDateTime(run.startedAt)}</span>
              <Badge tone={RUN_TONE[run.status]}>{r.status[run.status]}</Badge>
            </span>
            <span className="text-xs text-slate-600">
              {r.record}: {recordText(run)} · {m.version(run.version)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function Json({ label, value }: { label: string; value: Record<string, unknown> | null }) {
  if (!value || Object.keys(value).length === 0) return null;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer font-medium text-slate-700">{label}</summary>
      <pre className="mt-1 max-h-60 overflow-auto rounded bg-slate-50 p-2 text-[11px] leading-snug text-slate-800">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

function StepItem({
  step,
  index,
  canRetry,
  retrying,
  onRetry,
}: {
  step: WorkflowRunStepView;
  index: number;
  canRetry: boolean;
  retrying: boolean;
  onRetry: () => void;
}) {
  const took = duration(step.startedAt, step.finishedAt);
  return (
    <li className="space-y-2 rounded-lg border border-slate-200 p-3" data-testid={`run-step-${step.nodeId}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="grid size-6 place-content-center rounded-full bg-slate-100 text-xs font-semibold text-slate-700">
          {index + 1}
        </span>
        <span className="font-medium text-slate-900">{step.label}</span>
        <span className="font-mono text-[11px] text-slate-500">{step.nodeId}</span>
        <Badge tone={RUN_TONE[step.status]} className="ml-auto">
          {r.stepStatus[step.status]}
        </Badge>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-600 sm:grid-cols-4">
        <div>
          <dt className="sr-only">{r.started}</dt>
          <dd>
            {r.started}: {formatDateTime(step.startedAt)}
          </dd>
        </div>
        <div>
          <dt className="sr-only">{r.finished}</dt>
          <dd>
            {r.finished}: {formatDateTime(step.finishedAt)}
            {took && ` (${took})`}
          </dd>
        </div>
        <div>
          <dt className="sr-only">{r.attempts(step.attempts)}</dt>
          <dd>{r.attempts(step.attempts)}</dd>
        </div>
        {step.runAfter && (
          <div>
            <dt className="sr-only">{r.stepStatus.waiting}</dt>
            <dd>
              {r.stepStatus.waiting}: {formatDateTime(step.runAfter)}
            </dd>
          </div>
        )}
      </dl>
      {step.error && (
        <p className="rounded bg-red-50 px-2 py-1 text-xs text-red-800">
          <span className="font-semibold">{r.error}: </span>
          {step.error}
        </p>
      )}
      <Json label={r.input} value={step.input} />
      <Json label={r.output} value={step.output} />
      {canRetry && step.status === 'failed' && (
        <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
          <RotateCcw aria-hidden />
          {r.retry}
        </Button>
      )}
    </li>
  );
}

/** One run, step by step: status, input, output, attempts, timing and error, with retry of a failed step. */
export function RunDetailView({
  run,
  canRetry,
  retryingStepId = null,
  onRetry,
}: {
  run: WorkflowRunDetail;
  canRetry: boolean;
  retryingStepId?: number | null;
  onRetry: (step: WorkflowRunStepView) => void;
}) {
  return (
    <section className="space-y-3" aria-label={`${r.title}: ${formatDateTime(run.startedAt)}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={RUN_TONE[run.status]}>{r.status[run.status]}</Badge>
        <Badge>{m.version(run.version)}</Badge>
        <span className="text-sm text-slate-700">
          {r.record}: {recordText(run)}
        </span>
      </div>
      <p className="text-xs text-slate-600">
        {r.started}: {formatDateTime(run.startedAt)} · {r.finished}: {formatDateTime(run.finishedAt)}
      </p>
      {run.error && <p className="rounded bg-red-50 px-2 py-1 text-sm text-red-800">{run.error}</p>}
      <Json label={r.input} value={run.input} />
      <h3 className="text-sm font-semibold text-slate-900">{r.steps}</h3>
      <ol className="space-y-2">
        {run.steps.map((step, index) => (
          <StepItem
            key={step.id}
            step={step}
            index={index}
            canRetry={canRetry && run.status === 'failed'}
            retrying={retryingStepId === step.id}
            onRetry={() => onRetry(step)}
          />
        ))}
      </ol>
    </section>
  );
}

/** Run history while it loads: a list of runs and a step view, shaped like the real ones. */
export function RunHistorySkeleton() {
  return (
    <div className="grid gap-4 md:grid-cols-[16rem_1fr]" role="status" aria-busy="true" aria-label={r.title}>
      <div className="space-y-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-14 animate-pulse rounded-lg bg-slate-100" />
        ))}
      </div>
      <div className="space-y-2">
        <div className="h-5 w-40 animate-pulse rounded bg-slate-200" />
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-24 animate-pulse rounded-lg bg-slate-100" />
        ))}
      </div>
    </div>
  );
}
