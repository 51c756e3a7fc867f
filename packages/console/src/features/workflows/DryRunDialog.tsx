import { workflowMessages as m, type WorkflowGraph } from '@wellrest/core';
import { useId, useState } from 'react';
import { ErrorState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api';
import { useDryRun, useSamples } from './api';
import { DryRunView } from './DryRunView';

const d = m.dryRun;

/** "Test with a sample": choose a real record, run the canvas as it is in dry run, see each decision and message. */
export function DryRunDialog({
  workflowId,
  graph,
  needsRecord,
  open,
  onOpenChange,
}: {
  workflowId: number;
  graph: WorkflowGraph;
  /** False for a schedule, which is about no record. */
  needsRecord: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const samples = useSamples(workflowId, open && needsRecord);
  const [recordId, setRecordId] = useState<number | null>(null);
  const run = useDryRun(workflowId);
  const records = samples.data?.records ?? [];
  const chosen = recordId ?? records[0]?.id ?? null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{d.title}</DialogTitle>
          <DialogDescription>{d.nothingSent}</DialogDescription>
        </DialogHeader>
        {needsRecord &&
          (samples.isPending ? (
            <div className="h-16 animate-pulse rounded bg-slate-100" aria-busy="true" />
          ) : samples.isError ? (
            <ErrorState error={samples.error} onRetry={() => void samples.refetch()} />
          ) : records.length === 0 ? (
            <p className="text-sm text-slate-600">{d.noRecords}</p>
          ) : (
            <div className="space-y-1">
              <Label htmlFor={id}>{d.chooseRecord}</Label>
              <NativeSelect
                id={id}
                value={chosen ?? ''}
                onChange={(e) => setRecordId(Number(e.target.value))}
              >
                {records.map((record) => (
                  <option key={record.id} value={record.id}>
                    {record.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
          ))}
        <div>
          <Button
            disabled={run.isPending || (needsRecord && chosen === null)}
            onClick={() => run.mutate({ recordId: needsRecord ? chosen : null, graph })}
          >
            {run.isPending ? d.running : d.run}
          </Button>
        </div>
        {run.isError && <p className="text-sm text-red-700">{errorMessage(run.error, d.failed)}</p>}
        {run.data && <DryRunView result={run.data} />}
      </DialogContent>
    </Dialog>
  );
}
