export * from './accent.js';
export * from './messages.js';
