export * from './messages.js';
export * from './common.js';
export * from './auth.js';
export * from './links.js';
export * from './subscription.js';
export * from './route.js';
export * from './routes.js';
export * from './client.js';
