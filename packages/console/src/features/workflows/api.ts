import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DryRunResult,
  DryRunSample,
  LibraryItemView,
  WorkflowDetail,
  WorkflowDraftInput,
  WorkflowGraph,
  WorkflowIssue,
  WorkflowListItem,
  WorkflowRunDetail,
  WorkflowRunListItem,
} from '@wellrest/core';
import { ApiError, apiRequest, getQueryFn } from '@/lib/api';
import type { TemplateOption, WorkflowUser } from './NodePanel';

export const LIST_KEY = ['/api/workflows'] as const;
export const LIBRARY_KEY = ['/api/workflow-library'] as const;
export const TEMPLATES_KEY = ['/api/templates'] as const;
export const workflowKey = (id: number) => [`/api/workflows/${id}`] as const;
export const runsKey = (id: number) => [`/api/workflows/${id}/runs`] as const;
export const runKey = (id: number) => [`/api/workflow-runs/${id}`] as const;
export const samplesKey = (id: number) => [`/api/workflows/${id}/samples`] as const;

/**
 * The app's data query, named on each query rather than left to the client's default, so a story
 * can answer the calls with its fetch stub.
 */
// biome-ignore lint/suspicious/noExplicitAny: one query function serves every answer type
const read = getQueryFn<any>({ on401: 'throw' });

export function useWorkflows() {
  return useQuery<{ workflows: WorkflowListItem[] }>({ queryKey: LIST_KEY, queryFn: read });
}

export function useWorkflow(id: number | null) {
  return useQuery<WorkflowDetail>({ queryKey: workflowKey(id ?? 0), queryFn: read, enabled: id !== null });
}

export function useTemplates() {
  return useQuery<{ items: TemplateOption[] }>({ queryKey: TEMPLATES_KEY, queryFn: read });
}

export function useWorkflowUsers(enabled: boolean) {
  return useQuery<{ users: WorkflowUser[] }>({ queryKey: ['/api/workflow-users'], queryFn: read, enabled });
}

export function useRuns(id: number | null) {
  return useQuery<{ runs: WorkflowRunListItem[] }>({
    queryKey: runsKey(id ?? 0),
    queryFn: read,
    enabled: id !== null,
  });
}

export function useRun(id: number | null) {
  return useQuery<WorkflowRunDetail>({ queryKey: runKey(id ?? 0), queryFn: read, enabled: id !== null });
}

export function useLibrary() {
  return useQuery<{ workflows: LibraryItemView[] }>({ queryKey: LIBRARY_KEY, queryFn: read });
}

export function useSamples(id: number | null, enabled: boolean) {
  return useQuery<{ records: DryRunSample[] }>({
    queryKey: samplesKey(id ?? 0),
    enabled: enabled && id !== null,
  });
}

/** The problems by node of a 400 from save or enable, when the server named them. */
export function nodeIssuesOf(error: unknown): WorkflowIssue[] | undefined {
  if (error instanceof ApiError && error.data && typeof error.data === 'object' && 'nodeIssues' in error.data)
    return (error.data as { nodeIssues: WorkflowIssue[] }).nodeIssues;
  return undefined;
}

/** Keeps the list and the one workflow's cache in step with an answer of the server. */
function useRemember() {
  const client = useQueryClient();
  return (detail: WorkflowDetail) => {
    client.setQueryData(workflowKey(detail.id), detail);
    void client.invalidateQueries({ queryKey: LIST_KEY });
  };
}

export function useCreateWorkflow() {
  const remember = useRemember();
  return useMutation({
    mutationFn: (draft: WorkflowDraftInput) => apiRequest<WorkflowDetail>('POST', '/api/workflows', draft),
    onSuccess: remember,
  });
}

export function useSaveWorkflow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, draft }: { id: number; draft: WorkflowDraftInput }) =>
      apiRequest<WorkflowDetail>('PUT', `/api/workflows/${id}`, draft),
    // The builder keeps its own copy of the graph while it is being edited: the answer only
    // refreshes what the list shows.
    onSuccess: () => void client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

export function useWorkflowAction() {
  const remember = useRemember();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'enable' | 'disable' | 'duplicate' }) =>
      apiRequest<WorkflowDetail>('POST', `/api/workflows/${id}/${action}`),
    onSuccess: remember,
  });
}

export function useDeleteWorkflow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/workflows/${id}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

export function useRetryStep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, stepId }: { runId: number; stepId: number }) =>
      apiRequest<WorkflowRunDetail>('POST', `/api/workflow-runs/${runId}/steps/${stepId}/retry`),
    onSuccess: (run) => {
      client.setQueryData(runKey(run.id), run);
      void client.invalidateQueries({ queryKey: runsKey(run.workflowId) });
      void client.invalidateQueries({ queryKey: LIST_KEY });
    },
  });
}

export function useInstall() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => apiRequest<WorkflowDetail>('POST', `/api/workflow-library/${key}/install`),
    onSuccess: (detail) => {
      client.setQueryData(workflowKey(detail.id), detail);
      void client.invalidateQueries({ queryKey: LIST_KEY });
      void client.invalidateQueries({ queryKey: LIBRARY_KEY });
    },
  });
}

export function useDryRun(id: number | null) {
  return useMutation({
    mutationFn: ({ recordId, graph }: { recordId: number | null; graph: WorkflowGraph }) =>
      apiRequest<DryRunResult>('POST', `/api/workflows/${id}/test`, { recordId, graph }),
  });
}
