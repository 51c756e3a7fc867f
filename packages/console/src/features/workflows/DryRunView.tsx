import { type DryRunResult, type DryRunStep, workflowMessages as m } from '@wellrest/core';
import { CheckCircle2, ShieldCheck, TriangleAlert, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

const d = m.dryRun;

function StepBody({ step }: { step: DryRunStep }) {
  switch (step.type) {
    case 'condition':
      return (
        <>
          <p className={step.decision === 'yes' ? 'text-green-800' : 'text-red-800'}>
            {step.decision === 'yes' ? d.decisionYes : d.decisionNo}
          </p>
          <ul className="mt-1 space-y-0.5 text-xs">
            {step.rules.map((rule) => (
              <li
                key={`${rule.field}-${rule.operator}-${String(rule.value)}`}
                className="flex items-center gap-1"
              >
                {rule.passed ? (
                  <CheckCircle2 className="size-3 text-green-700" aria-label={m.builder.yes} />
                ) : (
                  <XCircle className="size-3 text-red-700" aria-label={m.builder.no} />
                )}
                <code>{rule.field}</code>{' '}
                {m.operators[rule.operator as keyof typeof m.operators] ?? rule.operator}{' '}
                <code>{JSON.stringify(rule.value)}</code> ({JSON.stringify(rule.actual)})
              </li>
            ))}
          </ul>
        </>
      );
    case 'message':
      return (
        <div className="space-y-1">
          {step.error && <p className="text-red-800">{step.error}</p>}
          {step.subject !== undefined && <p className="font-medium text-slate-900">{step.subject}</p>}
          {(step.text ?? step.body) && (
            <pre className="whitespace-pre-wrap rounded bg-slate-50 p-2 font-sans text-sm text-slate-800">
              {step.text ?? step.body}
            </pre>
          )}
        </div>
      );
    case 'notification':
      return (
        <div>
          <p className="font-medium text-slate-900">{step.title}</p>
          {step.body && <p className="text-slate-700">{step.body}</p>}
        </div>
      );
    case 'note':
      return <p className="whitespace-pre-wrap text-slate-800">{step.text}</p>;
    case 'webhook':
      return (
        <pre className="max-h-40 overflow-auto rounded bg-slate-50 p-2 text-[11px]">
          {JSON.stringify(step.payload, null, 2)}
        </pre>
      );
    default:
      return null;
  }
}

/** What a test run decided and would have sent, step by step. Nothing was sent. */
export function DryRunView({ result }: { result: DryRunResult }) {
  return (
    <div className="space-y-3" data-testid="dry-run-result">
      <p className="flex items-center gap-2 rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
        <ShieldCheck className="size-4" aria-hidden />
        {d.nothingSent}
      </p>
      {result.issues.length > 0 && (
        <ul className="space-y-1 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">
          {result.issues.map((issue) => (
            <li key={`${issue.nodeId}-${issue.message}`} className="flex gap-1">
              <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
              {issue.nodeId && <code className="text-xs">{issue.nodeId}</code>} {issue.message}
            </li>
          ))}
        </ul>
      )}
      <ol className="space-y-2">
        {result.steps.map((step, index) => (
          <li
            key={step.nodeId}
            className="space-y-1 rounded-lg border border-slate-200 p-3 text-sm"
            data-testid={`dry-run-step-${step.nodeId}`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="grid size-6 place-content-center rounded-full bg-slate-100 text-xs font-semibold">
                {index + 1}
              </span>
              <span className="font-medium text-slate-900">{step.label}</span>
              <Badge className="ml-auto">{step.nodeId}</Badge>
            </div>
            <p className="text-slate-600">{step.detail}</p>
            <StepBody step={step} />
          </li>
        ))}
      </ol>
    </div>
  );
}
