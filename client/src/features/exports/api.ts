import type { AvailabilityPage, CheckExportTier, ExportFormat } from '@vigil/proto';
import { apiDownload, http, type DownloadedFile } from '../../api/http';

/** What an export covers: the last `hours`, in `format`, from the tier asked for (monitors only). */
export interface ExportRequest {
  hours: number;
  format: ExportFormat;
  tier?: CheckExportTier;
}

function rangeQuery({ hours, format, tier }: ExportRequest, now = Date.now()): string {
  const query = new URLSearchParams({ from: new Date(now - hours * 3_600_000).toISOString(), to: new Date(now).toISOString(), format });
  if (tier && tier !== 'auto') query.set('tier', tier);
  return query.toString();
}

export const exportsApi = {
  monitorChecks: (id: number, request: ExportRequest, onProgress: (bytes: number) => void, signal?: AbortSignal): Promise<DownloadedFile> =>
    apiDownload(`/api/monitors/${id}/checks/export?${rangeQuery(request)}`, onProgress, { signal }),
  agentMetrics: (id: number, request: ExportRequest, onProgress: (bytes: number) => void, signal?: AbortSignal): Promise<DownloadedFile> =>
    apiDownload(`/api/agents/${id}/metrics/export?${rangeQuery(request)}`, onProgress, { signal }),
  availabilityFile: (
    month: string,
    format: ExportFormat,
    onProgress: (bytes: number) => void,
    signal?: AbortSignal,
  ): Promise<DownloadedFile> => apiDownload(`/api/reports/availability?${new URLSearchParams({ month, format })}`, onProgress, { signal }),
  availabilityPage: (month: string, after: number, limit: number, signal?: AbortSignal) =>
    http.get<AvailabilityPage>(
      `/api/reports/availability?${new URLSearchParams({ month, format: 'json', after: String(after), limit: String(limit) })}`,
      {
        signal,
      },
    ),
};

/** Hands a downloaded file to the browser as a download under its server-given name. */
export function saveFile({ blob, filename }: DownloadedFile, fallback: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? fallback;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the URL only keeps the bytes alive.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
