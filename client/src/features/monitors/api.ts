import type {
  CheckResponse,
  ChecksPageResponse,
  MessageResponse,
  MonitorFilter,
  MonitorRequest,
  MonitorHostResponse,
  MonitorLimitsResponse,
  MonitorLocationsResponse,
  MonitorResponse,
  MonitorsResponse,
  MonitorStatsResponse,
  MonitorStatus,
  MonitorTestResponse,
  MonitorType,
  SetMonitorStatusRequest,
  StatsRange,
} from '@vigil/proto';
import { apiFile, http } from '../../api/http';

/** The create/update (and test) body: proto's request, common settings and the type's own fields. */
export type MonitorBody = MonitorRequest;

/** One page of the monitor list, filtered on the server so 10,000 monitors never travel at once. */
export interface MonitorListQuery {
  page: number;
  pageSize: number;
  filter: MonitorFilter;
  /** Only monitors of this type (`type=` on the list read). */
  type: MonitorType | 'all';
  /** Only monitors with this status (`status=`); absent: any. */
  status?: MonitorStatus | 'all';
  search: string;
  /** Only monitors carrying this exact tag (`tag=`); empty or absent: any. */
  tag?: string;
  /** The grouped view: only monitors in no group (`topLevel=true`), or one group's members (`parentId=`). */
  topLevel?: boolean;
  parentId?: number;
}

function listParams({ page, pageSize, filter, type, status = 'all', search, tag, topLevel, parentId }: MonitorListQuery): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter !== 'all') params.set('filter', filter);
  if (status !== 'all') params.set('status', status);
  if (type !== 'all') params.set('type', type);
  if (search.trim()) params.set('search', search.trim());
  if (tag?.trim()) params.set('tag', tag.trim());
  if (topLevel) params.set('topLevel', 'true');
  if (parentId !== undefined) params.set('parentId', String(parentId));
  return params.toString();
}

export const monitorsApi = {
  list: (query: MonitorListQuery, signal?: AbortSignal) => http.get<MonitorsResponse>(`/api/monitors?${listParams(query)}`, { signal }),
  get: (id: number, signal?: AbortSignal) => http.get<MonitorResponse>(`/api/monitors/${id}`, { signal }),
  limits: () => http.get<MonitorLimitsResponse>('/api/monitors/limits'),
  create: (body: MonitorBody) => http.post<MonitorResponse>('/api/monitors', body),
  update: (id: number, body: MonitorBody) => http.put<MonitorResponse>(`/api/monitors/${id}`, body),
  /** One check of an unsaved body; nothing is stored. */
  test: (body: MonitorBody) => http.post<MonitorTestResponse>('/api/monitors/test', body),
  remove: (id: number) => http.delete<MessageResponse>(`/api/monitors/${id}`),
  /** Runs a check now; the answer carries the check and the monitor after it. */
  check: (id: number) => http.post<CheckResponse>(`/api/monitors/${id}/check`),
  pause: (id: number) => http.post<MonitorResponse>(`/api/monitors/${id}/pause`),
  resume: (id: number) => http.post<MonitorResponse>(`/api/monitors/${id}/resume`),
  /** A manual monitor's status, set by hand; kept in its history like a check. */
  setStatus: (id: number, body: SetMonitorStatusRequest) => http.post<CheckResponse>(`/api/monitors/${id}/status`, body),
  stats: (id: number, range: StatsRange, signal?: AbortSignal) =>
    http.get<MonitorStatsResponse>(`/api/monitors/${id}/stats?range=${range}`, { signal }),
  checks: (id: number, page: number, pageSize: number, signal?: AbortSignal) =>
    http.get<ChecksPageResponse>(`/api/monitors/${id}/checks?page=${page}&pageSize=${pageSize}`, { signal }),
  /** Where it is checked from: each location's last result and 24 h uptime, and the quorum rule. */
  locations: (id: number, signal?: AbortSignal) => http.get<MonitorLocationsResponse>(`/api/monitors/${id}/locations`, { signal }),
  /** The host it runs on (its `host_agent_id`): figures and recent changes; 404 `monitors.hostAgentNone` when none. */
  host: (id: number, signal?: AbortSignal) => http.get<MonitorHostResponse>(`/api/monitors/${id}/host`, { signal }),
  /** A browser monitor's last failure screenshot (PNG); 404 `monitors.screenshotNotFound` when it has none. */
  screenshot: (id: number, signal?: AbortSignal) => apiFile(`/api/monitors/${id}/screenshot`, { signal }),
};
