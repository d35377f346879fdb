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
 * Planned work: neither failed nor healthy when ranking (it sorts with pending and degraded), but the banner's three
 * values have no room for it, so there it counts with up (a page wanting a blue banner says `maintenance` itself).
 */
const PLANNED: readonly string[] = ['maintenance'];

/**
 * The status page's banner: every item up/online (or in maintenance) is 'operational'; half or more
 * down/unreachable/offline is an 'outage'; anything else (some down, or any pending/degraded/connecting) is
 * 'degraded'. No items at all is operational.
 */
export function overallStatus(statuses: Iterable<string>): OverallStatus {
  let total = 0;
  let failed = 0;
  let healthy = 0;
  for (const status of statuses) {
    total += 1;
    if (FAILED.includes(status)) failed += 1;
    else if (HEALTHY.includes(status) || PLANNED.includes(status)) healthy += 1;
  }
  return bannerOf(total, failed, healthy);
}

function bannerOf(total: number, failed: number, healthy: number): OverallStatus {
  if (total === 0 || healthy === total) return 'operational';
  if (failed * 2 >= total) return 'outage';
  return 'degraded';
}

/** Problems first: down/unreachable/offline 0, pending/degraded/connecting/maintenance (or unknown) 1, up/online 2. */
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

/** A status page's banner, worst first: what an open incident of each impact raises it to at least. */
const PAGE_LEVELS = ['operational', 'maintenance', 'degraded', 'outage'] as const;
type PageLevel = (typeof PAGE_LEVELS)[number];
const IMPACT_LEVEL: Record<import('./incidents').IncidentImpact, PageLevel> = {
  none: 'operational',
  minor: 'degraded',
  major: 'outage',
  critical: 'outage',
};

/** Components by status, paused ones left out: how a status page keeps its groups' summaries. */
export type StatusCounts = Partial<Record<string, number>>;

/** The counts of these components' statuses, paused monitors left out (they say nothing about health). */
export function statusCounts(components: Iterable<Pick<RankedItem, 'status' | 'active'>>): StatusCounts {
  const counts: StatusCounts = {};
  for (const item of components) if (item.active !== false) counts[item.status] = (counts[item.status] ?? 0) + 1;
  return counts;
}

/**
 * A status page's (or one of its groups') banner, from its components' status counts (`statusCounts`). Components
 * decide it as on the spec's page (degraded and unreachable count as issues, those in maintenance with the healthy
 * ones); with nothing wrong, any in maintenance make it 'maintenance'. Open incidents then raise it by impact: minor
 * to at least 'degraded', major and critical to 'outage'. Counts, not lists, so a page of 10,000 components follows
 * each change without going through all of them.
 */
export function pageOverall(
  counts: StatusCounts,
  impacts: Iterable<import('./incidents').IncidentImpact> = [],
): import('./status-pages').PageOverall {
  let total = 0;
  let failed = 0;
  let healthy = 0;
  for (const [status, count = 0] of Object.entries(counts)) {
    total += count;
    if (FAILED.includes(status)) failed += count;
    else if (HEALTHY.includes(status) || PLANNED.includes(status)) healthy += count;
  }
  const base = bannerOf(total, failed, healthy);
  let level: PageLevel = base === 'operational' && (counts.maintenance ?? 0) > 0 ? 'maintenance' : base;
  for (const impact of impacts) {
    const raised = IMPACT_LEVEL[impact] ?? 'operational';
    if (PAGE_LEVELS.indexOf(raised) > PAGE_LEVELS.indexOf(level)) level = raised;
  }
  return level;
}
