import type { AlertAckRequest, AlertResponse, AlertsResponse, AlertStateName, MuteRequest } from '@vigil/proto';
import { http } from '../../api/http';

export type AlertStateFilter = AlertStateName | 'all';
export type AlertKindFilter = 'monitor' | 'agent' | 'all';

export interface AlertsQuery {
  state: AlertStateFilter;
  kind: AlertKindFilter;
  /** Only the alerts of this monitor or agent (with `kind`). */
  targetId?: number;
  search: string;
  page: number;
  pageSize: number;
}

export const ALERTS_PAGE_SIZE = 20;

export const DEFAULT_ALERTS_QUERY: AlertsQuery = { state: 'all', kind: 'all', search: '', page: 1, pageSize: ALERTS_PAGE_SIZE };

/** The query string of `GET /api/alerts`; `all` filters are left out, as the server's default. */
export function alertsParams(query: AlertsQuery): string {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  if (query.state !== 'all') params.set('state', query.state);
  if (query.kind !== 'all') params.set('kind', query.kind);
  if (query.targetId !== undefined) params.set('targetId', String(query.targetId));
  const search = query.search.trim();
  if (search) params.set('search', search);
  return params.toString();
}

export const alertsApi = {
  list: (query: AlertsQuery, signal?: AbortSignal) => http.get<AlertsResponse>(`/api/alerts?${alertsParams(query)}`, { signal }),
  get: (id: number, signal?: AbortSignal) => http.get<AlertResponse>(`/api/alerts/${id}`, { signal }),
  acknowledge: (id: number, body: AlertAckRequest) => http.post<AlertResponse>(`/api/alerts/${id}/ack`, body),
  /** No notifications about the monitor or agent until `until`; null unmutes. */
  mute: (kind: 'monitor' | 'agent', id: number, body: MuteRequest) =>
    http.post<{ data: { muted_until: string | null } }>(`/api/${kind === 'monitor' ? 'monitors' : 'agents'}/${id}/mute`, body),
};
