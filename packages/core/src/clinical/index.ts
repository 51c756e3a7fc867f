export * from './messages.js';
export * from './model.js';
export * from './sla.js';
export * from './views.js';
