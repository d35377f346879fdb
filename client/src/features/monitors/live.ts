import type {
  MonitorCheckedEvent,
  MonitorDto,
  MonitorFilter,
  MonitorsChangedEvent,
  MonitorsResponse,
  MonitorStatus,
  MonitorStatusChangedEvent,
  MonitorType,
} from '@vigil/proto';
import { normalizeTag } from '@vigil/proto';
import { displayStatus } from './format';

export type MonitorCounts = MonitorsResponse['counts'];

export const EMPTY_COUNTS: MonitorCounts = { up: 0, down: 0, pending: 0, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: 0 };

/** How many history points and checks a screen keeps; pushes append and the oldest fall off. */
export interface KeptPoints {
  history: number;
  checks: number;
}

/**
 * A monitor after a pushed check: status, response time, uptime and last check replaced, the check appended to the
 * history (oldest first) and, where the screen keeps checks, to the checks (newest first). A check already shown
 * (e.g. from the "check now" answer) or older than the monitor's last check changes nothing.
 */
export function withCheck(monitor: MonitorDto, event: MonitorCheckedEvent, keep: KeptPoints): MonitorDto {
  if (monitor.checks.some((check) => check.id === event.check.id)) return monitor;
  if (monitor.last_checked && Date.parse(event.last_checked) < Date.parse(monitor.last_checked)) return monitor;
  const last = monitor.history[monitor.history.length - 1];
  const history =
    last?.timestamp === event.check.checked_at
      ? monitor.history
      : [...monitor.history, { status: event.check.status, timestamp: event.check.checked_at }].slice(-keep.history);
  const checks = keep.checks > 0 ? [event.check, ...monitor.checks].slice(0, keep.checks) : monitor.checks;
  return {
    ...monitor,
    status: event.status,
    response_time: event.response_time,
    uptime: event.uptime,
    last_checked: event.last_checked,
    history,
    checks,
  };
}

/**
 * What stays of a monitor when a read older than its last pushed check lands (its request left first, or its queries
 * ran before the check was stored): the live figures of the push, everything else from the read. The cache decides
 * when a read is older (`liveCache.monitors`).
 */
export function keepLiveFigures(held: MonitorDto, read: MonitorDto): MonitorDto {
  const { status, response_time, uptime, last_checked, history, checks } = held;
  return { ...read, status, response_time, uptime, last_checked, history, checks };
}

/** A monitor after an edit pushed or answered: settings and status from it, the longer history and checks kept. */
export function withSettings(held: MonitorDto, monitor: MonitorDto): MonitorDto {
  return { ...monitor, history: held.history, checks: held.checks };
}

export function withStatus(monitor: MonitorDto, event: MonitorStatusChangedEvent): MonitorDto {
  return monitor.status === event.status ? monitor : { ...monitor, status: event.status };
}

function shift(counts: MonitorCounts, from: keyof MonitorCounts | null, to: keyof MonitorCounts | null): MonitorCounts {
  const next = { ...counts };
  if (from) next[from] = Math.max(0, next[from] - 1);
  if (to) next[to] += 1;
  return next;
}

/**
 * Summary counts after a transition. Paused monitors are counted as paused whatever their status, so a transition
 * of one known to be paused (a check that was already running when it was paused) moves nothing.
 */
export function countsAfterTransition(counts: MonitorCounts, event: MonitorStatusChangedEvent, known?: MonitorDto): MonitorCounts {
  if (event.previous === event.status || (known && !known.active)) return counts;
  return shift(counts, event.previous, event.status);
}

/**
 * Summary counts after a create, edit or delete. An edit of a monitor this screen does not hold cannot be counted
 * (its previous state is unknown): the answer is null and the caller re-reads the counts.
 */
export function countsAfterChange(counts: MonitorCounts, event: MonitorsChangedEvent, previous?: MonitorDto): MonitorCounts | null {
  const bucket = displayStatus(event.monitor);
  if (event.action === 'created') return { ...shift(counts, null, bucket), total: counts.total + 1 };
  if (event.action === 'deleted') return { ...shift(counts, bucket, null), total: Math.max(0, counts.total - 1) };
  if (!previous) return null;
  const before = displayStatus(previous);
  return before === bucket ? counts : shift(counts, before, bucket);
}

/** Whether a monitor belongs on a list shown with this filter, type and search (the server's rules, for pushes). */
export function matchesListQuery(
  monitor: MonitorDto,
  {
    filter,
    type = 'all',
    status = 'all',
    search,
    tag,
  }: { filter: MonitorFilter; type?: MonitorType | 'all'; status?: MonitorStatus | 'all'; search: string; tag?: string },
): boolean {
  if (tag && !(monitor.tags ?? []).includes(normalizeTag(tag) ?? tag)) return false;
  if (filter === 'active' && !monitor.active) return false;
  if (filter === 'paused' && monitor.active) return false;
  if (status !== 'all' && monitor.status !== status) return false;
  if (type !== 'all' && monitor.type !== type) return false;
  const needle = search.trim().toLowerCase();
  return !needle || monitor.name.toLowerCase().includes(needle) || monitor.url.toLowerCase().includes(needle);
}
