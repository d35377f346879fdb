/** Rules the server decides and the client repeats when it patches a screen from pushes: one copy, here. */
import type { OverallStatus } from './status';

/** An item of the status page or the wall: a monitor (with its active flag) or an agent. */
export interface RankedItem {
  name: string;
  status: string;
  /** Monitors only: false while checks are paused. */
  active?: boolean;
}

const HEALTHY: readonly string[] = ['up', 'active'];
/** Unreachable is failing behind a down dependency: the service is not there for its users, so it counts as down. */
const FAILED: readonly string[] = ['down', 'unreachable', 'inactive'];

/**
 * The status page's banner: every item up/online is 'operational'; half or more down/unreachable/offline is an
 * 'outage'; anything else (some down, or any pending/degraded/connecting) is 'degraded'. No items at all is operational.
 */
export function overallStatus(statuses: Iterable<string>): OverallStatus {
  let total = 0;
  let failed = 0;
  let healthy = 0;
  for (const status of statuses) {
    total += 1;
    if (FAILED.includes(status)) failed += 1;
    else if (HEALTHY.includes(status)) healthy += 1;
  }
  if (total === 0 || healthy === total) return 'operational';
  if (failed * 2 >= total) return 'outage';
  return 'degraded';
}

/** Problems first: down/unreachable/offline 0, pending/degraded/connecting (or unknown) 1, up/online 2. */
export function problemRank(status: string): number {
  if (FAILED.includes(status)) return 0;
  return HEALTHY.includes(status) ? 2 : 1;
}

/** An item's rank on the wall: a paused monitor says nothing about health, so it comes last. */
export function itemRank(item: Pick<RankedItem, 'status' | 'active'>): number {
  return item.active === false ? 3 : problemRank(item.status);
}

/** The wall's order: problems first (down/unreachable/offline, then pending/degraded/connecting), paused last, then by name. */
export function byProblem(a: RankedItem, b: RankedItem): number {
  return itemRank(a) - itemRank(b) || a.name.localeCompare(b.name);
}

/** The overall status of a page's items: paused monitors stay out of it. */
export function overallOf(items: Iterable<Pick<RankedItem, 'status' | 'active'>>): OverallStatus {
  const counted: string[] = [];
  for (const item of items) if (item.active !== false) counted.push(item.status);
  return overallStatus(counted);
}
