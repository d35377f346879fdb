import type { CheckDto, HistoryPoint, MonitorDto } from '@vigil/proto';
import { maskHeaders, maskUrl } from '../common/secret-values';
import { uptimePercent } from './check-rules';
import type { MonitorRow } from './monitor.types';

/**
 * A monitor as every read and push shows it: credentials in the URL and the values of credential headers
 * (Authorization, Cookie, X-Api-Key…) masked. Saving the mask back keeps them (MonitorsService.update).
 */
export function toMonitorDto(
  row: MonitorRow,
  extra: { history?: HistoryPoint[]; checks?: CheckDto[]; uptime?: { up: number; checks: number } } = {},
): MonitorDto {
  return {
    id: row.id,
    name: row.name,
    url: maskUrl(row.url),
    method: row.method,
    interval: row.interval_s,
    timeout: row.timeout_s,
    expected_status: row.expected_status,
    headers: maskHeaders(row.headers ?? {}),
    body: row.body,
    active: row.active,
    status: row.status,
    response_time: row.response_time,
    uptime: uptimePercent(extra.uptime?.up ?? 0, extra.uptime?.checks ?? 0),
    last_checked: row.last_checked ? new Date(row.last_checked).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
    retries: row.retries,
    retry_interval: row.retry_interval_s,
    history: extra.history ?? [],
    checks: extra.checks ?? [],
  };
}

export function toCheckDto(row: {
  id: number | string;
  status: 'up' | 'down';
  status_code: number | null;
  response_time: number | null;
  error: string | null;
  checked_at: Date | string;
}): CheckDto {
  return {
    id: Number(row.id),
    status: row.status,
    status_code: row.status_code,
    response_time: row.response_time,
    error: row.error,
    checked_at: new Date(row.checked_at).toISOString(),
  };
}
