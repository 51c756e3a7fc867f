import { z } from 'zod';
import { isIsoDate } from '../dates/calendar.js';
import { evaluateRule, type LogicRule } from '../forms/logic.js';
import { workflowMessages as m } from './messages.js';
import type { FieldType, WorkflowField } from './triggers.js';

// Conditions are stored as JSON Logic (what the engine evaluates) and edited as rules (field,
// operator, value; all or any). The two convert both ways for every rule the builder can make.

export const CONDITION_OPERATORS = [
  'equals',
  'not_equals',
  'in',
  'not_in',
  'contains',
  'greater_than',
  'less_than',
  'before',
  'after',
  'is_empty',
  'is_not_empty',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Operators that take no value. */
export const UNARY_OPERATORS: readonly ConditionOperator[] = ['is_empty', 'is_not_empty'];

/** Which operators make sense on which field type (the editor offers only these). */
export const OPERATORS_BY_TYPE: Readonly<Record<FieldType, readonly ConditionOperator[]>> = {
  string: ['equals', 'not_equals', 'in', 'not_in', 'contains', 'is_empty', 'is_not_empty'],
  enum: ['equals', 'not_equals', 'in', 'not_in', 'is_empty', 'is_not_empty'],
  number: ['equals', 'not_equals', 'greater_than', 'less_than', 'is_empty', 'is_not_empty'],
  date: ['equals', 'not_equals', 'before', 'after', 'is_empty', 'is_not_empty'],
  boolean: ['equals', 'not_equals'],
};

const Scalar = z.union([z.string().max(500), z.number(), z.boolean()]);
export const ConditionValue = z.union([Scalar, z.array(Scalar).max(50)]).nullable();
export type ConditionValue = z.infer<typeof ConditionValue>;

export const ConditionRule = z.object({
  field: z.string().max(100),
  operator: z.enum(CONDITION_OPERATORS),
  value: ConditionValue.default(null),
});
export type ConditionRule = z.infer<typeof ConditionRule>;

export const ConditionRules = z.object({
  match: z.enum(['all', 'any']).default('all'),
  rules: z.array(ConditionRule).max(50),
});
export type ConditionRules = z.infer<typeof ConditionRules>;

/** A stored JSON Logic rule (an object with one operator key). */
export const JsonLogic = z.record(z.string(), z.unknown());

const v = (field: string) => ({ var: field });

/** One rule as JSON Logic. */
export function ruleToLogic(rule: ConditionRule): LogicRule {
  const value = rule.value;
  switch (rule.operator) {
    case 'equals':
      return { '==': [v(rule.field), value] };
    case 'not_equals':
      return { '!=': [v(rule.field), value] };
    case 'in':
      return { in: [v(rule.field), Array.isArray(value) ? value : [value]] };
    case 'not_in':
      return { '!': { in: [v(rule.field), Array.isArray(value) ? value : [value]] } };
    case 'contains':
      return { in: [value, v(rule.field)] };
    case 'greater_than':
    case 'after':
      return { '>': [v(rule.field), value] };
    case 'less_than':
    case 'before':
      return { '<': [v(rule.field), value] };
    case 'is_empty':
      return { '!': v(rule.field) };
    case 'is_not_empty':
      return { '!!': v(rule.field) };
  }
}

/** Rules (all / any) as the JSON Logic stored on a condition node. */
export function rulesToLogic(condition: ConditionRules): LogicRule {
  return { [condition.match === 'any' ? 'or' : 'and']: condition.rules.map(ruleToLogic) };
}

function varName(node: unknown): string | null {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return null;
  const keys = Object.keys(node);
  if (keys.length !== 1 || keys[0] !== 'var') return null;
  const name = (node as { var: unknown }).var;
  return typeof name === 'string' ? name : null;
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function single(node: unknown): [string, unknown] | null {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return null;
  const entries = Object.entries(node);
  return entries.length === 1 ? (entries[0] as [string, unknown]) : null;
}

/**
 * One JSON Logic operation as a rule; null when it is not one the builder makes. `>`/`<` read as
 * after/before when the value is a date, else greater/less than.
 */
export function logicToRule(node: unknown): ConditionRule | null {
  const op = single(node);
  if (!op) return null;
  const [operator, args] = op;
  if (operator === '!' || operator === '!!') {
    const inner = Array.isArray(args) && args.length === 1 ? args[0] : args;
    const field = varName(inner);
    if (field) return { field, operator: operator === '!' ? 'is_empty' : 'is_not_empty', value: null };
    if (operator === '!') {
      const rule = logicToRule(inner);
      if (rule?.operator === 'in') return { ...rule, operator: 'not_in' };
    }
    return null;
  }
  if (!Array.isArray(args) || args.length !== 2) return null;
  const [left, right] = args as [unknown, unknown];
  const field = varName(left);
  if (operator === 'in') {
    if (field && Array.isArray(right) && right.every(isScalar))
      return { field, operator: 'in', value: right as (string | number | boolean)[] };
    const target = varName(right);
    if (target && isScalar(left)) return { field: target, operator: 'contains', value: left };
    return null;
  }
  if (!field || !isScalar(right)) return null;
  switch (operator) {
    case '==':
    case '===':
      return { field, operator: 'equals', value: right };
    case '!=':
    case '!==':
      return { field, operator: 'not_equals', value: right };
    case '>':
      return { field, operator: isIsoDate(right) ? 'after' : 'greater_than', value: right };
    case '<':
      return { field, operator: isIsoDate(right) ? 'before' : 'less_than', value: right };
    default:
      return null;
  }
}

/** The rules a stored condition shows in the builder; null when the JSON Logic is not of that shape. */
export function logicToRules(logic: unknown): ConditionRules | null {
  const op = single(logic);
  if (!op) return null;
  const [operator, args] = op;
  if ((operator === 'and' || operator === 'or') && Array.isArray(args)) {
    const rules: ConditionRule[] = [];
    for (const item of args) {
      const rule = logicToRule(item);
      if (!rule) return null;
      rules.push(rule);
    }
    return { match: operator === 'or' ? 'any' : 'all', rules };
  }
  const rule = logicToRule(logic);
  return rule ? { match: 'all', rules: [rule] } : null;
}

/** Evaluates a condition against a run's data (nested objects: `{ booking: { status } }`). */
export function evaluateCondition(logic: LogicRule, data: Readonly<Record<string, unknown>>): boolean {
  return evaluateRule(logic, data);
}

/** The problem with one rule against the trigger's fields, or null when it is fine. */
export function ruleProblem(rule: ConditionRule, fields: readonly WorkflowField[]): string | null {
  const field = fields.find((candidate) => candidate.path === rule.field);
  if (!field) return m.validation.unknownField(rule.field);
  if (!OPERATORS_BY_TYPE[field.type].includes(rule.operator))
    return m.validation.operatorNotForType(m.operators[rule.operator], field.type);
  if (UNARY_OPERATORS.includes(rule.operator)) return null;
  const values = Array.isArray(rule.value) ? rule.value : [rule.value];
  if (values.length === 0 || values.some((value) => value === null || value === ''))
    return m.validation.valueRequired;
  for (const value of values) {
    if (field.type === 'number' && typeof value !== 'number') return m.validation.valueNotNumber;
    if (field.type === 'date' && !isIsoDate(value)) return m.validation.valueNotDate;
    if (field.type === 'enum' && !field.options?.includes(String(value)))
      return m.validation.valueNotOption(field.options ?? []);
  }
  return null;
}
