export * from './api';
export * from './limits';
export * from './messages';
export * from './realtime';
export * from './monitors';
export * from './agent';
export * from './agents';
export * from './status';
