import * as jsonLogicModule from 'json-logic-js';

// json-logic-js is CommonJS: under Node's ES modules its functions sit on `default`, under bundlers
// on the namespace itself.
type JsonLogic = typeof jsonLogicModule;
const jsonLogic: JsonLogic =
  (jsonLogicModule as JsonLogic & { default?: JsonLogic }).default ?? jsonLogicModule;

/** A JSON Logic rule (https://jsonlogic.com): a plain object such as `{ "==": [{ "var": "snores" }, "yes"] }`. */
export type LogicRule = Record<string, unknown>;

/** True when `rule` is a JSON Logic operation (an object with exactly one operator key). */
export function isLogicRule(rule: unknown): rule is LogicRule {
  return jsonLogic.is_logic(rule);
}

/** The answer keys a rule reads through `var` (the first segment of dotted paths). */
export function ruleVariables(rule: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [operator, argument] of Object.entries(node)) {
      if (operator === 'var') {
        const name = Array.isArray(argument) ? argument[0] : argument;
        if (typeof name === 'string' && name !== '') found.add(name.split('.')[0] ?? name);
        else if (typeof name === 'number') found.add(String(name));
      }
      walk(argument);
    }
  };
  walk(rule);
  return [...found];
}

/**
 * Evaluates a rule against answers. A rule that cannot be evaluated (an unknown operator) counts as
 * false: a broken condition hides its question rather than demanding an answer nobody can give.
 */
export function evaluateRule(rule: LogicRule, data: Readonly<Record<string, unknown>>): boolean {
  try {
    return jsonLogic.truthy(jsonLogic.apply(rule as Parameters<JsonLogic['apply']>[0], data));
  } catch {
    return false;
  }
}

/** Whether a rule runs at all (known operators only), tried on no answers. */
export function ruleRuns(rule: LogicRule): boolean {
  try {
    jsonLogic.apply(rule as Parameters<JsonLogic['apply']>[0], {});
    return true;
  } catch {
    return false;
  }
}
