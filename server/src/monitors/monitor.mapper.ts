import { isAddedType, MONITOR_TYPE_DEFAULTS as D, SERVER_LOCATION, typeSpec } from '@vigil/proto';
import type { CheckTarget } from './checkers/checker';
import {
  isSecretField,
  SECRET_MASK,
  type CertificateDto,
  type CheckDto,
  type HistoryPoint,
  type MonitorDto,
  type MonitorTypeReadFields,
} from '@vigil/proto';
import { maskHeaders, maskUrl } from '../common/secret-values';
import { daysRemaining } from './checkers/peer-certificate';
import type { MonitorRow, ScheduledMonitor, StoredCertificate } from './monitor.types';

/**
 * A monitor as every read and push shows it: credentials in the URL and the connection string, and the values of
 * credential headers (Authorization, Cookie, X-Api-Key…) masked. Saving the mask back keeps them
 * (MonitorsService.update).
 */
export function toMonitorDto(
  row: MonitorRow,
  extra: { history?: HistoryPoint[]; checks?: CheckDto[]; uptime?: { up: number; checks: number }; members?: number } = {},
): MonitorDto {
  return {
    id: row.id,
    name: row.name,
    url: readUrl(row),
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
    parent_id: row.parent_id ?? null,
    group_rule: row.group_rule ?? null,
    group_min: row.group_min ?? null,
    depends_on: row.depends_on ?? [],
    degraded_after_ms: row.degraded_after_ms ?? null,
    flapping: row.flapping ?? false,
    muted_until: row.muted_until ? new Date(row.muted_until).toISOString() : null,
    locations: row.locations ?? [SERVER_LOCATION],
    quorum: row.quorum ?? 'any',
    quorum_min: row.quorum_min ?? null,
    host_agent_id: row.host_agent_id ?? null,
    ...(row.type === 'group' ? { member_count: extra.members ?? 0 } : {}),
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
    settings: maskedSettings(row),
  };
}

/**
 * The stored `url` as reads show it: a URL the monitor is saved with keeps its credentials masked; an added type's
 * readable target (`mqtt://broker:1883 sensors/#`) is no URL and holds no secret (those live in `settings`).
 */
function readUrl(row: Pick<MonitorRow, 'type' | 'url'>): string {
  const type = row.type ?? 'http';
  const saved = !isAddedType(type) || typeSpec(type).fields.some((field) => field.column === 'url');
  return saved ? maskUrl(row.url) : row.url;
}

/** An added type's settings with its secret fields masked (a read never carries a stored secret). */
export function maskedSettings(row: Pick<MonitorRow, 'type' | 'settings'>): Record<string, unknown> {
  const settings = row.settings ?? {};
  if (!isAddedType(row.type ?? 'http')) return {};
  const secrets = typeSpec(row.type)
    .fields.filter(isSecretField)
    .map((field) => field.name);
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, secrets.includes(name) && value ? SECRET_MASK : value]));
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
  status: CheckDto['status'];
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

/** Uptime percent for display: clamped to 0–100, two decimals; 100 when nothing was checked yet. */
export function uptimePercent(up: number, checks: number): number {
  if (checks <= 0) return 100;
  const percent = (up / checks) * 100;
  return Math.round(Math.min(100, Math.max(0, percent)) * 100) / 100;
}

/** The stored settings a check reads. */
export type TargetRow = Pick<
  MonitorRow,
  | 'id'
  | 'type'
  | 'url'
  | 'method'
  | 'headers'
  | 'body'
  | 'timeout_s'
  | 'expected_status'
  | 'interval_s'
  | 'retry_interval_s'
  | 'hostname'
  | 'port'
  | 'packet_count'
  | 'dns_record_type'
  | 'dns_server'
  | 'message'
  | 'grpc_service'
  | 'tls'
  | 'connection_string'
  | 'query'
  | 'ignore_tls'
  | 'max_redirects'
  | 'assertions'
  | 'outbound_scope'
  | 'settings'
>;

/** What the checker of the monitor's type is given: its settings only, with the type's defaults filled in. */
export function toCheckTarget(row: TargetRow): CheckTarget {
  const base = { id: row.id, timeout: row.timeout_s, assertions: row.assertions ?? [], scope: row.outbound_scope };
  const hostname = row.hostname ?? '';
  switch (row.type) {
    case 'http':
      return {
        ...base,
        type: 'http',
        url: row.url,
        method: row.method,
        headers: row.headers ?? {},
        body: row.body,
        expectedStatus: row.expected_status,
        ignoreTls: row.ignore_tls,
        maxRedirects: row.max_redirects ?? D.maxRedirects,
      };
    case 'tcp':
      return { ...base, type: 'tcp', hostname, port: row.port ?? 0 };
    case 'ping':
      return { ...base, type: 'ping', hostname, packetCount: row.packet_count ?? D.packetCount };
    case 'dns':
      return { ...base, type: 'dns', hostname, dnsRecordType: row.dns_record_type ?? D.dnsRecordType, dnsServer: row.dns_server };
    case 'tls':
      return { ...base, type: 'tls', hostname, port: row.port ?? D.tlsPort, ignoreTls: row.ignore_tls };
    case 'push':
      return { ...base, type: 'push', interval: row.interval_s, retryInterval: row.retry_interval_s };
    case 'websocket':
      return { ...base, type: 'websocket', url: row.url, message: row.message, ignoreTls: row.ignore_tls };
    case 'grpc':
      return {
        ...base,
        type: 'grpc',
        hostname,
        port: row.port ?? 0,
        grpcService: row.grpc_service ?? '',
        tls: row.tls ?? false,
        ignoreTls: row.ignore_tls,
      };
    case 'postgres':
      return { ...base, type: 'postgres', connectionString: row.connection_string ?? '', query: row.query };
    case 'mysql':
      return { ...base, type: 'mysql', connectionString: row.connection_string ?? '', query: row.query };
    case 'redis':
      return { ...base, type: 'redis', connectionString: row.connection_string ?? '', query: row.query };
    case 'group':
      return { ...base, type: 'group' };
    default:
      return { ...base, type: row.type, hostname, port: row.port, url: row.url, settings: row.settings ?? {} };
  }
}

/** A monitor as the schedulers hold it: its check target and rhythm. */
export function toScheduled(row: MonitorRow): ScheduledMonitor {
  return {
    ...toCheckTarget(row),
    interval: row.interval_s,
    retryInterval: row.retry_interval_s,
    nextCheckAt: row.next_check_at,
    status: row.status,
    locations: row.locations ?? [SERVER_LOCATION],
    quorum: row.quorum ?? 'any',
    quorumMin: row.quorum_min ?? null,
  };
}
