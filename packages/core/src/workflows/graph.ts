import { z } from 'zod';
import { REFERRAL_STATUSES } from '../clinical/model.js';
import { BOOKING_STATUSES, ROLES } from '../enums.js';
import { JsonLogic } from './conditions.js';
import { WorkflowTrigger } from './triggers.js';

// A workflow is a graph: one trigger node, then condition nodes (a Yes and a No branch), action
// nodes and wait nodes, joined by edges. Positions are the canvas's; the engine ignores them.

export const NODE_TYPES = ['trigger', 'condition', 'action', 'wait'] as const;
export type WorkflowNodeType = (typeof NODE_TYPES)[number];

export const ACTION_KINDS = [
  'send_email',
  'send_sms',
  'notify',
  'set_booking_status',
  'set_referral_status',
  'add_note',
  'webhook',
] as const;
export type WorkflowActionKind = (typeof ACTION_KINDS)[number];

/** Template id, null while none is chosen yet (a draft may hold that; enabling may not). */
const TemplateRef = z.number().int().positive().nullable().default(null);

export const WorkflowAction = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('send_email'),
    templateId: TemplateRef,
    /** The patient, the referring physician, or a fixed address (e.g. the front desk). */
    to: z.enum(['patient', 'physician', 'address']).default('patient'),
    address: z.string().trim().max(254).default(''),
  }),
  z.object({
    kind: z.literal('send_sms'),
    templateId: TemplateRef,
    to: z.enum(['patient', 'number']).default('patient'),
    number: z.string().trim().max(32).default(''),
  }),
  z.object({
    kind: z.literal('notify'),
    to: z.enum(['role', 'user']).default('role'),
    role: z.enum(ROLES).nullable().default('scheduler'),
    userId: z.number().int().positive().nullable().default(null),
    /** Liquid text: may print the trigger's non-clinical fields, e.g. `Booking #{{ booking.id }}`. */
    title: z.string().trim().max(200).default(''),
    body: z.string().trim().max(1000).default(''),
  }),
  z.object({
    kind: z.literal('set_booking_status'),
    status: z.enum(BOOKING_STATUSES).nullable().default(null),
  }),
  z.object({
    kind: z.literal('set_referral_status'),
    status: z.enum(REFERRAL_STATUSES).nullable().default(null),
    /** Declining or cancelling a referral needs a reason. */
    reason: z.string().trim().max(500).default(''),
  }),
  z.object({ kind: z.literal('add_note'), text: z.string().trim().max(2000).default('') }),
  z.object({ kind: z.literal('webhook'), url: z.string().trim().max(2000).default('') }),
]);
export type WorkflowAction = z.infer<typeof WorkflowAction>;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const WorkflowWait = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('duration'),
    minutes: z.number().int().min(0).default(0),
    hours: z.number().int().min(0).default(0),
    days: z.number().int().min(0).default(1),
  }),
  z.object({
    mode: z.literal('until_business_time'),
    /** Business days to skip first (0: the next business time from now). */
    businessDays: z.number().int().min(0).max(30).default(0),
    time: z.string().default('09:00'),
  }),
]);
export type WorkflowWait = z.infer<typeof WorkflowWait>;

export const WAIT_TIME_PATTERN = HHMM;

const Position = z.object({ x: z.number().finite(), y: z.number().finite() }).default({ x: 0, y: 0 });
const NodeId = z.string().trim().min(1).max(64);

export const WorkflowNode = z.discriminatedUnion('type', [
  z.object({ id: NodeId, type: z.literal('trigger'), position: Position, trigger: WorkflowTrigger }),
  z.object({
    id: NodeId,
    type: z.literal('condition'),
    position: Position,
    /** JSON Logic over the trigger's fields (see rulesToLogic / logicToRules). */
    logic: JsonLogic.default({ and: [] }),
  }),
  z.object({ id: NodeId, type: z.literal('action'), position: Position, action: WorkflowAction }),
  z.object({ id: NodeId, type: z.literal('wait'), position: Position, wait: WorkflowWait }),
]);
export type WorkflowNode = z.infer<typeof WorkflowNode>;

export const WorkflowEdge = z.object({
  id: z.string().trim().min(1).max(64),
  source: NodeId,
  target: NodeId,
  /** From a condition: which branch; from any other node: absent. */
  sourceHandle: z.enum(['yes', 'no']).nullable().default(null),
});
export type WorkflowEdge = z.infer<typeof WorkflowEdge>;

export const WorkflowGraph = z.object({
  nodes: z.array(WorkflowNode).max(100),
  edges: z.array(WorkflowEdge).max(200),
});
export type WorkflowGraph = z.infer<typeof WorkflowGraph>;

/** Runs per hour a workflow may start before further events are skipped (default and bounds). */
export const WORKFLOW_RATE_LIMIT = { default: 100, min: 1, max: 10_000 } as const;

/** Body of POST /api/workflows (create) and PUT /api/workflows/:id (save the draft). */
export const WorkflowDraftInput = z.object({
  name: z.string().trim().max(120).default(''),
  description: z.string().trim().max(1000).default(''),
  graph: WorkflowGraph,
  rateLimitPerHour: z
    .number()
    .int()
    .min(WORKFLOW_RATE_LIMIT.min)
    .max(WORKFLOW_RATE_LIMIT.max)
    .default(WORKFLOW_RATE_LIMIT.default),
});
export type WorkflowDraftInput = z.infer<typeof WorkflowDraftInput>;

/** Body of POST /api/workflows/:id/test (dry run against a real record). */
export const WorkflowDryRunInput = z.object({
  /** The record of the trigger's type to test with; none for a schedule. */
  recordId: z.number().int().positive().nullable().default(null),
  /** The graph to test (the unsaved canvas); the saved draft when absent. */
  graph: WorkflowGraph.optional(),
});
export type WorkflowDryRunInput = z.infer<typeof WorkflowDryRunInput>;

/** The trigger node of a graph, if it has exactly one. */
export function triggerNodeOf(graph: WorkflowGraph): Extract<WorkflowNode, { type: 'trigger' }> | undefined {
  const triggers = graph.nodes.filter((node) => node.type === 'trigger');
  return triggers.length === 1 ? (triggers[0] as Extract<WorkflowNode, { type: 'trigger' }>) : undefined;
}

/** The node that follows `nodeId` (on `branch` for a condition), or undefined at the end. */
export function nextNodeId(
  graph: WorkflowGraph,
  nodeId: string,
  branch: 'yes' | 'no' | null = null,
): string | undefined {
  return graph.edges.find((edge) => edge.source === nodeId && (edge.sourceHandle ?? null) === branch)?.target;
}

/** The template ids a graph uses (for the API's existence check). */
export function templateIdsOf(graph: WorkflowGraph): number[] {
  const ids = new Set<number>();
  for (const node of graph.nodes)
    if (node.type === 'action' && (node.action.kind === 'send_email' || node.action.kind === 'send_sms'))
      if (node.action.templateId !== null) ids.add(node.action.templateId);
  return [...ids];
}

/** The user ids a graph notifies (for the API's existence check). */
export function userIdsOf(graph: WorkflowGraph): number[] {
  const ids = new Set<number>();
  for (const node of graph.nodes)
    if (node.type === 'action' && node.action.kind === 'notify' && node.action.userId !== null)
      ids.add(node.action.userId);
  return [...ids];
}
