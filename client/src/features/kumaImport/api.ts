import { isMessageCode, type KumaHistoryOption, type KumaImportProgress, type KumaImportResponse } from '@vigil/proto';
import { ApiError, http } from '../../api/http';
import { clearSession, readToken } from '../auth/session';

export interface KumaImportRequest {
  dryRun: boolean;
  history: KumaHistoryOption;
  jobId: string;
}

/** A job id the server keys the progress by: random, so two tabs never read each other's. */
export const newJobId = () => `kuma-${crypto.randomUUID()}`;

/**
 * Sends the file as the raw body (XMLHttpRequest: `fetch` cannot tell how much of an upload has left), calling
 * `onUpload` with the percent sent; the answer is the report, or an ApiError with the server's one-line reason.
 */
export function uploadKumaFile(
  file: Blob,
  request: KumaImportRequest,
  onUpload: (percent: number) => void,
  signal?: AbortSignal,
): Promise<KumaImportResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ dryRun: String(request.dryRun), history: request.history, jobId: request.jobId });
    xhr.open('POST', `/api/import/uptime-kuma?${query}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => event.lengthComputable && onUpload(Math.round((event.loaded / event.total) * 100));
    xhr.onerror = () => reject(new ApiError({ status: 0, kind: 'network', message: 'Network error' }));
    xhr.onabort = () => reject(new DOMException('Import cancelled', 'AbortError'));
    xhr.onload = () => {
      let payload: Record<string, unknown> | null;
      try {
        payload = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        payload = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && payload?.success === true) return resolve(payload as unknown as KumaImportResponse);
      if (xhr.status === 401) clearSession();
      const code = isMessageCode(payload?.code) ? payload.code : undefined;
      reject(new ApiError({ status: xhr.status, code, message: typeof payload?.message === 'string' ? payload.message : '' }));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}

export const kumaImportApi = {
  progress: (jobId: string, signal?: AbortSignal) => http.get<KumaImportProgress>(`/api/import/uptime-kuma/jobs/${jobId}`, { signal }),
};
