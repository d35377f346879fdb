import { maskHeaders, maskUrl } from '../common/secret-values';
import { SECRET, type Masker, type Snapshot } from '../audit/audit-changes';
import { toMonitorDto } from './monitor.mapper';
import type { MonitorRow } from './monitor.types';

/** What a check leaves behind rather than what someone set: never an audited change. */
const OBSERVED = ['id', 'status', 'response_time', 'uptime', 'last_checked', 'created_at', 'history', 'checks', 'certificate', 'flapping'];

/** A monitor's settings with their real values, for the audit log to compare; `monitorMask` decides what is kept. */
export function monitorSnapshot(row: MonitorRow): Snapshot {
  const dto: Snapshot = {
    ...toMonitorDto(row),
    url: row.url,
    headers: row.headers ?? {},
    connection_string: (row.settings?.connectionString as string | undefined) ?? null,
  };
  for (const key of OBSERVED) delete dto[key];
  return dto;
}

/**
 * As reads mask them: credentials in the URL and connection string, credential headers' values. A body or a sent
 * message may carry a login and a push token is the monitor's credential: only their change is recorded.
 */
export const monitorMask: Masker = (field, value) => {
  if (field === 'body' || field === 'message' || field === 'push_token') return SECRET;
  if ((field === 'url' || field === 'connection_string') && typeof value === 'string') return maskUrl(value);
  if (field === 'headers' && value && typeof value === 'object') return maskHeaders(value as Record<string, string>);
  return value;
};
