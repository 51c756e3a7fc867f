import {
  fieldsFor,
  logicToRules,
  workflowMessages as m,
  UNARY_OPERATORS,
  type WorkflowNode,
  type WorkflowRunStatus,
  type WorkflowStatus,
  type WorkflowStepStatus,
  type WorkflowTrigger,
} from '@wellrest/core';
import type { VariantProps } from 'class-variance-authority';
import type { badgeVariants } from '@/components/ui/badge';

type Tone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

/** A trigger with its parameters: "Pickup in N hours (24)", "Schedule (0 9 * * 1-5)". */
export function triggerText(trigger: WorkflowTrigger | null): string {
  if (!trigger) return m.validation.noTrigger;
  const name = m.triggers[trigger.kind];
  switch (trigger.kind) {
    case 'booking.pickup_in':
      return `${name} (${trigger.hours})`;
    case 'booking.return_overdue':
      return `${name} (${trigger.businessDays})`;
    case 'schedule':
      return `${name} (${trigger.cron})`;
    case 'booking.status_changed':
    case 'referral.status_changed':
      return trigger.from || trigger.to
        ? `${name} (${trigger.from ?? m.triggerParams.anyStatus} → ${trigger.to ?? m.triggerParams.anyStatus})`
        : name;
    default:
      return name;
  }
}

export const STATUS_TONE: Record<WorkflowStatus, Tone> = {
  draft: 'grey',
  enabled: 'green',
  disabled: 'amber',
};

export const RUN_TONE: Record<WorkflowRunStatus | WorkflowStepStatus, Tone> = {
  pending: 'grey',
  running: 'blue',
  waiting: 'purple',
  completed: 'green',
  failed: 'red',
  stopped: 'orange',
  skipped: 'grey',
};

/** "1.2 s", "3 min", or nothing while a step has not finished. */
export function duration(from: string | null, to: string | null): string | null {
  if (!from || !to) return null;
  const ms = new Date(to).getTime() - new Date(from).getTime();
  if (!Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** A short line about what a step is set to, for its card on the canvas. */
export function stepDetail(
  node: WorkflowNode,
  templates: readonly { id: number; name: string }[],
  triggerKind: WorkflowTrigger['kind'],
): string | undefined {
  switch (node.type) {
    case 'trigger': {
      const text = triggerText(node.trigger);
      return text === m.triggers[node.trigger.kind] ? undefined : text;
    }
    case 'condition': {
      const rules = logicToRules(node.logic);
      if (!rules || rules.rules.length === 0) return undefined;
      const fields = fieldsFor(triggerKind);
      const text = rules.rules.map((rule) => {
        const label = fields.find((field) => field.path === rule.field)?.label ?? rule.field;
        const value = UNARY_OPERATORS.includes(rule.operator)
          ? ''
          : ` ${Array.isArray(rule.value) ? rule.value.join(', ') : String(rule.value ?? '')}`;
        return `${label} ${m.operators[rule.operator]}${value}`;
      });
      return text.join(rules.match === 'any' ? ' · ' : ' & ');
    }
    case 'action': {
      const action = node.action;
      if (action.kind === 'send_email' || action.kind === 'send_sms') {
        const template = templates.find((t) => t.id === action.templateId)?.name;
        const to =
          action.kind === 'send_email' && action.to === 'address'
            ? action.address
            : action.kind === 'send_sms' && action.to === 'number'
              ? action.number
              : m.recipients[action.to as 'patient' | 'physician'];
        return [template, to].filter(Boolean).join(' → ');
      }
      if (action.kind === 'notify') return action.to === 'role' ? (action.role ?? undefined) : action.title;
      if (action.kind === 'webhook') return action.url || undefined;
      if (action.kind === 'add_note') return action.text || undefined;
      return action.status ?? undefined;
    }
    case 'wait': {
      const wait = node.wait;
      if (wait.mode === 'duration')
        return [
          wait.days ? `${wait.days} ${m.waits.days.toLowerCase()}` : '',
          wait.hours ? `${wait.hours} ${m.waits.hours.toLowerCase()}` : '',
          wait.minutes ? `${wait.minutes} ${m.waits.minutes.toLowerCase()}` : '',
        ]
          .filter(Boolean)
          .join(' ');
      return `+${wait.businessDays} · ${wait.time}`;
    }
  }
}
