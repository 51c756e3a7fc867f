import { variablesIn } from '../messaging/templates.js';
import type { TemplateChannel } from '../messaging/variables.js';
import { logicToRules, ruleProblem } from './conditions.js';
import type { WorkflowAction, WorkflowGraph, WorkflowNode } from './graph.js';
import { workflowMessages as m } from './messages.js';
import { cronProblem, waitProblem } from './time.js';
import { fieldsFor, recipientsFor, recordTypeOf, type WorkflowTrigger } from './triggers.js';

// Checking a workflow before it is saved and before it is enabled. Each problem names the node it
// is on (null: the workflow as a whole), so the builder shows it there. Two severities:
// `error` is bad input (an unknown field, a bad cron, a template that does not exist): a draft
// with one is not saved; `incomplete` is work in progress (a step not connected yet, no template
// chosen yet): a draft may be saved so, but not enabled.

export type WorkflowIssueSeverity = 'error' | 'incomplete';

export interface WorkflowIssue {
  nodeId: string | null;
  severity: WorkflowIssueSeverity;
  message: string;
}

export interface TemplateFacts {
  channel: TemplateChannel;
  active: boolean;
  /** The variable paths the template's current version uses. */
  variables: readonly string[];
}

export interface WorkflowValidationContext {
  /** Templates the graph uses, by id (the API looks them up). Without it templates are not checked. */
  templates?: ReadonlyMap<number, TemplateFacts>;
  /** Users the graph notifies that exist (the API looks them up). Without it users are not checked. */
  users?: ReadonlySet<number>;
  /** Whether a webhook may call http://localhost (development and tests, never production). */
  allowLocalWebhooks?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The problem with a webhook URL, or null. */
export function webhookUrlProblem(url: string, allowLocal: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return m.validation.urlInvalid;
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && allowLocal && LOCAL_HOSTS.has(parsed.hostname)) return null;
  return m.validation.urlNotHttps;
}

function triggerProblems(trigger: WorkflowTrigger): string[] {
  switch (trigger.kind) {
    case 'booking.pickup_in':
      return Number.isInteger(trigger.hours) && trigger.hours >= 1 && trigger.hours <= 168
        ? []
        : [m.validation.hoursRange];
    case 'booking.return_overdue':
      return Number.isInteger(trigger.businessDays) && trigger.businessDays >= 0 && trigger.businessDays <= 30
        ? []
        : [m.validation.businessDaysRange];
    case 'schedule': {
      const problem = cronProblem(trigger.cron);
      return problem ? [problem] : [];
    }
    default:
      return [];
  }
}

function textVariableProblems(text: string, known: ReadonlySet<string>): string[] {
  if (text === '') return [];
  const found = variablesIn(text);
  if ('error' in found) return [m.validation.unknownVariable(found.error)];
  return found.variables.filter((path) => !known.has(path)).map((path) => m.validation.unknownVariable(path));
}

type Push = (severity: WorkflowIssueSeverity, message: string) => void;

function actionProblems(
  action: WorkflowAction,
  trigger: WorkflowTrigger | undefined,
  context: WorkflowValidationContext,
  push: Push,
): void {
  const fields = trigger ? fieldsFor(trigger.kind) : [];
  const known = new Set(fields.filter((field) => !field.clinical).map((field) => field.path));
  const allKnown = new Set(fields.map((field) => field.path));
  const recipients = trigger ? recipientsFor(trigger.kind) : { patient: true, physician: true };
  const record = trigger ? recordTypeOf(trigger.kind) : null;
  switch (action.kind) {
    case 'send_email':
    case 'send_sms': {
      const channel: TemplateChannel = action.kind === 'send_email' ? 'email' : 'sms';
      if (action.templateId === null) push('incomplete', m.validation.chooseTemplate);
      else if (context.templates) {
        const template = context.templates.get(action.templateId);
        if (!template) push('error', m.validation.templateMissing);
        else if (template.channel !== channel) push('error', m.validation.templateWrongChannel(channel));
        else {
          if (!template.active) push('incomplete', m.validation.templateInactive);
          if (trigger) {
            const missing = template.variables.filter((path) => !allKnown.has(path));
            if (missing.length > 0) push('error', m.validation.templateVariables(missing));
          }
        }
      }
      if (action.kind === 'send_email') {
        if (action.to === 'address') {
          if (action.address === '') push('incomplete', m.validation.addressRequired);
          else if (!EMAIL.test(action.address)) push('error', m.validation.addressInvalid);
        } else if (!recipients[action.to])
          push('error', m.validation.recipientNotAvailable(m.recipients[action.to].toLowerCase()));
      } else if (action.to === 'number') {
        if (action.number === '') push('incomplete', m.validation.phoneRequired);
      } else if (!recipients.patient)
        push('error', m.validation.recipientNotAvailable(m.recipients.patient.toLowerCase()));
      return;
    }
    case 'notify':
      if (action.to === 'role' ? action.role === null : action.userId === null)
        push('incomplete', m.validation.notificationTarget);
      else if (
        action.to === 'user' &&
        action.userId !== null &&
        context.users &&
        !context.users.has(action.userId)
      )
        push('error', m.validation.userMissing);
      if (action.title === '') push('incomplete', m.validation.titleRequired);
      for (const problem of [
        ...textVariableProblems(action.title, known),
        ...textVariableProblems(action.body, known),
      ])
        push('error', problem);
      return;
    case 'set_booking_status':
    case 'set_referral_status': {
      const wanted = action.kind === 'set_booking_status' ? 'booking' : 'referral';
      if (trigger && record !== wanted) push('error', m.validation.noRecord(wanted));
      if (action.status === null) push('incomplete', m.validation.statusRequired);
      return;
    }
    case 'add_note':
      if (trigger && record !== 'booking' && record !== 'referral')
        push('error', m.validation.noRecord('booking or referral'));
      if (action.text === '') push('incomplete', m.validation.textRequired);
      for (const problem of textVariableProblems(action.text, known)) push('error', problem);
      return;
    case 'webhook': {
      if (action.url === '') push('incomplete', m.validation.urlRequired);
      else {
        const problem = webhookUrlProblem(action.url, context.allowLocalWebhooks ?? false);
        if (problem) push('error', problem);
      }
      return;
    }
  }
}

function nodeProblems(
  node: WorkflowNode,
  trigger: WorkflowTrigger | undefined,
  context: WorkflowValidationContext,
  push: Push,
): void {
  switch (node.type) {
    case 'trigger':
      for (const problem of triggerProblems(node.trigger)) push('error', problem);
      return;
    case 'condition': {
      const rules = logicToRules(node.logic);
      if (!rules) {
        push('error', m.validation.conditionUnreadable);
        return;
      }
      if (rules.rules.length === 0) push('incomplete', m.validation.conditionEmpty);
      if (!trigger) return;
      const fields = fieldsFor(trigger.kind);
      for (const rule of rules.rules) {
        const problem = ruleProblem(rule, fields);
        if (problem) push(problem === m.validation.valueRequired ? 'incomplete' : 'error', problem);
      }
      return;
    }
    case 'action':
      actionProblems(node.action, trigger, context, push);
      return;
    case 'wait': {
      const problem = waitProblem(node.wait);
      if (problem) push('error', problem);
      return;
    }
  }
}

/** Every problem of a workflow graph; empty when it may be enabled. */
export function validateWorkflow(
  graph: WorkflowGraph,
  context: WorkflowValidationContext = {},
): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const at =
    (nodeId: string | null): Push =>
    (severity, message) => {
      if (!issues.some((issue) => issue.nodeId === nodeId && issue.message === message))
        issues.push({ nodeId, severity, message });
    };

  const ids = new Map<string, WorkflowNode>();
  for (const node of graph.nodes) {
    if (ids.has(node.id)) at(node.id)('error', m.validation.duplicateNodeId);
    ids.set(node.id, node);
  }
  const triggers = graph.nodes.filter((node) => node.type === 'trigger');
  if (triggers.length === 0) at(null)('incomplete', m.validation.noTrigger);
  for (const extra of triggers.slice(1)) at(extra.id)('error', m.validation.manyTriggers);
  const triggerNode = triggers[0];
  const trigger = triggerNode?.type === 'trigger' ? triggerNode.trigger : undefined;

  // Edges: both ends exist; branches only from conditions, one step per branch.
  const outgoing = new Map<string, string[]>();
  const incoming = new Map<string, number>();
  const seenHandles = new Set<string>();
  for (const edge of graph.edges) {
    const source = ids.get(edge.source);
    if (!source || !ids.has(edge.target)) {
      at(source ? source.id : null)('error', m.validation.edgeUnknownNode);
      continue;
    }
    if (source.type === 'condition') {
      if (edge.sourceHandle === null) {
        at(source.id)('error', m.validation.conditionBranch);
        continue;
      }
      const handle = `${source.id}:${edge.sourceHandle}`;
      if (seenHandles.has(handle)) at(source.id)('error', m.validation.conditionBranchTwice);
      seenHandles.add(handle);
    } else if ((outgoing.get(source.id)?.length ?? 0) >= 1)
      at(source.id)('error', m.validation.tooManyOutgoing);
    outgoing.set(source.id, [...(outgoing.get(source.id) ?? []), edge.target]);
    incoming.set(edge.target, (incoming.get(edge.target) ?? 0) + 1);
    if (ids.get(edge.target)?.type === 'trigger') at(edge.target)('error', m.validation.triggerHasIncoming);
  }

  // Cycles (depth-first search, colouring nodes on the current path).
  const state = new Map<string, 1 | 2>();
  const visit = (id: string): void => {
    state.set(id, 1);
    for (const next of outgoing.get(id) ?? []) {
      if (state.get(next) === 1) at(next)('error', m.validation.cycle);
      else if (!state.has(next)) visit(next);
    }
    state.set(id, 2);
  };
  for (const node of graph.nodes) if (!state.has(node.id)) visit(node.id);

  // Connection: everything reachable from the trigger.
  if (triggerNode) {
    const reached = new Set<string>([triggerNode.id]);
    const queue = [triggerNode.id];
    while (queue.length > 0) {
      const id = queue.shift() as string;
      for (const next of outgoing.get(id) ?? [])
        if (!reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
    }
    if ((outgoing.get(triggerNode.id) ?? []).length === 0)
      at(triggerNode.id)('incomplete', m.validation.triggerNotConnected);
    for (const node of graph.nodes)
      if (!reached.has(node.id) && node.type !== 'trigger')
        at(node.id)('incomplete', m.validation.notConnected);
  }

  for (const node of graph.nodes) {
    if (node.type === 'condition' && (outgoing.get(node.id) ?? []).length === 0)
      at(node.id)('incomplete', m.validation.conditionNoBranch);
    nodeProblems(node, trigger, context, at(node.id));
  }
  return issues;
}

/** Whether a draft with these problems may be saved (no bad input, only unfinished work). */
export function isSavable(issues: readonly WorkflowIssue[]): boolean {
  return issues.every((issue) => issue.severity !== 'error');
}

/** The problems grouped by node id (`''` for the workflow as a whole), as the builder shows them. */
export function issuesByNode(issues: readonly WorkflowIssue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.nodeId ?? '';
    out[key] = [...(out[key] ?? []), issue.message];
  }
  return out;
}
