import type { AgentStatus, MonitorStatus, OverallStatus } from '@vigil/proto';

type ItemStatus = MonitorStatus | AgentStatus;

const HEALTHY: readonly ItemStatus[] = ['up', 'active'];
const FAILED: readonly ItemStatus[] = ['down', 'inactive'];

/**
 * The status page's banner: every item up/online is 'operational'; half or more down/offline is an 'outage';
 * anything else (some down, or any pending/connecting) is 'degraded'. No items at all is operational.
 */
export function overallStatus(statuses: Iterable<ItemStatus>): OverallStatus {
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

/** Problems first (down/offline, then pending/connecting), then by name: the wall's order. */
export function problemRank(status: ItemStatus): number {
  if (FAILED.includes(status)) return 0;
  return HEALTHY.includes(status) ? 2 : 1;
}
