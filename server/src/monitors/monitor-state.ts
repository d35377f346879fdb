import type { MonitorStatus } from '@vigil/proto';
import type { MonitorRow } from './monitor.types';

/**
 * The monitor state machine: the one place that decides a monitor's status and when it is checked next. The
 * repository runs it on the rows it holds locked (`SELECT … FOR UPDATE`) and writes what it answers, so a transition
 * is decided once even when checks overlap or several instances store results for one monitor.
 */

/** A monitor's stored state when a result arrives (its locked row). */
export interface MonitorState {
  status: MonitorStatus;
  consecutiveFailures: number;
  active: boolean;
  retries: number;
  retryIntervalS: number;
  responseTime: number | null;
  lastChecked: Date | null;
  nextCheckAt: Date | null;
}

/** What the machine needs of a finished check. */
export interface CheckOutcome {
  ok: boolean;
  responseTime: number | null;
  checkedAt: Date;
  /** The next time on the monitor's regular rhythm; null keeps the stored next check time. */
  rhythmNext: Date | null;
  /** The scheduled slot the check ran for; null for a manual check (see `applyResult`). */
  slotAt: Date | null;
}

/**
 * The next status after a check, by current status: `failures` counts the consecutive failures including this check.
 * A failure makes an up monitor `pending` until `retries` further failures in a row, then `down`; a down monitor stays
 * down until a success; one success returns to `up`. New statuses (maintenance, unreachable) get their row here.
 */
const TRANSITIONS: Record<MonitorStatus, (ok: boolean, failures: number, retries: number) => MonitorStatus> = {
  up: (ok, failures, retries) => (ok ? 'up' : failures > retries ? 'down' : 'pending'),
  pending: (ok, failures, retries) => (ok ? 'up' : failures > retries ? 'down' : 'pending'),
  down: (ok) => (ok ? 'up' : 'down'),
};

/** When the monitor is checked next: at its retry interval while pending, else on its regular rhythm. */
export function nextCheckAt(status: MonitorStatus, checkedAt: Date, retryIntervalS: number, rhythmNext: Date | null): Date | null {
  if (status === 'pending') return new Date(checkedAt.getTime() + retryIntervalS * 1000);
  return rhythmNext;
}

/**
 * What a stored result does to the monitor:
 * - `drop`: not stored. A scheduled check (it has a slot) of a monitor paused meanwhile, or whose slot a stored check
 *   already covers (a re-run of a dead instance's job). A manual check is stored even on a paused monitor.
 * - `stale`: stored in the history, state unchanged. It was checked before the monitor's last stored check (two checks
 *   overlapped and the older one finished last); the newer observation stands.
 * - `apply`: stored, and the monitor takes `next`.
 */
export type Decision = { kind: 'drop' } | { kind: 'stale' } | { kind: 'apply'; next: MonitorState };

export function applyResult(current: MonitorState, outcome: CheckOutcome): Decision {
  const { lastChecked } = current;
  if (outcome.slotAt && (!current.active || (lastChecked && lastChecked >= outcome.slotAt))) return { kind: 'drop' };
  if (lastChecked && outcome.checkedAt < lastChecked) return { kind: 'stale' };
  const failures = outcome.ok ? 0 : current.consecutiveFailures + 1;
  const status = TRANSITIONS[current.status](outcome.ok, failures, current.retries);
  return {
    kind: 'apply',
    next: {
      ...current,
      status,
      consecutiveFailures: failures,
      responseTime: outcome.responseTime,
      lastChecked: outcome.checkedAt,
      nextCheckAt: nextCheckAt(status, outcome.checkedAt, current.retryIntervalS, outcome.rhythmNext ?? current.nextCheckAt),
    },
  };
}

/** One result's effect within a batch: the state before and after it (equal for a stale result). */
export interface Step<T> {
  outcome: T;
  previous: MonitorState;
  state: MonitorState;
}

/**
 * Runs a batch of results through the machine, oldest check first per monitor, each on the state the one before left.
 * Results of monitors not in `states` (deleted) and dropped ones are left out. Answers the steps in the order they
 * were applied, and the final state of each monitor a result moved.
 */
export function applyResults<T extends CheckOutcome & { monitorId: number }>(
  states: Map<number, MonitorState>,
  outcomes: T[],
): { steps: Array<Step<T>>; final: Map<number, MonitorState> } {
  // A stable sort: results checked at the same instant keep their batch order.
  const ordered = [...outcomes].sort((a, b) => a.checkedAt.getTime() - b.checkedAt.getTime());
  const current = new Map(states);
  const final = new Map<number, MonitorState>();
  const steps: Array<Step<T>> = [];
  for (const outcome of ordered) {
    const previous = current.get(outcome.monitorId);
    if (!previous) continue;
    const decision = applyResult(previous, outcome);
    if (decision.kind === 'drop') continue;
    if (decision.kind === 'stale') {
      steps.push({ outcome, previous, state: previous });
      continue;
    }
    current.set(outcome.monitorId, decision.next);
    final.set(outcome.monitorId, decision.next);
    steps.push({ outcome, previous, state: decision.next });
  }
  return { steps, final };
}

/**
 * When the scheduler runs a monitor next after a stored result: a pending monitor at its retry (regular slots before
 * it are skipped, so `retries` failures take `retries` retry intervals), any other on its regular rhythm. A paused
 * monitor (checked by hand) is not retried.
 */
export function nextRun(state: Pick<MonitorState, 'status' | 'nextCheckAt' | 'active'>, rhythmAt: number): { at: number; retry: boolean } {
  if (state.active && state.status === 'pending' && state.nextCheckAt) return { at: state.nextCheckAt.getTime(), retry: true };
  return { at: rhythmAt, retry: false };
}

/** The state the machine reads from a monitor row. */
export function stateOf(row: MonitorRow): MonitorState {
  return {
    status: row.status,
    consecutiveFailures: row.consecutive_failures,
    active: row.active,
    retries: row.retries,
    retryIntervalS: row.retry_interval_s,
    responseTime: row.response_time,
    lastChecked: row.last_checked,
    nextCheckAt: row.next_check_at,
  };
}

/** The row as one result left it (a batch may hold several results of one monitor). */
export function withState(row: MonitorRow, state: MonitorState): MonitorRow {
  return {
    ...row,
    status: state.status,
    consecutive_failures: state.consecutiveFailures,
    response_time: state.responseTime,
    last_checked: state.lastChecked,
    next_check_at: state.nextCheckAt,
  };
}

/**
 * The first time on the monitor's own rhythm (anchor + k × interval) after `now`, so checks missed while the server
 * was down are not all fired at once on restart.
 */
export function nextOnRhythm(anchorMs: number, intervalMs: number, nowMs: number): number {
  if (anchorMs > nowMs) return anchorMs;
  const steps = Math.floor((nowMs - anchorMs) / intervalMs) + 1;
  return anchorMs + steps * intervalMs;
}

/**
 * When a monitor with a stored next check resumes as the scheduler starts (a restart, or a kill -9, after which the row
 * is all the new process knows). A time still ahead is kept. One that passed less than an interval ago is checked at
 * once: it was owed — a check in flight at the kill, or due while the server was briefly down — and waiting for the
 * next slot would leave two intervals between checks (issue 27). Either way the rhythm goes on from the stored slot.
 * After a longer outage the next slot on that rhythm comes first, so a restart after hours does not fire every monitor
 * at once (the checks owed after a short one are at most one interval's worth).
 */
export function resumeAt(storedMs: number, intervalMs: number, nowMs: number): { due: number; rhythmAt: number } {
  if (storedMs >= nowMs) return { due: storedMs, rhythmAt: storedMs };
  const rhythmAt = nextOnRhythm(storedMs, intervalMs, nowMs);
  return { due: nowMs - storedMs < intervalMs ? nowMs : rhythmAt, rhythmAt };
}

/**
 * Slot grains of batched types (ping), coarsest first: their slots fall on multiples of one, so the checks due in one
 * grain start together and share one fping process instead of each few waiting to be gathered (docs/decisions.md,
 * "Ping").
 */
const BATCHED_GRAINS_MS = [10_000, 5000, 1000];

/**
 * A monitor's slot grain: 1 ms (none) for a type checked on its own; for a batched type the coarsest grain that
 * divides its interval (10 s for every interval the form offers), so that a rhythm anchored on the grain stays on it.
 */
export function slotGrainMs(batched: boolean, intervalMs: number): number {
  if (!batched) return 1;
  return BATCHED_GRAINS_MS.find((grain) => intervalMs % grain === 0) ?? 1000;
}

/**
 * A stable offset within the interval for a monitor that has no rhythm yet, spreading start times; a multiple of
 * `grainMs` (intervals are whole seconds, so a rhythm anchored on it stays on the grain).
 */
export function spreadOffsetMs(monitorId: number, intervalMs: number, grainMs = 1): number {
  // Knuth's multiplicative hash spreads consecutive ids across the interval.
  const offset = ((monitorId * 2654435761) % 2 ** 32) % intervalMs;
  return offset - (offset % grainMs);
}

/** The first time on the grain at or after `atMs` (a stored rhythm from before the monitor's grain was what it is). */
export function onGrain(atMs: number, grainMs: number): number {
  return Math.ceil(atMs / grainMs) * grainMs;
}
