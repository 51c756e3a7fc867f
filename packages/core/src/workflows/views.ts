import type { WorkflowGraph, WorkflowNodeType } from './graph.js';
import type { LibrarySend } from './library.js';
import type { WorkflowTrigger, WorkflowTriggerKind } from './triggers.js';
import type { WorkflowIssue } from './validate.js';

// What the workflow API answers. Times are ISO strings.

export const WORKFLOW_STATUSES = ['draft', 'enabled', 'disabled'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export const RUN_STATUSES = ['running', 'waiting', 'completed', 'failed', 'stopped', 'skipped'] as const;
export type WorkflowRunStatus = (typeof RUN_STATUSES)[number];

export const STEP_STATUSES = ['pending', 'running', 'waiting', 'completed', 'failed', 'skipped'] as const;
export type WorkflowStepStatus = (typeof STEP_STATUSES)[number];

/** GET /api/workflows → { workflows: WorkflowListItem[] } */
export interface WorkflowListItem {
  id: number;
  name: string;
  description: string;
  /** The trigger of the draft (null while it has none). */
  trigger: WorkflowTrigger | null;
  status: WorkflowStatus;
  /** The version new runs use (null: never enabled). */
  version: number | null;
  /** The draft differs from the version in use. */
  hasUnpublishedChanges: boolean;
  libraryKey: string | null;
  lastRunAt: string | null;
  lastRunStatus: WorkflowRunStatus | null;
  runs7d: number;
  failures7d: number;
  updatedAt: string;
}

/** GET /api/workflows/:id (also the answer of create, save, enable, disable, duplicate, install). */
export interface WorkflowDetail extends WorkflowListItem {
  graph: WorkflowGraph;
  rateLimitPerHour: number;
  /** Problems of the draft (empty: it can be enabled). */
  issues: WorkflowIssue[];
  /** Signing secret of its webhook calls (HMAC-SHA256), for those who may edit the workflow. */
  webhookSecret: string;
  createdAt: string;
  enabledAt: string | null;
}

/** GET /api/workflows/:id/versions → { versions: WorkflowVersionView[] } */
export interface WorkflowVersionView {
  version: number;
  graph: WorkflowGraph;
  createdAt: string;
  createdBy: string | null;
}

/** POST /api/workflows/validate and the 400 of save/enable: problems keyed by node. */
export interface WorkflowValidationView {
  valid: boolean;
  issues: WorkflowIssue[];
  /** `issuesByNode(issues)`: node id → messages; '' for the workflow as a whole. */
  byNode: Record<string, string[]>;
}

export interface WorkflowRecordRef {
  type: string;
  id: number;
}

/** GET /api/workflows/:id/runs → { runs: WorkflowRunListItem[] } (newest first) */
export interface WorkflowRunListItem {
  id: number;
  workflowId: number;
  version: number;
  status: WorkflowRunStatus;
  triggerKind: WorkflowTriggerKind;
  record: WorkflowRecordRef | null;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

export interface WorkflowRunStepView {
  id: number;
  nodeId: string;
  nodeType: WorkflowNodeType;
  /** A label of what the step does (e.g. 'Send email', 'Condition'). */
  label: string;
  status: WorkflowStepStatus;
  input: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
  attempts: number;
  /** For a step after a wait: when it is due. */
  runAfter: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

/** GET /api/workflow-runs/:id */
export interface WorkflowRunDetail extends WorkflowRunListItem {
  workflowName: string;
  /** The trigger's event data (ids and statuses). */
  input: Record<string, unknown>;
  steps: WorkflowRunStepView[];
  /** The graph of the version the run uses. */
  graph: WorkflowGraph;
}

export type DryRunStep =
  | { nodeId: string; type: 'trigger'; label: string; detail: string }
  | {
      nodeId: string;
      type: 'condition';
      label: string;
      decision: 'yes' | 'no';
      detail: string;
      /** Each rule and whether it held. */
      rules: { field: string; operator: string; value: unknown; actual: unknown; passed: boolean }[];
    }
  | {
      nodeId: string;
      type: 'message';
      label: string;
      channel: 'email' | 'sms';
      /** Masked recipient (j***@example.com), or null when the record has none. */
      to: string | null;
      subject?: string;
      html?: string;
      text?: string;
      body?: string;
      detail: string;
      error?: string;
    }
  | { nodeId: string; type: 'notification'; label: string; title: string; body: string; detail: string }
  | { nodeId: string; type: 'status'; label: string; allowed: boolean; detail: string }
  | { nodeId: string; type: 'note'; label: string; text: string; detail: string }
  | {
      nodeId: string;
      type: 'webhook';
      label: string;
      url: string;
      payload: Record<string, unknown>;
      detail: string;
    }
  | { nodeId: string; type: 'wait'; label: string; until: string; detail: string };

/** POST /api/workflows/:id/test */
export interface DryRunResult {
  /** Always true: nothing was sent or changed. */
  dryRun: true;
  record: WorkflowRecordRef | null;
  steps: DryRunStep[];
  /** Problems of the tested graph (a dry run works on an unfinished draft too). */
  issues: WorkflowIssue[];
}

/** GET /api/workflows/:id/samples → { records: DryRunSample[] }: recent records to test with. */
export interface DryRunSample {
  id: number;
  /** No patient name: e.g. 'Booking #12 · Somfit · 2031-03-03 · confirmed'. */
  label: string;
}

/** GET /api/workflow-library → { workflows: LibraryItemView[] } */
export interface LibraryItemView {
  key: string;
  name: string;
  description: string;
  sends: readonly LibrarySend[];
  trigger: WorkflowTrigger;
  graph: WorkflowGraph;
  /** Ids of this practice's workflows installed from it. */
  installedWorkflowIds: number[];
}
