import type { CertificateDto, CheckDto, HistoryPoint, MonitorDto, MonitorTypeReadFields } from '@vigil/proto';
import { maskHeaders, maskUrl } from '../common/secret-values';
import { uptimePercent } from './check-rules';
import { daysRemaining } from './checkers/peer-certificate';
import type { MonitorRow, StoredCertificate } from './monitor.types';

/**
 * A monitor as every read and push shows it: credentials in the URL and the connection string, and the values of
 * credential headers (Authorization, Cookie, X-Api-Key…) masked. Saving the mask back keeps them
 * (MonitorsService.update).
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
    ...typeReadFields(row),
  };
}

/** The type's settings as reads show them; null where the type has none. */
function typeReadFields(row: MonitorRow): MonitorTypeReadFields {
  return {
    type: row.type ?? 'http',
    hostname: row.hostname ?? null,
    port: row.port ?? null,
    packet_count: row.packet_count ?? null,
    dns_record_type: row.dns_record_type ?? null,
    dns_server: row.dns_server ?? null,
    push_token: row.push_token ?? null,
    message: row.message ?? null,
    grpc_service: row.grpc_service ?? null,
    tls: row.tls ?? null,
    connection_string: row.connection_string ? maskUrl(row.connection_string) : null,
    query: row.query ?? null,
    ignore_tls: row.ignore_tls ?? false,
    max_redirects: (row.type ?? 'http') === 'http' ? (row.max_redirects ?? null) : null,
    cert_expiry_days: row.cert_expiry_days ?? [],
    assertions: row.assertions ?? [],
    certificate: row.certificate ? certificateDto(row.certificate) : null,
  };
}

function certificateDto(stored: StoredCertificate, now = new Date()): CertificateDto {
  return {
    subject: stored.subject,
    issuer: stored.issuer,
    expires_at: stored.expires_at,
    days_remaining: daysRemaining(new Date(stored.expires_at), now),
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
