import type { CheckOutcome, MonitorState } from './monitor-state';

/** A time on the state machine specs' clock: `seconds` after noon on 2026-01-01. */
export const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds));

/** An up monitor last checked at 0 s, next due at 60 s, with one retry. */
export function state(patch: Partial<MonitorState> = {}): MonitorState {
  return {
    status: 'up',
    consecutiveFailures: 0,
    active: true,
    retries: 1,
    retryIntervalS: 20,
    responseTime: 10,
    lastChecked: at(0),
    nextCheckAt: at(60),
    degradedAfterMs: null,
    flapping: false,
    recentChanges: [],
    ...patch,
  };
}

/** A manual success at 30 s. */
export function outcome(patch: Partial<CheckOutcome> = {}): CheckOutcome {
  return { ok: true, responseTime: 12, checkedAt: at(30), rhythmNext: at(90), slotAt: null, ...patch };
}
