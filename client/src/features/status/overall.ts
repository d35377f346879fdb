import type { AgentStatus, MonitorStatus, OverallStatus } from '@vigil/proto';

type ItemStatus = MonitorStatus | AgentStatus | string;

/**
 * The server's banner rule (docs/decisions.md), for screens that patch their items from pushes: every item up/online
 * is 'operational'; half or more down/offline is an 'outage'; anything else is 'degraded'. No items: operational.
 */
export function overallStatus(statuses: Iterable<ItemStatus>): OverallStatus {
  let total = 0;
  let failed = 0;
  let healthy = 0;
  for (const status of statuses) {
    total += 1;
    if (status === 'down' || status === 'inactive') failed += 1;
    else if (status === 'up' || status === 'active') healthy += 1;
  }
  if (total === 0 || healthy === total) return 'operational';
  if (failed * 2 >= total) return 'outage';
  return 'degraded';
}

/** Problems first: down/offline 0, pending/connecting (or unknown) 1, up/online 2 — the wall's order. */
export function problemRank(status: ItemStatus): number {
  if (status === 'down' || status === 'inactive') return 0;
  return status === 'up' || status === 'active' ? 2 : 1;
}

/** The wall's rank of an item: a paused monitor says nothing about health, so it comes last. */
export function itemRank(item: { status: ItemStatus; active?: boolean }): number {
  return item.active === false ? 3 : problemRank(item.status);
}

/** Items that count towards the overall status: paused monitors do not. */
export function countedStatuses(items: Array<{ status: ItemStatus; active?: boolean }>): ItemStatus[] {
  return items.filter((item) => item.active !== false).map((item) => item.status);
}

export const OVERALL_COLORS: Record<OverallStatus, string> = {
  operational: 'green',
  degraded: 'yellow',
  outage: 'red',
};
