import {
  LIBRARY_WORKFLOWS,
  type LibraryItemView,
  type WorkflowDetail,
  type WorkflowListItem,
  type WorkflowRunDetail,
  type WorkflowRunListItem,
} from '@wellrest/core';
import { emptyGraph } from './graph';

// Answers of the workflow API as stories and tests show them.

export const listItem = (over: Partial<WorkflowListItem> = {}): WorkflowListItem => ({
  id: 1,
  name: 'Somfit welcome',
  description: 'Emails the patient when a Somfit kit is booked.',
  trigger: { kind: 'booking.created' },
  status: 'enabled',
  version: 2,
  hasUnpublishedChanges: false,
  libraryKey: null,
  lastRunAt: '2031-03-04T14:05:00.000Z',
  lastRunStatus: 'completed',
  runs7d: 12,
  failures7d: 0,
  updatedAt: '2031-03-01T10:00:00.000Z',
  ...over,
});

export const WORKFLOW_ROWS: WorkflowListItem[] = [
  listItem(),
  listItem({
    id: 2,
    name: 'Pickup reminder',
    trigger: { kind: 'booking.pickup_in', hours: 24 },
    libraryKey: 'pickup-reminder',
    runs7d: 31,
    failures7d: 2,
    lastRunStatus: 'failed',
    hasUnpublishedChanges: true,
  }),
  listItem({
    id: 3,
    name: 'Overdue return escalation',
    trigger: { kind: 'booking.return_overdue', businessDays: 1 },
    status: 'disabled',
    runs7d: 0,
    lastRunAt: null,
    lastRunStatus: null,
  }),
  listItem({
    id: 4,
    name: 'Weekly kit check',
    trigger: { kind: 'schedule', cron: '0 9 * * 1' },
    status: 'draft',
    version: null,
    runs7d: 0,
    lastRunAt: null,
    lastRunStatus: null,
  }),
];

const graph = {
  nodes: [
    {
      id: 'trigger',
      type: 'trigger' as const,
      position: { x: 0, y: 0 },
      trigger: { kind: 'booking.created' as const },
    },
    {
      id: 'condition-1',
      type: 'condition' as const,
      position: { x: 0, y: 180 },
      logic: { and: [{ '==': [{ var: 'kit.type' }, 'Somfit'] }] },
    },
    {
      id: 'action-1',
      type: 'action' as const,
      position: { x: -160, y: 360 },
      action: { kind: 'send_email' as const, templateId: 7, to: 'patient' as const, address: '' },
    },
  ],
  edges: [
    { id: 'trigger->condition-1', source: 'trigger', target: 'condition-1', sourceHandle: null },
    {
      id: 'condition-1:yes->action-1',
      source: 'condition-1',
      target: 'action-1',
      sourceHandle: 'yes' as const,
    },
  ],
};

export const WORKFLOW_DETAIL: WorkflowDetail = {
  ...listItem(),
  graph,
  rateLimitPerHour: 100,
  issues: [],
  webhookSecret: 'whsec_sample',
  createdAt: '2031-02-20T10:00:00.000Z',
  enabledAt: '2031-02-21T10:00:00.000Z',
};

export const NEW_DRAFT: WorkflowDetail = {
  ...WORKFLOW_DETAIL,
  id: 5,
  name: 'New draft',
  status: 'draft',
  version: null,
  graph: emptyGraph(),
  issues: [{ nodeId: 'trigger', severity: 'incomplete', message: 'Connect the trigger to a first step' }],
};

export const TEMPLATE_ITEMS = [
  { id: 7, name: 'Somfit booked', channel: 'email' as const, active: true },
  { id: 8, name: 'Pickup tomorrow (SMS)', channel: 'sms' as const, active: true },
];

export const RUNS: WorkflowRunListItem[] = [
  {
    id: 41,
    workflowId: 2,
    version: 2,
    status: 'failed',
    triggerKind: 'booking.pickup_in',
    record: { type: 'booking', id: 12 },
    startedAt: '2031-03-04T14:05:00.000Z',
    finishedAt: '2031-03-04T14:05:03.200Z',
    error: 'The recipient has no address for this channel',
  },
  {
    id: 40,
    workflowId: 2,
    version: 2,
    status: 'completed',
    triggerKind: 'booking.pickup_in',
    record: { type: 'booking', id: 11 },
    startedAt: '2031-03-03T14:05:00.000Z',
    finishedAt: '2031-03-03T14:05:01.100Z',
    error: null,
  },
];

export const RUN_DETAIL: WorkflowRunDetail = {
  ...(RUNS[0] as WorkflowRunListItem),
  workflowName: 'Pickup reminder',
  input: { bookingId: 12, status: 'confirmed' },
  graph,
  steps: [
    {
      id: 101,
      nodeId: 'trigger',
      nodeType: 'trigger',
      label: 'Pickup in N hours',
      status: 'completed',
      input: { bookingId: 12 },
      output: null,
      attempts: 1,
      runAfter: null,
      startedAt: '2031-03-04T14:05:00.000Z',
      finishedAt: '2031-03-04T14:05:00.050Z',
      error: null,
    },
    {
      id: 102,
      nodeId: 'action-1',
      nodeType: 'action',
      label: 'Send email',
      status: 'completed',
      input: { templateId: 7 },
      output: { deliveryId: 88 },
      attempts: 1,
      runAfter: null,
      startedAt: '2031-03-04T14:05:00.100Z',
      finishedAt: '2031-03-04T14:05:01.300Z',
      error: null,
    },
    {
      id: 103,
      nodeId: 'action-2',
      nodeType: 'action',
      label: 'Send SMS',
      status: 'failed',
      input: { templateId: 8 },
      output: null,
      attempts: 3,
      runAfter: null,
      startedAt: '2031-03-04T14:05:01.400Z',
      finishedAt: '2031-03-04T14:05:03.200Z',
      error: 'The recipient has no address for this channel',
    },
  ],
};

export const LIBRARY_ITEMS: LibraryItemView[] = LIBRARY_WORKFLOWS.map((item, index) => ({
  key: item.key,
  name: item.name,
  description: item.description,
  sends: item.sends,
  trigger: (
    item.graph.nodes.find((node) => node.type === 'trigger') as { trigger: LibraryItemView['trigger'] }
  ).trigger,
  graph: item.graph,
  installedWorkflowIds: index === 0 ? [2] : [],
}));
