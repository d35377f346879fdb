import type {
  MaintenanceCalendarResponse,
  MaintenanceListResponse,
  MaintenancePhase,
  MaintenanceResponse,
  MessageResponse,
  SaveMaintenanceRequest,
} from '@vigil/proto';
import { http } from '../../api/http';

export type MaintenancePhaseFilter = MaintenancePhase | 'all';
export const MAINTENANCE_PHASE_FILTERS: readonly MaintenancePhaseFilter[] = ['all', 'active', 'scheduled', 'ended', 'paused'];

export interface MaintenanceQuery {
  phase: MaintenancePhaseFilter;
  /** The server's list has no search; the live list's shape asks for one. */
  search: string;
  page: number;
  pageSize: number;
  /** Only the windows covering this monitor (directly, through a group, or all). */
  monitorId?: number;
}

export const MAINTENANCE_PAGE_SIZE = 20;
export const DEFAULT_MAINTENANCE_QUERY: MaintenanceQuery = { phase: 'all', search: '', page: 1, pageSize: MAINTENANCE_PAGE_SIZE };

export function maintenanceParams({ phase, page, pageSize, monitorId }: MaintenanceQuery): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (phase !== 'all') params.set('phase', phase);
  if (monitorId !== undefined) params.set('monitorId', String(monitorId));
  return params.toString();
}

export const maintenanceApi = {
  list: (query: MaintenanceQuery, signal?: AbortSignal) =>
    http.get<MaintenanceListResponse>(`/api/maintenance?${maintenanceParams(query)}`, { signal }),
  get: (id: number, signal?: AbortSignal) => http.get<MaintenanceResponse>(`/api/maintenance/${id}`, { signal }),
  create: (body: SaveMaintenanceRequest) => http.post<MaintenanceResponse>('/api/maintenance', body),
  update: (id: number, body: SaveMaintenanceRequest) => http.put<MaintenanceResponse>(`/api/maintenance/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/api/maintenance/${id}`),
  /** Ends the occurrence under way now; a manual window switches off. */
  end: (id: number) => http.post<MaintenanceResponse>(`/api/maintenance/${id}/end`),
  calendar: (from: Date, to: Date, signal?: AbortSignal) =>
    http.get<MaintenanceCalendarResponse>(
      `/api/maintenance/calendar?${new URLSearchParams({ from: from.toISOString(), to: to.toISOString() }).toString()}`,
      { signal },
    ),
};
