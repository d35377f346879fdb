import type {
  AddIncidentUpdateRequest,
  CreateIncidentRequest,
  IncidentResponse,
  IncidentsResponse,
  MessageResponse,
  SaveIncidentRequest,
} from '@vigil/proto';
import { http } from '../../api/http';

/** `active`: published and unresolved; `draft`: not published yet; `resolved`: over. */
export type IncidentStateFilter = 'active' | 'draft' | 'resolved' | 'all';
export const INCIDENT_STATE_FILTERS: readonly IncidentStateFilter[] = ['active', 'draft', 'resolved', 'all'];

export interface IncidentsQuery {
  state: IncidentStateFilter;
  search: string;
  page: number;
  pageSize: number;
}

export const INCIDENTS_PAGE_SIZE = 20;
export const DEFAULT_INCIDENTS_QUERY: IncidentsQuery = { state: 'active', search: '', page: 1, pageSize: INCIDENTS_PAGE_SIZE };

export function incidentsParams({ state, search, page, pageSize }: IncidentsQuery): string {
  const params = new URLSearchParams({ state, page: String(page), pageSize: String(pageSize) });
  if (search.trim()) params.set('search', search.trim());
  return params.toString();
}

export const incidentsApi = {
  list: (query: IncidentsQuery, signal?: AbortSignal) =>
    http.get<IncidentsResponse>(`/api/incidents?${incidentsParams(query)}`, { signal }),
  get: (id: number, signal?: AbortSignal) => http.get<IncidentResponse>(`/api/incidents/${id}`, { signal }),
  create: (body: CreateIncidentRequest) => http.post<IncidentResponse>('/api/incidents', body),
  update: (id: number, body: SaveIncidentRequest) => http.put<IncidentResponse>(`/api/incidents/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/api/incidents/${id}`),
  addUpdate: (id: number, body: AddIncidentUpdateRequest) => http.post<IncidentResponse>(`/api/incidents/${id}/updates`, body),
};
