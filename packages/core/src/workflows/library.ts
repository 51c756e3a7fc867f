import { rulesToLogic } from './conditions.js';
import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from './graph.js';

// The prebuilt workflows of /workflow-library. Installing one makes a disabled copy whose message
// steps point at the starter templates named here (by key; the API resolves them to ids).

export type LibraryChannel = 'email' | 'sms' | 'notification' | 'status' | 'webhook';

export interface LibrarySend {
  channel: LibraryChannel;
  /** Who receives it, in words. */
  to: string;
}

export interface LibraryWorkflow {
  key: string;
  name: string;
  description: string;
  /** What it sends, for the library card. */
  sends: readonly LibrarySend[];
  graph: WorkflowGraph;
  /** Message steps → the starter template (key) they send. */
  templateKeys: Readonly<Record<string, string>>;
}

const pos = (row: number, column = 0) => ({ x: 80 + column * 280, y: 40 + row * 140 });
const edge = (source: string, target: string, sourceHandle: 'yes' | 'no' | null = null): WorkflowEdge => ({
  id: `${source}-${sourceHandle ?? 'next'}-${target}`,
  source,
  target,
  sourceHandle,
});
const chain = (...ids: string[]): WorkflowEdge[] => ids.slice(1).map((id, i) => edge(ids[i] as string, id));

const email = (id: string, row: number, to: 'patient' | 'physician', column = 0): WorkflowNode => ({
  id,
  type: 'action',
  position: pos(row, column),
  action: { kind: 'send_email', templateId: null, to, address: '' },
});
const sms = (id: string, row: number, column = 0): WorkflowNode => ({
  id,
  type: 'action',
  position: pos(row, column),
  action: { kind: 'send_sms', templateId: null, to: 'patient', number: '' },
});
const notifyRole = (
  id: string,
  row: number,
  role: 'scheduler' | 'technician' | 'staff',
  title: string,
  body: string,
  column = 0,
): WorkflowNode => ({
  id,
  type: 'action',
  position: pos(row, column),
  action: { kind: 'notify', to: 'role', role, userId: null, title, body },
});

export const LIBRARY_WORKFLOWS: readonly LibraryWorkflow[] = [
  {
    key: 'pickup-reminder',
    name: 'Pickup reminder',
    description:
      'The day before pickup (24 hours ahead), reminds the patient of their kit pickup by email and by text, while the booking is still confirmed.',
    sends: [
      { channel: 'email', to: 'Patient' },
      { channel: 'sms', to: 'Patient' },
    ],
    graph: {
      nodes: [
        {
          id: 'trigger',
          type: 'trigger',
          position: pos(0),
          trigger: { kind: 'booking.pickup_in', hours: 24 },
        },
        {
          id: 'confirmed',
          type: 'condition',
          position: pos(1),
          logic: rulesToLogic({
            match: 'all',
            rules: [{ field: 'booking.status', operator: 'equals', value: 'confirmed' }],
          }),
        },
        email('email', 2, 'patient'),
        sms('sms', 3),
      ],
      edges: [edge('trigger', 'confirmed'), edge('confirmed', 'email', 'yes'), edge('email', 'sms')],
    },
    templateKeys: { email: 'pickup-reminder-email', sms: 'pickup-reminder' },
  },
  {
    key: 'return-reminder',
    name: 'Return reminder',
    description: 'On the return date, texts the patient a reminder to bring the kit back.',
    sends: [{ channel: 'sms', to: 'Patient' }],
    graph: {
      nodes: [
        {
          id: 'trigger',
          type: 'trigger',
          position: pos(0),
          trigger: { kind: 'booking.return_date_reached' },
        },
        sms('sms', 1),
      ],
      edges: chain('trigger', 'sms'),
    },
    templateKeys: { sms: 'return-reminder' },
  },
  {
    key: 'overdue-return-escalation',
    name: 'Overdue return escalation',
    description:
      'When a kit is one business day overdue, emails the patient; if it is still not back two business days later, alerts the schedulers.',
    sends: [
      { channel: 'email', to: 'Patient' },
      { channel: 'notification', to: 'Schedulers' },
    ],
    graph: {
      nodes: [
        {
          id: 'trigger',
          type: 'trigger',
          position: pos(0),
          trigger: { kind: 'booking.return_overdue', businessDays: 1 },
        },
        email('email', 1, 'patient'),
        {
          id: 'wait',
          type: 'wait',
          position: pos(2),
          wait: { mode: 'until_business_time', businessDays: 2, time: '09:00' },
        },
        {
          id: 'still-out',
          type: 'condition',
          position: pos(3),
          logic: rulesToLogic({
            match: 'all',
            rules: [{ field: 'booking.status', operator: 'equals', value: 'picked_up' }],
          }),
        },
        notifyRole(
          'alert',
          4,
          'scheduler',
          'Kit still not returned: booking #{{ booking.id }}',
          'The {{ kit.type }} kit {{ kit.id }} was due back on {{ booking.returnDate }}.',
        ),
      ],
      edges: [...chain('trigger', 'email', 'wait', 'still-out'), edge('still-out', 'alert', 'yes')],
    },
    templateKeys: { email: 'overdue-return' },
  },
  {
    key: 'referral-acknowledgement',
    name: 'Referral acknowledgement',
    description:
      'When a referral arrives, thanks the referring physician by email and confirms what happens next.',
    sends: [{ channel: 'email', to: 'Referring physician' }],
    graph: {
      nodes: [
        { id: 'trigger', type: 'trigger', position: pos(0), trigger: { kind: 'referral.created' } },
        email('email', 1, 'physician'),
      ],
      edges: chain('trigger', 'email'),
    },
    templateKeys: { email: 'referral-received' },
  },
  {
    key: 'report-ready',
    name: 'Report ready',
    description:
      'When a referral is reported, emails the referring physician a link to the sleep study report.',
    sends: [{ channel: 'email', to: 'Referring physician' }],
    graph: {
      nodes: [
        {
          id: 'trigger',
          type: 'trigger',
          position: pos(0),
          trigger: { kind: 'referral.status_changed', from: null, to: 'reported' },
        },
        email('email', 1, 'physician'),
      ],
      edges: chain('trigger', 'email'),
    },
    templateKeys: { email: 'report-ready' },
  },
  {
    key: 'sla-at-risk-alert',
    name: 'SLA at-risk alert',
    description:
      'When a referral’s SLA clock is at risk, alerts the schedulers in the app so it is handled in time.',
    sends: [{ channel: 'notification', to: 'Schedulers' }],
    graph: {
      nodes: [
        { id: 'trigger', type: 'trigger', position: pos(0), trigger: { kind: 'referral.sla_at_risk' } },
        notifyRole(
          'alert',
          1,
          'scheduler',
          'SLA at risk: referral #{{ referral.id }}',
          '{{ sla.name }} ({{ sla.targetHours }} h target) is close to being missed.',
        ),
      ],
      edges: chain('trigger', 'alert'),
    },
    templateKeys: {},
  },
  {
    key: 'kit-cleaning-due',
    name: 'Kit cleaning due',
    description: 'When a kit comes back and needs cleaning, tells the technicians which kit and by when.',
    sends: [{ channel: 'notification', to: 'Technicians' }],
    graph: {
      nodes: [
        { id: 'trigger', type: 'trigger', position: pos(0), trigger: { kind: 'kit.needs_cleaning' } },
        notifyRole(
          'alert',
          1,
          'technician',
          'Kit {{ kit.id }} needs cleaning',
          'Clean the {{ kit.type }} kit {{ kit.id }} by {{ kit.cleaningDueOn }}.',
        ),
      ],
      edges: chain('trigger', 'alert'),
    },
    templateKeys: {},
  },
];

/** The library workflows the demo seed installs enabled. */
export const DEMO_ENABLED_LIBRARY_KEYS: readonly string[] = ['pickup-reminder', 'sla-at-risk-alert'];

export function libraryWorkflow(key: string): LibraryWorkflow | undefined {
  return LIBRARY_WORKFLOWS.find((item) => item.key === key);
}

/** A library graph with its message steps pointing at template ids (by key). */
export function resolveLibraryGraph(
  item: LibraryWorkflow,
  templateIdByKey: ReadonlyMap<string, number>,
): WorkflowGraph {
  return {
    edges: item.graph.edges.map((e) => ({ ...e })),
    nodes: item.graph.nodes.map((node) => {
      const key = item.templateKeys[node.id];
      if (node.type !== 'action' || key === undefined) return structuredClone(node);
      const action = node.action;
      if (action.kind !== 'send_email' && action.kind !== 'send_sms') return structuredClone(node);
      return { ...node, action: { ...action, templateId: templateIdByKey.get(key) ?? null } };
    }),
  };
}
