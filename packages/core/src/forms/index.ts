export * from './api.js';
export * from './definition.js';
export { evaluateRule, isLogicRule, type LogicRule, ruleVariables } from './logic.js';
export * from './messages.js';
export * from './shipped.js';
export * from './submission.js';
