import { workflowMessages as m, type WorkflowListItem } from '@wellrest/core';
import { useEffect, useState } from 'react';
import { ErrorState } from '@/components/QueryState';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRetryStep, useRun, useRuns } from './api';
import { triggerText } from './labels';
import { RunDetailView, RunHistorySkeleton, RunList } from './RunHistory';

/** The run history of one workflow in a dialog: runs on one side, the chosen run's steps on the other. */
export function RunHistoryDialog({
  workflow,
  canRetry,
  onClose,
}: {
  workflow: WorkflowListItem | null;
  canRetry: boolean;
  onClose: () => void;
}) {
  const runs = useRuns(workflow?.id ?? null);
  const [selected, setSelected] = useState<number | null>(null);
  const first = runs.data?.runs[0]?.id ?? null;
  useEffect(() => {
    setSelected(first);
  }, [first]);
  const run = useRun(selected);
  const retry = useRetryStep();
  return (
    <Dialog open={workflow !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>
            {m.runs.title}: {workflow?.name}
          </DialogTitle>
          <DialogDescription>{workflow ? triggerText(workflow.trigger) : ''}</DialogDescription>
        </DialogHeader>
        {runs.isPending ? (
          <RunHistorySkeleton />
        ) : runs.isError ? (
          <ErrorState error={runs.error} onRetry={() => void runs.refetch()} />
        ) : runs.data.runs.length === 0 ? (
          <RunList runs={[]} selectedId={null} onSelect={setSelected} />
        ) : (
          <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
            <div className="md:max-h-[65dvh] md:overflow-y-auto">
              <RunList runs={runs.data.runs} selectedId={selected} onSelect={setSelected} />
            </div>
            <div className="md:max-h-[65dvh] md:overflow-y-auto">
              {selected !== null &&
                (run.isPending ? (
                  <div className="h-40 animate-pulse rounded-lg bg-slate-100" />
                ) : run.isError ? (
                  <ErrorState error={run.error} onRetry={() => void run.refetch()} />
                ) : (
                  <RunDetailView
                    run={run.data}
                    canRetry={canRetry}
                    retryingStepId={retry.isPending ? (retry.variables?.stepId ?? null) : null}
                    onRetry={(step) =>
                      retry.mutate(
                        { runId: run.data.id, stepId: step.id },
                        {
                          onSuccess: () => toast(m.runs.retried),
                          onError: (error) =>
                            toast({
                              variant: 'destructive',
                              title: m.runs.retry,
                              description: errorMessage(error, m.runs.notRetryable),
                            }),
                        },
                      )
                    }
                  />
                ))}
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
