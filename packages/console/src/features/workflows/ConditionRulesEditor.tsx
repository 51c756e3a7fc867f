import {
  type ConditionRule,
  type ConditionRules,
  workflowMessages as m,
  OPERATORS_BY_TYPE,
  ruleProblem,
  UNARY_OPERATORS,
  type WorkflowField,
} from '@wellrest/core';
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

type Value = ConditionRule['value'];

/** A rule for `field` with its first operator and an empty value. */
export function newRule(field: WorkflowField): ConditionRule {
  const operator = OPERATORS_BY_TYPE[field.type][0] ?? 'equals';
  return { field: field.path, operator, value: defaultValue(field, operator) };
}

function defaultValue(field: WorkflowField, operator: ConditionRule['operator']): Value {
  if (UNARY_OPERATORS.includes(operator)) return null;
  if (operator === 'in' || operator === 'not_in') return [];
  if (field.type === 'boolean') return true;
  if (field.type === 'enum') return field.options?.[0] ?? '';
  return '';
}

function ValueInput({
  id,
  field,
  rule,
  onChange,
}: {
  id: string;
  field: WorkflowField;
  rule: ConditionRule;
  onChange: (value: Value) => void;
}) {
  if (rule.operator === 'in' || rule.operator === 'not_in') {
    const chosen = Array.isArray(rule.value) ? rule.value.map(String) : [];
    if (field.type === 'enum')
      return (
        <fieldset className="flex flex-wrap gap-x-3 gap-y-1" aria-labelledby={`${id}-label`}>
          {(field.options ?? []).map((option) => (
            <label key={option} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                checked={chosen.includes(option)}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? [...chosen, option] : chosen.filter((item) => item !== option),
                  )
                }
              />
              {option}
            </label>
          ))}
        </fieldset>
      );
    return (
      <Input
        id={id}
        value={chosen.join(', ')}
        onChange={(event) =>
          onChange(
            event.target.value
              .split(',')
              .map((item) => item.trim())
              .filter((item) => item !== ''),
          )
        }
      />
    );
  }
  switch (field.type) {
    case 'enum':
      return (
        <NativeSelect
          id={id}
          value={String(rule.value ?? '')}
          onChange={(event) => onChange(event.target.value)}
        >
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </NativeSelect>
      );
    case 'boolean':
      return (
        <NativeSelect
          id={id}
          value={String(rule.value)}
          onChange={(event) => onChange(event.target.value === 'true')}
        >
          <option value="true">{m.builder.yes}</option>
          <option value="false">{m.builder.no}</option>
        </NativeSelect>
      );
    case 'number':
      return (
        <Input
          id={id}
          type="number"
          value={typeof rule.value === 'number' ? rule.value : ''}
          onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))}
        />
      );
    case 'date':
      return (
        <Input
          id={id}
          type="date"
          value={String(rule.value ?? '')}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    default:
      return (
        <Input id={id} value={String(rule.value ?? '')} onChange={(event) => onChange(event.target.value)} />
      );
  }
}

function RuleRow({
  index,
  rule,
  fields,
  onChange,
  onRemove,
}: {
  index: number;
  rule: ConditionRule;
  fields: readonly WorkflowField[];
  onChange: (rule: ConditionRule) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const field = fields.find((candidate) => candidate.path === rule.field);
  const problem = ruleProblem(rule, fields);
  const operators = field ? OPERATORS_BY_TYPE[field.type] : [];
  return (
    <li className="space-y-2 rounded-md border border-slate-200 p-3" data-testid={`rule-${index}`}>
      <div className="space-y-1">
        <Label htmlFor={`${id}-field`}>{m.builder.field}</Label>
        <NativeSelect
          id={`${id}-field`}
          value={rule.field}
          onChange={(event) => {
            const next = fields.find((candidate) => candidate.path === event.target.value);
            if (next) onChange(newRule(next));
          }}
        >
          {!field && <option value={rule.field}>{rule.field}</option>}
          {fields.map((candidate) => (
            <option key={candidate.path} value={candidate.path}>
              {candidate.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      {field && (
        <div className="space-y-1">
          <Label htmlFor={`${id}-operator`}>{m.builder.operator}</Label>
          <NativeSelect
            id={`${id}-operator`}
            value={rule.operator}
            onChange={(event) => {
              const operator = event.target.value as ConditionRule['operator'];
              const keepsValue =
                !UNARY_OPERATORS.includes(operator) &&
                Array.isArray(rule.value) === (operator === 'in' || operator === 'not_in');
              onChange({ ...rule, operator, value: keepsValue ? rule.value : defaultValue(field, operator) });
            }}
          >
            {operators.map((operator) => (
              <option key={operator} value={operator}>
                {m.operators[operator]}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      {field && !UNARY_OPERATORS.includes(rule.operator) && (
        <div className="space-y-1">
          <Label htmlFor={`${id}-value`} id={`${id}-value-label`}>
            {m.builder.value}
          </Label>
          <ValueInput
            id={`${id}-value`}
            field={field}
            rule={rule}
            onChange={(value) => onChange({ ...rule, value })}
          />
        </div>
      )}
      {problem && (
        <p className="text-xs text-red-700" role="alert">
          {problem}
        </p>
      )}
      <Button variant="ghost" size="sm" onClick={onRemove}>
        <Trash2 aria-hidden />
        {m.builder.removeRule}
      </Button>
    </li>
  );
}

/** The rules of a condition: all or any, each a field of the trigger, an operator and a value. */
export function ConditionRulesEditor({
  value,
  fields,
  onChange,
}: {
  value: ConditionRules;
  fields: readonly WorkflowField[];
  onChange: (next: ConditionRules) => void;
}) {
  const name = useId();
  const first = fields[0];
  return (
    <div className="space-y-3">
      <fieldset className="flex flex-wrap gap-4" aria-label={m.builder.matchLabel}>
        {(['all', 'any'] as const).map((match) => (
          <label key={match} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              checked={value.match === match}
              onChange={() => onChange({ ...value, match })}
            />
            {m.builder.match[match]}
          </label>
        ))}
      </fieldset>
      <ol className="space-y-2">
        {value.rules.map((rule, index) => (
          <RuleRow
            // Rules have no id of their own; their place in the list is who they are.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            index={index}
            rule={rule}
            fields={fields}
            onChange={(next) =>
              onChange({ ...value, rules: value.rules.map((r, i) => (i === index ? next : r)) })
            }
            onRemove={() => onChange({ ...value, rules: value.rules.filter((_, i) => i !== index) })}
          />
        ))}
      </ol>
      {first && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onChange({ ...value, rules: [...value.rules, newRule(first)] })}
        >
          <Plus aria-hidden />
          {m.builder.addRule}
        </Button>
      )}
    </div>
  );
}
