import { defineAbilityFor, workflowMessages as m, type WorkflowListItem } from '@wellrest/core';
import { Library, Plus, Workflow } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { errorMessage } from '@/lib/api';
import { nodeIssuesOf, useWorkflowAction, useWorkflows } from './api';
import { RunHistoryDialog } from './RunHistoryDialog';
import { type ListAction, WorkflowList, WorkflowListSkeleton } from './WorkflowList';

/** /workflows: the practice's workflows, enabling and duplicating them, and their run history. */
export default function WorkflowsPage() {
  const { user } = useCurrentUser();
  const canEdit = user ? defineAbilityFor(user).can('update', 'Workflow') : false;
  const list = useWorkflows();
  const act = useWorkflowAction();
  const [, navigate] = useLocation();
  const [history, setHistory] = useState<WorkflowListItem | null>(null);

  function onAction(row: WorkflowListItem, action: ListAction) {
    act.mutate(
      { id: row.id, action },
      {
        onSuccess: (detail) => {
          if (action === 'enable') toast(m.enabled);
          else if (action === 'disable') toast(m.disabled);
          else {
            toast(m.duplicated);
            navigate(`/workflow-builder/${detail.id}`);
          }
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: action === 'enable' ? m.enable : action === 'disable' ? m.disable : m.duplicate,
            description: nodeIssuesOf(error) ? m.enableFailed : errorMessage(error, m.loadFailed),
          }),
      },
    );
  }

  const rows = list.data?.workflows ?? [];
  return (
    <>
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          <>
            <Button asChild variant="outline">
              <Link href="/workflow-library">
                <Library aria-hidden />
                {m.openLibrary}
              </Link>
            </Button>
            {canEdit && (
              <Button asChild>
                <Link href="/workflow-builder">
                  <Plus aria-hidden />
                  {m.newWorkflow}
                </Link>
              </Button>
            )}
          </>
        }
      />
      {list.isPending ? (
        <WorkflowListSkeleton />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState icon={<Workflow className="size-8" aria-hidden />} title={m.empty}>
          {m.emptyHint}
        </EmptyState>
      ) : (
        <WorkflowList
          rows={rows}
          canEdit={canEdit}
          busyId={act.isPending ? (act.variables?.id ?? null) : null}
          onAction={onAction}
          onHistory={setHistory}
        />
      )}
      <RunHistoryDialog workflow={history} canRetry={canEdit} onClose={() => setHistory(null)} />
    </>
  );
}
