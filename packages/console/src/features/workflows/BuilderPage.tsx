import { workflowMessages as m, WORKFLOW_TRIGGER_KINDS, type WorkflowTrigger } from '@wellrest/core';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { ErrorState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useCreateWorkflow, useWorkflow } from './api';
import { emptyGraph } from './graph';
import { defaultTrigger } from './NodePanel';
import { WorkflowBuilder } from './WorkflowBuilder';

function BackToList() {
  return (
    <Button asChild variant="outline">
      <Link href="/workflows">
        <ArrowLeft aria-hidden />
        {m.title}
      </Link>
    </Button>
  );
}

/** A new workflow starts from its name and what starts it; then the canvas opens on the saved draft. */
function NewWorkflow() {
  const ids = useId();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<WorkflowTrigger['kind']>('booking.created');
  const create = useCreateWorkflow();
  const [, navigate] = useLocation();
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), description: '', graph: emptyGraph(defaultTrigger(kind)), rateLimitPerHour: 100 },
      {
        onSuccess: (detail) => navigate(`/workflow-builder/${detail.id}`, { replace: true }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: m.builder.saveFailed,
            description: errorMessage(error, m.builder.saveFailed),
          }),
      },
    );
  }
  return (
    <>
      <PageHeader title={m.newWorkflow} actions={<BackToList />} />
      <Card className="max-w-xl">
        <CardContent className="p-4">
          <form className="space-y-4" onSubmit={submit} aria-label={m.newWorkflow}>
            <div className="space-y-1">
              <Label htmlFor={`${ids}-name`}>{m.builder.name}</Label>
              <Input id={`${ids}-name`} value={name} required onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${ids}-trigger`}>{m.columns.trigger}</Label>
              <NativeSelect
                id={`${ids}-trigger`}
                value={kind}
                onChange={(e) => setKind(e.target.value as WorkflowTrigger['kind'])}
              >
                {WORKFLOW_TRIGGER_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {m.triggers[k]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <Button type="submit" disabled={create.isPending || name.trim() === ''}>
              {create.isPending ? m.builder.saving : m.newWorkflow}
            </Button>
          </form>
        </CardContent>
      </Card>
    </>
  );
}

/** The builder while the workflow loads: toolbar, canvas and panel shaped like the real ones. */
export function BuilderSkeleton() {
  return (
    <div className="space-y-3" role="status" aria-busy="true" aria-label={m.builder.title}>
      <div className="h-20 animate-pulse rounded-lg bg-slate-100" />
      <div className="h-8 w-2/3 animate-pulse rounded bg-slate-100" />
      <div className="grid gap-3 lg:grid-cols-[1fr_22rem]">
        <div className="relative h-[60dvh] rounded-lg border border-slate-200 bg-white">
          <div className="absolute top-10 left-1/2 h-20 w-56 -translate-x-1/2 animate-pulse rounded-lg bg-slate-100" />
          <div className="absolute top-44 left-1/2 h-20 w-56 -translate-x-1/2 animate-pulse rounded-lg bg-slate-100" />
        </div>
        <div className="hidden h-[60dvh] animate-pulse rounded-lg bg-slate-100 lg:block" />
      </div>
    </div>
  );
}

function ExistingWorkflow({ id }: { id: number }) {
  const workflow = useWorkflow(id);
  const notFound =
    workflow.error instanceof Error && 'status' in workflow.error && workflow.error.status === 404;
  return (
    <>
      <PageHeader title={workflow.data?.name || m.builder.title} actions={<BackToList />} />
      {workflow.isPending ? (
        <BuilderSkeleton />
      ) : workflow.isError ? (
        notFound ? (
          <p className="text-sm text-slate-700">{m.builder.notFound}</p>
        ) : (
          <ErrorState error={workflow.error} onRetry={() => void workflow.refetch()} />
        )
      ) : (
        <WorkflowBuilder key={workflow.data.id} initial={workflow.data} />
      )}
    </>
  );
}

/** /workflow-builder (a new workflow) and /workflow-builder/:id (the canvas of one). */
export default function BuilderPage() {
  const params = useParams<{ id?: string }>();
  if (params.id === undefined) return <NewWorkflow />;
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0)
    return (
      <>
        <PageHeader title={m.builder.title} actions={<BackToList />} />
        <p className="text-sm text-slate-700">{m.builder.notFound}</p>
      </>
    );
  return <ExistingWorkflow id={id} />;
}
