import {
  ACTION_KINDS,
  BOOKING_STATUSES,
  type ConditionRules,
  fieldsFor,
  logicToRules,
  workflowMessages as m,
  REFERRAL_STATUSES,
  ROLES,
  rulesToLogic,
  WORKFLOW_TRIGGER_KINDS,
  type WorkflowAction,
  type WorkflowGraph,
  type WorkflowNode,
  type WorkflowTrigger,
  type WorkflowWait,
} from '@wellrest/core';
import { Trash2 } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ConditionRulesEditor } from './ConditionRulesEditor';
import { type Branch, stepLabel, targetOf } from './graph';

export interface WorkflowUser {
  id: number;
  username: string;
  role: string;
}

export interface TemplateOption {
  id: number;
  name: string;
  channel: 'email' | 'sms';
  active: boolean;
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
    </div>
  );
}

const int = (text: string): number => (text === '' ? 0 : Math.trunc(Number(text)));

function TriggerEditor({
  trigger,
  onChange,
}: {
  trigger: WorkflowTrigger;
  onChange: (t: WorkflowTrigger) => void;
}) {
  return (
    <>
      <Field label={m.nodeKinds.trigger}>
        {(id) => (
          <NativeSelect
            id={id}
            value={trigger.kind}
            onChange={(event) => {
              const kind = event.target.value as WorkflowTrigger['kind'];
              onChange(defaultTrigger(kind));
            }}
          >
            {WORKFLOW_TRIGGER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {m.triggers[kind]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      {trigger.kind === 'booking.pickup_in' && (
        <Field label={m.triggerParams.hours}>
          {(id) => (
            <Input
              id={id}
              type="number"
              min={1}
              max={168}
              value={trigger.hours}
              onChange={(e) => onChange({ ...trigger, hours: int(e.target.value) })}
            />
          )}
        </Field>
      )}
      {trigger.kind === 'booking.return_overdue' && (
        <Field label={m.triggerParams.businessDays}>
          {(id) => (
            <Input
              id={id}
              type="number"
              min={0}
              max={30}
              value={trigger.businessDays}
              onChange={(e) => onChange({ ...trigger, businessDays: int(e.target.value) })}
            />
          )}
        </Field>
      )}
      {(trigger.kind === 'booking.status_changed' || trigger.kind === 'referral.status_changed') &&
        (['from', 'to'] as const).map((end) => (
          <Field key={end} label={end === 'from' ? m.triggerParams.fromStatus : m.triggerParams.toStatus}>
            {(id) => (
              <NativeSelect
                id={id}
                value={trigger[end] ?? ''}
                onChange={(e) =>
                  onChange({
                    ...trigger,
                    [end]: e.target.value === '' ? null : e.target.value,
                  } as WorkflowTrigger)
                }
              >
                <option value="">{m.triggerParams.anyStatus}</option>
                {(trigger.kind === 'booking.status_changed' ? BOOKING_STATUSES : REFERRAL_STATUSES).map(
                  (status) => (
                    <option key={status} value={status}>
                      {status}
                    </option>
                  ),
                )}
              </NativeSelect>
            )}
          </Field>
        ))}
      {trigger.kind === 'schedule' && (
        <Field label={m.triggerParams.cron}>
          {(id) => (
            <Input
              id={id}
              className="font-mono"
              value={trigger.cron}
              onChange={(e) => onChange({ ...trigger, cron: e.target.value })}
            />
          )}
        </Field>
      )}
    </>
  );
}

export function defaultTrigger(kind: WorkflowTrigger['kind']): WorkflowTrigger {
  switch (kind) {
    case 'booking.status_changed':
    case 'referral.status_changed':
      return { kind, from: null, to: null };
    case 'booking.pickup_in':
      return { kind, hours: 24 };
    case 'booking.return_overdue':
      return { kind, businessDays: 1 };
    case 'schedule':
      return { kind, cron: '0 9 * * 1-5' };
    default:
      return { kind };
  }
}

export function defaultAction(kind: WorkflowAction['kind']): WorkflowAction {
  switch (kind) {
    case 'send_email':
      return { kind, templateId: null, to: 'patient', address: '' };
    case 'send_sms':
      return { kind, templateId: null, to: 'patient', number: '' };
    case 'notify':
      return { kind, to: 'role', role: 'scheduler', userId: null, title: '', body: '' };
    case 'set_booking_status':
    case 'set_referral_status':
      return kind === 'set_booking_status' ? { kind, status: null } : { kind, status: null, reason: '' };
    case 'add_note':
      return { kind, text: '' };
    case 'webhook':
      return { kind, url: '' };
  }
}

function TemplatePicker({
  channel,
  templateId,
  templates,
  onChange,
}: {
  channel: 'email' | 'sms';
  templateId: number | null;
  templates: readonly TemplateOption[];
  onChange: (id: number | null) => void;
}) {
  const choices = templates.filter((template) => template.channel === channel);
  return (
    <Field label={m.builder.template}>
      {(id) => (
        <NativeSelect
          id={id}
          value={templateId ?? ''}
          onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        >
          <option value="">{m.builder.chooseTemplate}</option>
          {choices.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}

function ActionEditor({
  action,
  templates,
  users,
  webhookSecret,
  onChange,
}: {
  action: WorkflowAction;
  templates: readonly TemplateOption[];
  users: readonly WorkflowUser[];
  webhookSecret?: string;
  onChange: (a: WorkflowAction) => void;
}) {
  return (
    <>
      <Field label={m.nodeKinds.action}>
        {(id) => (
          <NativeSelect
            id={id}
            value={action.kind}
            onChange={(e) => onChange(defaultAction(e.target.value as WorkflowAction['kind']))}
          >
            {ACTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {m.actions[kind]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      {action.kind === 'send_email' && (
        <>
          <TemplatePicker
            channel="email"
            templateId={action.templateId}
            templates={templates}
            onChange={(templateId) => onChange({ ...action, templateId })}
          />
          <Field label={m.builder.recipient}>
            {(id) => (
              <NativeSelect
                id={id}
                value={action.to}
                onChange={(e) => onChange({ ...action, to: e.target.value as typeof action.to })}
              >
                {(['patient', 'physician', 'address'] as const).map((to) => (
                  <option key={to} value={to}>
                    {m.recipients[to]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {action.to === 'address' && (
            <Field label={m.recipients.address}>
              {(id) => (
                <Input
                  id={id}
                  type="email"
                  value={action.address}
                  onChange={(e) => onChange({ ...action, address: e.target.value })}
                />
              )}
            </Field>
          )}
        </>
      )}
      {action.kind === 'send_sms' && (
        <>
          <TemplatePicker
            channel="sms"
            templateId={action.templateId}
            templates={templates}
            onChange={(templateId) => onChange({ ...action, templateId })}
          />
          <Field label={m.builder.recipient}>
            {(id) => (
              <NativeSelect
                id={id}
                value={action.to}
                onChange={(e) => onChange({ ...action, to: e.target.value as typeof action.to })}
              >
                <option value="patient">{m.recipients.patient}</option>
                <option value="number">{m.recipients.number}</option>
              </NativeSelect>
            )}
          </Field>
          {action.to === 'number' && (
            <Field label={m.builder.phoneNumber}>
              {(id) => (
                <Input
                  id={id}
                  type="tel"
                  value={action.number}
                  onChange={(e) => onChange({ ...action, number: e.target.value })}
                />
              )}
            </Field>
          )}
        </>
      )}
      {action.kind === 'notify' && (
        <>
          <Field label={m.builder.recipient}>
            {(id) => (
              <NativeSelect
                id={id}
                value={action.to}
                onChange={(e) => onChange({ ...action, to: e.target.value as typeof action.to })}
              >
                <option value="role">{m.recipients.role}</option>
                <option value="user">{m.recipients.user}</option>
              </NativeSelect>
            )}
          </Field>
          {action.to === 'role' ? (
            <Field label={m.builder.role}>
              {(id) => (
                <NativeSelect
                  id={id}
                  value={action.role ?? ''}
                  onChange={(e) =>
                    onChange({ ...action, role: (e.target.value || null) as typeof action.role })
                  }
                >
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role.replace(/_/g, ' ')}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          ) : (
            <Field label={m.builder.userId}>
              {(id) => (
                <NativeSelect
                  id={id}
                  value={action.userId ?? ''}
                  onChange={(e) =>
                    onChange({ ...action, userId: e.target.value === '' ? null : int(e.target.value) })
                  }
                >
                  <option value="">—</option>
                  {users.map((user) => (
                    <option key={user.id} value={user.id}>
                      {user.username} ({user.role.replace(/_/g, ' ')})
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          )}
          <Field label={m.builder.titleLabel}>
            {(id) => (
              <Input
                id={id}
                value={action.title}
                onChange={(e) => onChange({ ...action, title: e.target.value })}
              />
            )}
          </Field>
          <Field label={m.builder.body}>
            {(id) => (
              <Textarea
                id={id}
                value={action.body}
                onChange={(e) => onChange({ ...action, body: e.target.value })}
              />
            )}
          </Field>
        </>
      )}
      {(action.kind === 'set_booking_status' || action.kind === 'set_referral_status') && (
        <Field label={m.builder.status}>
          {(id) => (
            <NativeSelect
              id={id}
              value={action.status ?? ''}
              onChange={(e) => onChange({ ...action, status: (e.target.value || null) as never })}
            >
              <option value="">—</option>
              {(action.kind === 'set_booking_status' ? BOOKING_STATUSES : REFERRAL_STATUSES).map((status) => (
                <option key={status} value={status}>
                  {status.replace(/_/g, ' ')}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      )}
      {action.kind === 'set_referral_status' && (
        <Field label={m.builder.reason}>
          {(id) => (
            <Textarea
              id={id}
              value={action.reason}
              onChange={(e) => onChange({ ...action, reason: e.target.value })}
            />
          )}
        </Field>
      )}
      {action.kind === 'add_note' && (
        <Field label={m.builder.note}>
          {(id) => (
            <Textarea
              id={id}
              value={action.text}
              onChange={(e) => onChange({ ...action, text: e.target.value })}
            />
          )}
        </Field>
      )}
      {action.kind === 'webhook' && (
        <>
          <Field label={m.builder.webhookUrl}>
            {(id) => (
              <Input
                id={id}
                type="url"
                value={action.url}
                onChange={(e) => onChange({ ...action, url: e.target.value })}
              />
            )}
          </Field>
          {webhookSecret && (
            <Field label={m.builder.webhookSecret}>
              {(id) => <Input id={id} className="font-mono text-xs" value={webhookSecret} readOnly />}
            </Field>
          )}
        </>
      )}
    </>
  );
}

function WaitEditor({ wait, onChange }: { wait: WorkflowWait; onChange: (w: WorkflowWait) => void }) {
  return (
    <>
      <Field label={m.nodeKinds.wait}>
        {(id) => (
          <NativeSelect
            id={id}
            value={wait.mode}
            onChange={(e) =>
              onChange(
                e.target.value === 'duration'
                  ? { mode: 'duration', minutes: 0, hours: 0, days: 1 }
                  : { mode: 'until_business_time', businessDays: 0, time: '09:00' },
              )
            }
          >
            <option value="duration">{m.waits.duration}</option>
            <option value="until_business_time">{m.waits.until_business_time}</option>
          </NativeSelect>
        )}
      </Field>
      {wait.mode === 'duration' ? (
        <div className="grid grid-cols-3 gap-2">
          {(['days', 'hours', 'minutes'] as const).map((unit) => (
            <Field key={unit} label={m.waits[unit]}>
              {(id) => (
                <Input
                  id={id}
                  type="number"
                  min={0}
                  value={wait[unit]}
                  onChange={(e) => onChange({ ...wait, [unit]: int(e.target.value) })}
                />
              )}
            </Field>
          ))}
        </div>
      ) : (
        <div className="grid grid-cols-2 gap-2">
          <Field label={m.waits.businessDays}>
            {(id) => (
              <Input
                id={id}
                type="number"
                min={0}
                max={30}
                value={wait.businessDays}
                onChange={(e) => onChange({ ...wait, businessDays: int(e.target.value) })}
              />
            )}
          </Field>
          <Field label={m.waits.time}>
            {(id) => (
              <Input
                id={id}
                type="time"
                value={wait.time}
                onChange={(e) => onChange({ ...wait, time: e.target.value })}
              />
            )}
          </Field>
        </div>
      )}
    </>
  );
}

function ConnectionSelect({
  graph,
  node,
  branch,
  label,
  onConnect,
}: {
  graph: WorkflowGraph;
  node: WorkflowNode;
  branch: Branch;
  label: string;
  onConnect: (branch: Branch, target: string | null) => void;
}) {
  const targets = graph.nodes.filter((candidate) => candidate.id !== node.id && candidate.type !== 'trigger');
  return (
    <Field label={label}>
      {(id) => (
        <NativeSelect
          id={id}
          value={targetOf(graph, node.id, branch) ?? ''}
          onChange={(e) => onConnect(branch, e.target.value === '' ? null : e.target.value)}
        >
          <option value="">{m.dryRun.stopsHere}</option>
          {targets.map((target) => (
            <option key={target.id} value={target.id}>
              {stepLabel(target)}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}

/** The variables a trigger provides, to use as `{{ path }}` in templates, titles and notes. */
export function VariableList({ trigger }: { trigger: WorkflowTrigger['kind'] }) {
  return (
    <details className="rounded-md border border-slate-200 p-2 text-sm">
      <summary className="cursor-pointer font-medium text-slate-800">{m.builder.variables}</summary>
      <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto">
        {fieldsFor(trigger)
          .filter((field) => !field.clinical)
          .map((field) => (
            <li key={field.path} className="flex flex-col">
              <code className="text-xs text-slate-900">{`{{ ${field.path} }}`}</code>
              <span className="text-xs text-slate-500">{field.label}</span>
            </li>
          ))}
      </ul>
    </details>
  );
}

/** The side panel: edits the selected step, its connections, and deletes it. */
export function NodePanel({
  graph,
  node,
  problems,
  templates,
  users = [],
  webhookSecret,
  readOnly = false,
  onChange,
  onConnect,
  onDelete,
}: {
  graph: WorkflowGraph;
  node: WorkflowNode;
  problems: readonly string[];
  templates: readonly TemplateOption[];
  /** Who a notification may go to (the notify-a-user picker). */
  users?: readonly WorkflowUser[];
  /** The signing secret of the workflow's webhook calls, shown beside a webhook step. */
  webhookSecret?: string;
  readOnly?: boolean;
  onChange: (node: WorkflowNode) => void;
  onConnect: (branch: Branch, target: string | null) => void;
  onDelete: () => void;
}) {
  const triggerNode = graph.nodes.find((candidate) => candidate.type === 'trigger');
  const triggerKind = triggerNode?.type === 'trigger' ? triggerNode.trigger.kind : 'booking.created';
  const rules: ConditionRules | null = node.type === 'condition' ? logicToRules(node.logic) : null;
  return (
    <section aria-label={stepLabel(node)} className="space-y-4">
      <h2 className="text-base font-semibold text-slate-900">{stepLabel(node)}</h2>
      {problems.length > 0 && (
        <ul className="space-y-1 rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <fieldset disabled={readOnly} className="space-y-3">
        {node.type === 'trigger' && (
          <TriggerEditor trigger={node.trigger} onChange={(trigger) => onChange({ ...node, trigger })} />
        )}
        {node.type === 'condition' &&
          (rules ? (
            <ConditionRulesEditor
              value={rules}
              fields={fieldsFor(triggerKind)}
              onChange={(next) => onChange({ ...node, logic: rulesToLogic(next) })}
            />
          ) : (
            <p className="text-sm text-red-700">{m.validation.conditionUnreadable}</p>
          ))}
        {node.type === 'action' && (
          <ActionEditor
            action={node.action}
            templates={templates}
            users={users}
            webhookSecret={webhookSecret}
            onChange={(action) => onChange({ ...node, action })}
          />
        )}
        {node.type === 'wait' && (
          <WaitEditor wait={node.wait} onChange={(wait) => onChange({ ...node, wait })} />
        )}
        {node.type === 'condition' ? (
          <>
            <ConnectionSelect
              graph={graph}
              node={node}
              branch="yes"
              label={m.builder.connectYes}
              onConnect={onConnect}
            />
            <ConnectionSelect
              graph={graph}
              node={node}
              branch="no"
              label={m.builder.connectNo}
              onConnect={onConnect}
            />
          </>
        ) : (
          <ConnectionSelect
            graph={graph}
            node={node}
            branch={null}
            label={m.builder.connect}
            onConnect={onConnect}
          />
        )}
      </fieldset>
      {(node.type === 'trigger' || node.type === 'action' || node.type === 'condition') && (
        <VariableList trigger={triggerKind} />
      )}
      {!readOnly && (
        <Button variant="outline" className="text-red-700" onClick={onDelete}>
          <Trash2 aria-hidden />
          {m.builder.deleteStep}
        </Button>
      )}
    </section>
  );
}
