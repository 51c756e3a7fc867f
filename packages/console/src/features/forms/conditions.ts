import type { LogicRule } from '@wellrest/core';

// The builder's simple condition editor: "show when <question> <operator> <value>", written as
// JSON Logic. Rules written by hand in another shape are kept as they are.

export const CONDITION_OPERATORS = ['==', '!=', '>', '<'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export interface SimpleCondition {
  fieldId: string;
  operator: ConditionOperator;
  value: string;
}

export function toRule(condition: SimpleCondition): LogicRule {
  const numeric = condition.operator === '>' || condition.operator === '<';
  const value = numeric && condition.value.trim() !== '' ? Number(condition.value) : condition.value;
  return { [condition.operator]: [{ var: condition.fieldId }, value] };
}

/** The simple condition a rule is, or null for any other rule. */
export function fromRule(rule: LogicRule | undefined): SimpleCondition | null {
  if (!rule) return null;
  const entries = Object.entries(rule);
  if (entries.length !== 1) return null;
  const [operator, args] = entries[0] as [string, unknown];
  if (
    !(CONDITION_OPERATORS as readonly string[]).includes(operator) ||
    !Array.isArray(args) ||
    args.length !== 2
  )
    return null;
  const [left, right] = args as [unknown, unknown];
  const name = (left as { var?: unknown } | null)?.var;
  if (typeof name !== 'string' || (typeof right !== 'string' && typeof right !== 'number')) return null;
  return { fieldId: name, operator: operator as ConditionOperator, value: String(right) };
}
