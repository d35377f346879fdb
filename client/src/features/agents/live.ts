import type { AgentCounts, AgentDto, AgentListStatus, AgentStatusChangedEvent } from '@vigil/proto';
import type { AgentStatusFilter } from './api';
import { listStatus } from './format';

export type { AgentCounts };

export const EMPTY_COUNTS: AgentCounts = { active: 0, inactive: 0, connecting: 0, unreachable: 0, maintenance: 0, total: 0 };

/**
 * The counts an agent is in, as the server counts: its status, `unreachable` too when offline behind a down
 * dependency, and `maintenance` too while a window covers it.
 */
function buckets(status: string, unreachable: boolean | undefined, maintenance = false): AgentListStatus[] {
  const listed = listStatus(status);
  const shown: AgentListStatus[] = listed === 'inactive' && unreachable ? ['inactive', 'unreachable'] : [listed];
  return maintenance ? [...shown, 'maintenance'] : shown;
}

/** Summary counts after a status transition: one agent moves from its previous bucket to its new one (a window's cover stays). */
export function countsAfterTransition(
  counts: AgentCounts,
  event: Pick<AgentStatusChangedEvent, 'previous' | 'status' | 'previous_unreachable' | 'unreachable'>,
): AgentCounts {
  const next = { ...counts };
  for (const key of buckets(event.previous, event.previous_unreachable)) next[key] = Math.max(0, next[key] - 1);
  for (const key of buckets(event.status, event.unreachable)) next[key] += 1;
  return next;
}

/** Summary counts after an agent enrolled (+1) or was deleted (-1). */
export function countsAfterMembership(counts: AgentCounts, agent: AgentDto, delta: 1 | -1): AgentCounts {
  const next = { ...counts, total: Math.max(0, counts.total + delta) };
  for (const key of buckets(agent.status, agent.unreachable, agent.maintenance)) next[key] = Math.max(0, next[key] + delta);
  return next;
}

/** Whether an agent belongs on a list shown with this status filter and search (the server's rules, for pushes). */
export function matchesListQuery(agent: AgentDto, status: AgentStatusFilter, search: string): boolean {
  if (status !== 'all' && !buckets(agent.status, agent.unreachable, agent.maintenance).includes(status)) return false;
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [agent.name, agent.hostname, ...agent.ip_addresses].some((text) => text.toLowerCase().includes(needle));
}
