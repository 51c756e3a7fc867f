export * from './catalogue.js';
export * from './schemas.js';
export * from './templates.js';
export * from './variables.js';
