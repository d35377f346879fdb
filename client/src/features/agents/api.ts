import type {
  AgentDeviceKind,
  AgentDevicesResponse,
  AgentInsightResponse,
  AgentMetricsRange,
  AgentMetricsResponse,
  AgentResponse,
  AgentListStatus,
  AgentsResponse,
  AgentTokenResponse,
  AgentUpdateRequest,
  MessageResponse,
} from '@vigil/proto';
import { http } from '../../api/http';

/** `unreachable` lists the offline agents behind a down dependency, `inactive` the other offline ones. */
export type AgentStatusFilter = 'all' | AgentListStatus;

/** One page of the agent list, filtered on the server so a thousand agents never travel at once. */
export interface AgentListQuery {
  page: number;
  pageSize: number;
  status: AgentStatusFilter;
  search: string;
}

function listParams({ page, pageSize, status, search }: AgentListQuery): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (status !== 'all') params.set('status', status);
  if (search.trim()) params.set('search', search.trim());
  return params.toString();
}

export const agentsApi = {
  list: (query: AgentListQuery, signal?: AbortSignal) => http.get<AgentsResponse>(`/api/agents?${listParams(query)}`, { signal }),
  get: (id: number, signal?: AbortSignal) => http.get<AgentResponse>(`/api/agents/${id}`, { signal }),
  update: (id: number, body: AgentUpdateRequest) => http.put<AgentResponse>(`/api/agents/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/api/agents/${id}`),
  /** A registration token for the create page; the server keeps only its hash, so it can be shown once. */
  generateToken: () => http.post<AgentTokenResponse>('/api/agents/token/generate'),
  metrics: (id: number, range: AgentMetricsRange, signal?: AbortSignal) =>
    http.get<AgentMetricsResponse>(`/api/agents/${id}/metrics?range=${range}`, { signal }),
  /** The host's newest containers, sensors, per-disk I/O and services (protocol 2 agents; null parts otherwise). */
  insight: (id: number, signal?: AbortSignal) => http.get<AgentInsightResponse>(`/api/agents/${id}/insight`, { signal }),
  devices: (id: number, kind: AgentDeviceKind, range: AgentMetricsRange, signal?: AbortSignal) =>
    http.get<AgentDevicesResponse>(`/api/agents/${id}/devices?kind=${kind}&range=${range}`, { signal }),
};
