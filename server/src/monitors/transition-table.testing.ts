/**
 * The monitor state machine's transition table, shared by its unit spec (`monitor-state.spec.ts`, the pure function)
 * and its medium spec (the same rows through the real writer on PostgreSQL), so both prove one table.
 * Each row: status, consecutive failures, check ok, retries → next status, next consecutive failures.
 */
export const TRANSITION_TABLE = [
  ['up', 0, true, 1, 'up', 0],
  ['up', 0, false, 1, 'pending', 1],
  ['pending', 1, false, 1, 'down', 2],
  ['pending', 1, true, 1, 'up', 0],
  ['up', 0, false, 0, 'down', 1],
  ['up', 0, false, 3, 'pending', 1],
  ['pending', 2, false, 3, 'pending', 3],
  ['pending', 3, false, 3, 'down', 4],
  ['down', 4, false, 3, 'down', 5],
  ['down', 4, true, 3, 'up', 0],
  ['pending', 0, false, 1, 'pending', 1],
  ['pending', 0, true, 1, 'up', 0],
  // Out of a maintenance window (no window covers it any more): the failures counted through it decide.
  ['maintenance', 0, true, 1, 'up', 0],
  ['maintenance', 0, false, 1, 'pending', 1],
  ['maintenance', 3, false, 1, 'down', 4],
] as const;
