import type { AgentStatus, CheckDto, DependencyRef, MonitorStatus } from '@vigil/proto';
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
  /** A success slower than this many milliseconds is degraded; null: never (and for an upside-down monitor, see `oriented`). */
  degradedAfterMs: number | null;
  flapping: boolean;
  /** When its status changed within the flapping window, oldest first (at most `changes + 1` kept). */
  recentChanges: Date[];
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
  /** A success on which a soft assertion failed: degraded, whatever the response time. */
  soft?: boolean;
  /** A failure no location could judge (every probing agent offline): unreachable, as behind a down dependency. */
  unreachable?: boolean;
}

/** What one check recorded: a success, a slow one, a failure, a failure behind a down dependency, or any result in maintenance. */
export type CheckStatus = CheckDto['status'];

/** How many status changes within how long make a monitor flapping (`FLAPPING_CHANGES`, `FLAPPING_WINDOW_MINUTES`). */
export interface FlappingRule {
  changes: number;
  windowMs: number;
}
export const DEFAULT_FLAPPING: FlappingRule = { changes: 5, windowMs: 10 * 60_000 };

/**
 * What the machine is told beside the result: whether a dependency is down now, whether an active maintenance window
 * covers the monitor (both read in the writing transaction), and the flapping rule.
 */
export interface StepContext {
  dependencyDown: boolean;
  maintenance?: boolean;
  flapping: FlappingRule;
}
const ALONE: StepContext = { dependencyDown: false, flapping: DEFAULT_FLAPPING };

/**
 * What a check says on its own: a success is `up`, or `degraded` when slower than the monitor's threshold or a soft
 * assertion failed; a failure is `down`, or `unreachable` while a dependency is down (it is not the monitor's fault).
 */
export function checkStatus(outcome: CheckOutcome, degradedAfterMs: number | null, dependencyDown: boolean): CheckStatus {
  if (!outcome.ok) return dependencyDown ? 'unreachable' : 'down';
  const slow = degradedAfterMs !== null && outcome.responseTime !== null && outcome.responseTime > degradedAfterMs;
  return slow || outcome.soft ? 'degraded' : 'up';
}

/** What an upside-down monitor records for a check that succeeded. */
export const UPSIDE_DOWN_ERROR = 'Upside down: the check succeeded';

/**
 * Upside-down mode (Uptime Kuma's `upsideDown`), applied to every result before the machine decides it, whatever its
 * type or where it was checked: a failure (the probe's, a hard assertion's, a timeout, a push monitor's silence or a
 * pushed `down`) is a success and keeps its error as what was seen; a success (a soft assertion's failure included)
 * is a failure named by UPSIDE_DOWN_ERROR. A verdict no location could give (`unreachable`) says nothing to invert.
 * Never degraded: the inverted success is no measured answer (stateOf drops the threshold).
 */
export function oriented<T extends { ok: boolean; error: string | null; soft?: boolean; unreachable?: boolean }>(
  result: T,
  upsideDown: boolean,
): T {
  if (!upsideDown || result.unreachable) return result;
  const { soft: _soft, ...rest } = result;
  return (result.ok ? { ...rest, ok: false, error: UPSIDE_DOWN_ERROR } : { ...rest, ok: true }) as T;
}

/** A failure not excused by a dependency: `pending` until `retries` further failures in a row, then `down`. */
const failing = (failures: number, retries: number): MonitorStatus => (failures > retries ? 'down' : 'pending');

/**
 * The next status after a check, by current status and what the check said; `failures` counts the consecutive
 * failures including this check. Successes, slow or not, apply at once (no retries). A failure makes an up, degraded
 * or pending monitor `pending` until `retries` further failures in a row, then `down`, unless a dependency is down:
 * then it is `unreachable` and the retries do not run out. A down monitor stays down until a success, even when a
 * dependency fails after it (its own alert was sent; turning it unreachable would only alert twice). An unreachable
 * monitor still failing once its dependencies are back is `down` at once: it failed long enough already.
 */
const TRANSITIONS: Record<MonitorStatus, (check: CheckStatus, failures: number, retries: number) => MonitorStatus> = {
  up: (check, failures, retries) => (check === 'down' ? failing(failures, retries) : check),
  degraded: (check, failures, retries) => (check === 'down' ? failing(failures, retries) : check),
  pending: (check, failures, retries) => (check === 'down' ? failing(failures, retries) : check),
  down: (check) => (check === 'unreachable' ? 'down' : check),
  unreachable: (check) => check,
  // Out of a window, failures counted through it decide: one failing all along is down at once (and alerts then).
  maintenance: (check, failures, retries) => (check === 'down' ? failing(failures, retries) : check),
};

/**
 * Flapping, decided at each applied result with its check time as the clock: a status change is remembered for the
 * window; more than `changes` of them within it make the monitor flapping, and it settles at the first result after
 * a whole window without a change (no sweep: a monitor is checked at least every interval). Moves into and out of
 * maintenance are planned, not the monitor's own: they are not counted.
 */
export function flappingAfter(
  previous: Pick<MonitorState, 'status' | 'flapping' | 'recentChanges'>,
  status: MonitorStatus,
  at: Date,
  rule: FlappingRule,
): Pick<MonitorState, 'flapping' | 'recentChanges'> {
  const since = at.getTime() - rule.windowMs;
  const changes = previous.recentChanges.filter((change) => new Date(change).getTime() > since);
  if (status !== previous.status && status !== 'maintenance' && previous.status !== 'maintenance') changes.push(at);
  const flapping = changes.length > rule.changes || (previous.flapping && changes.length > 0);
  return { flapping, recentChanges: changes.slice(-(rule.changes + 1)) };
}

/** When the monitor is checked next: at its retry interval while pending, else on its regular rhythm. */
export function nextCheckAt(status: MonitorStatus, checkedAt: Date, retryIntervalS: number, rhythmNext: Date | null): Date | null {
  if (status === 'pending') return new Date(checkedAt.getTime() + retryIntervalS * 1000);
  return rhythmNext;
}

/**
 * What a stored result does to the monitor (in maintenance it is recorded as `maintenance` and the monitor stays so,
 * its consecutive failures still counted for when the window ends):
 * - `drop`: not stored. A scheduled check (it has a slot) of a monitor paused meanwhile, or whose slot a stored check
 *   already covers (a re-run of a dead instance's job). A manual check is stored even on a paused monitor.
 * - `stale`: stored in the history, state unchanged. It was checked before the monitor's last stored check (two checks
 *   overlapped and the older one finished last); the newer observation stands.
 * - `apply`: stored, and the monitor takes `next`.
 */
export type Decision = { kind: 'drop' } | { kind: 'stale'; check: CheckStatus } | { kind: 'apply'; check: CheckStatus; next: MonitorState };

export function applyResult(current: MonitorState, outcome: CheckOutcome, context: StepContext = ALONE): Decision {
  const { lastChecked } = current;
  if (outcome.slotAt && (!current.active || (lastChecked && lastChecked >= outcome.slotAt))) return { kind: 'drop' };
  const check = context.maintenance ? 'maintenance' : checkStatus(outcome, current.degradedAfterMs, context.dependencyDown);
  if (lastChecked && outcome.checkedAt < lastChecked) return { kind: 'stale', check };
  const failures = outcome.ok ? 0 : current.consecutiveFailures + 1;
  const status = context.maintenance ? 'maintenance' : TRANSITIONS[current.status](check, failures, current.retries);
  return {
    kind: 'apply',
    check,
    next: {
      ...current,
      status,
      consecutiveFailures: failures,
      responseTime: outcome.responseTime,
      lastChecked: outcome.checkedAt,
      nextCheckAt: nextCheckAt(status, outcome.checkedAt, current.retryIntervalS, outcome.rhythmNext ?? current.nextCheckAt),
      ...flappingAfter(current, status, outcome.checkedAt, context.flapping),
    },
  };
}

/** One result's effect within a batch: the state before and after it (equal for a stale result), what the check said. */
export interface Step<T> {
  outcome: T;
  previous: MonitorState;
  state: MonitorState;
  check: CheckStatus;
  /** Unreachable: the first of its dependencies that was down. */
  cause: DependencyRef | null;
}

/**
 * What a batch is decided with beside its monitors' rows: their dependencies, the statuses of those outside the
 * batch, and which of its monitors an active maintenance window covers.
 */
export interface BatchContext {
  dependsOn?: Map<number, DependencyRef[]>;
  /** Monitors read in the same transaction (not in the batch). A paused monitor is never down for its dependents. */
  monitors?: Map<number, { status: MonitorStatus; active: boolean }>;
  agents?: Map<number, AgentStatus>;
  flapping?: FlappingRule;
  maintenance?: Set<number>;
}

/** A monitor is down for its dependents while down or unreachable (and checked); an agent while offline. */
export function isDown(
  ref: DependencyRef,
  monitors: (id: number) => { status: MonitorStatus; active: boolean } | undefined,
  agents: Map<number, AgentStatus>,
): boolean {
  if (ref.type === 'agent') return agents.get(ref.id) === 'inactive';
  const monitor = monitors(ref.id);
  return !!monitor && monitor.active && (monitor.status === 'down' || monitor.status === 'unreachable');
}

/**
 * Runs a batch of results through the machine, each on the state the one before left: a monitor's dependencies in
 * the batch first (so a router and the service behind it, failing in one batch, leave the service unreachable whatever
 * order their checks ended in), each monitor's results oldest first. A dependency in the batch counts with its state
 * after its own results; one outside with the status read in the transaction. Results of monitors not in `states`
 * (deleted) and dropped ones are left out. Answers the steps in the order they were applied, and the final state of
 * each monitor a result moved.
 */
export function applyResults<T extends CheckOutcome & { monitorId: number }>(
  states: Map<number, MonitorState>,
  outcomes: T[],
  context: BatchContext = {},
): { steps: Array<Step<T>>; final: Map<number, MonitorState> } {
  const dependsOn = context.dependsOn ?? new Map<number, DependencyRef[]>();
  const rank = dependencyRank([...states.keys()], dependsOn);
  // A stable sort: results checked at the same instant keep their batch order.
  const ordered = [...outcomes].sort(
    (a, b) => (rank.get(a.monitorId) ?? 0) - (rank.get(b.monitorId) ?? 0) || a.checkedAt.getTime() - b.checkedAt.getTime(),
  );
  const current = new Map(states);
  const final = new Map<number, MonitorState>();
  const steps: Array<Step<T>> = [];
  const monitorOf = (id: number) => current.get(id) ?? context.monitors?.get(id);
  const agents = context.agents ?? new Map<number, AgentStatus>();
  const flapping = context.flapping ?? DEFAULT_FLAPPING;
  for (const outcome of ordered) {
    const previous = current.get(outcome.monitorId);
    if (!previous) continue;
    const cause = (dependsOn.get(outcome.monitorId) ?? []).find((ref) => isDown(ref, monitorOf, agents)) ?? null;
    const maintenance = context.maintenance?.has(outcome.monitorId) ?? false;
    const decision = applyResult(previous, outcome, {
      dependencyDown: cause !== null || outcome.unreachable === true,
      maintenance,
      flapping,
    });
    if (decision.kind === 'drop') continue;
    if (decision.kind === 'stale') {
      steps.push({ outcome, previous, state: previous, check: decision.check, cause: null });
      continue;
    }
    current.set(outcome.monitorId, decision.next);
    final.set(outcome.monitorId, decision.next);
    steps.push({
      outcome,
      previous,
      state: decision.next,
      check: decision.check,
      cause: decision.next.status === 'unreachable' ? cause : null,
    });
  }
  return { steps, final };
}

/**
 * A maintenance window starts covering the monitor: it shows `maintenance` at once, without waiting for a check (its
 * checks go on and are recorded as such). Null: nothing moves (paused, or in maintenance already).
 */
export function enterMaintenance(state: MonitorState): MonitorState | null {
  if (!state.active || state.status === 'maintenance') return null;
  return { ...state, status: 'maintenance' };
}

/**
 * Each monitor's place when dependencies come first: its longest chain of dependencies within `ids`. Cycles are
 * refused when saved; one made by a concurrent edit is cut where it is met, so the order is always defined.
 */
export function dependencyRank(ids: number[], dependsOn: Map<number, DependencyRef[]>): Map<number, number> {
  const inBatch = new Set(ids);
  const rank = new Map<number, number>();
  const visiting = new Set<number>();
  const visit = (id: number): number => {
    const known = rank.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    let depth = 0;
    for (const ref of dependsOn.get(id) ?? []) {
      if (ref.type === 'monitor' && inBatch.has(ref.id) && ref.id !== id) depth = Math.max(depth, visit(ref.id) + 1);
    }
    visiting.delete(id);
    rank.set(id, depth);
    return depth;
  };
  for (const id of ids) visit(id);
  return rank;
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
    degradedAfterMs: row.upside_down ? null : (row.degraded_after_ms ?? null),
    flapping: row.flapping ?? false,
    recentChanges: (row.recent_changes ?? []).map((at) => new Date(at)),
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
    flapping: state.flapping,
    recent_changes: state.recentChanges,
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
