import type { DashboardResponse, MessageResponse, StatusConfigRequest, StatusConfigResponse, StatusDataResponse } from '@vigil/proto';
import { http } from '../../api/http';

export const statusApi = {
  /** The public page's data; anyone may read it, signed in or not. */
  data: (signal?: AbortSignal) => http.get<StatusDataResponse>('/api/status/data', { signal }),
  config: (signal?: AbortSignal) => http.get<StatusConfigResponse>('/api/status/config', { signal }),
  saveConfig: (body: StatusConfigRequest) => http.post<MessageResponse>('/api/status/config', body),
  dashboard: (signal?: AbortSignal) => http.get<DashboardResponse>('/api/dashboard', { signal }),
};

/** The README badge of a monitor shown on the status page, as Markdown. */
export function badgeMarkdown(origin: string, monitor: { id: number; name: string }): string {
  // Brackets in the name would end the alt text early.
  const alt = monitor.name.replace(/[[\]]/g, '');
  return `![${alt}](${origin}/api/status/badge/${monitor.id}.svg)`;
}
