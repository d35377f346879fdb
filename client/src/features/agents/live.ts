import type { AgentDto, AgentsResponse, AgentStatus } from '@vigil/proto';
import type { AgentStatusFilter } from './api';
import { listStatus } from './format';

export type AgentCounts = AgentsResponse['counts'];

export const EMPTY_COUNTS: AgentCounts = { active: 0, inactive: 0, connecting: 0, total: 0 };

function bucket(status: string): keyof Omit<AgentCounts, 'total'> {
  return listStatus(status);
}

/** Summary counts after a status transition: one agent moves from its previous bucket to its new one. */
export function countsAfterTransition(counts: AgentCounts, previous: AgentStatus, status: AgentStatus): AgentCounts {
  const from = bucket(previous);
  const to = bucket(status);
  if (from === to) return counts;
  return { ...counts, [from]: Math.max(0, counts[from] - 1), [to]: counts[to] + 1 };
}

/** Summary counts after an agent enrolled (+1) or was deleted (-1). */
export function countsAfterMembership(counts: AgentCounts, agent: AgentDto, delta: 1 | -1): AgentCounts {
  const key = bucket(agent.status);
  return { ...counts, [key]: Math.max(0, counts[key] + delta), total: Math.max(0, counts.total + delta) };
}

/** Whether an agent belongs on a list shown with this status filter and search (the server's rules, for pushes). */
export function matchesListQuery(agent: AgentDto, status: AgentStatusFilter, search: string): boolean {
  if (status !== 'all' && agent.status !== status) return false;
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [agent.name, agent.hostname, ...agent.ip_addresses].some((text) => text.toLowerCase().includes(needle));
}
