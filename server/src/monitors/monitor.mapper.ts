import { isAddedType, MONITOR_TYPES, readName, SERVER_LOCATION, settingsFields, typeSpec } from '@vigil/proto';
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
import { toCheckTarget } from './types/targets';
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
    key: row.key,
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
    depends_on: row.depends_on ?? [],
    degraded_after_ms: row.degraded_after_ms ?? null,
    flapping: row.flapping ?? false,
    muted_until: row.muted_until ? new Date(row.muted_until).toISOString() : null,
    locations: row.locations ?? [SERVER_LOCATION],
    quorum: row.quorum ?? 'any',
    quorum_min: row.quorum_min ?? null,
    host_agent_id: row.host_agent_id ?? null,
    description: row.description ?? null,
    tags: row.tags ?? [],
    upside_down: row.upside_down ?? false,
    ...(row.type === 'group' ? { member_count: extra.members ?? 0 } : {}),
    ...typeReadFields(row),
  };
}

/** The type's settings as reads show them; null where the type has none. */
function typeReadFields(row: MonitorRow): MonitorTypeReadFields & Pick<MonitorDto, 'group_rule' | 'group_min'> {
  return {
    type: row.type ?? 'http',
    hostname: row.hostname ?? null,
    port: row.port ?? null,
    ...(OWN_READS_ABSENT as OwnReads),
    ...ownReads(row),
    push_token: row.push_token ?? null,
    cert_expiry_days: row.cert_expiry_days ?? [],
    assertions: row.assertions ?? [],
    certificate: row.certificate ? certificateDto(row.certificate) : null,
    settings: maskedSettings(row),
  };
}

/** The first types' `own` fields as reads name them. */
type OwnReads = Omit<
  MonitorTypeReadFields,
  'type' | 'hostname' | 'port' | 'push_token' | 'cert_expiry_days' | 'assertions' | 'certificate' | 'settings'
> &
  Pick<MonitorDto, 'group_rule' | 'group_min'>;

/** Every first type's `own` field as reads name it, with what a monitor of another type reads for it (null, or false). */
const OWN_READS_ABSENT: Record<string, unknown> = Object.fromEntries(
  MONITOR_TYPES.flatMap((type) => typeSpec(type).fields)
    .filter((field) => field.column === 'own')
    .map((field) => [readName(field.name), field.whenAbsent ?? null]),
);

/** Per type, read once from its spec (reads run for every stored check): its `own` fields and its `settings` fields. */
const READ_FIELDS = new Map(
  MONITOR_TYPES.map((type) => {
    const fields = typeSpec(type).fields;
    const own = fields.filter((field) => field.column === 'own');
    return [
      type,
      {
        own: own.map((field) => ({
          name: field.name,
          read: readName(field.name),
          secret: isSecretField(field),
          absent: field.whenAbsent ?? null,
        })),
        settings: settingsFields(typeSpec(type)).map((field) => ({ name: field.name, secret: isSecretField(field) })),
      },
    ];
  }),
);

/**
 * A first type's own settings at the top level under their read names, from its spec (`packetCount` →
 * `packet_count`); a secret (the connection string) masked as a URL, its server still readable.
 */
function ownReads(row: Pick<MonitorRow, 'type' | 'settings'>): Record<string, unknown> {
  const settings = row.settings ?? {};
  const reads: Record<string, unknown> = {};
  for (const field of READ_FIELDS.get(row.type ?? 'http')?.own ?? []) {
    const value = settings[field.name] ?? field.absent;
    reads[field.read] = field.secret && typeof value === 'string' ? maskUrl(value) : value;
  }
  return reads;
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

/** An added type's settings with its secret fields masked (a read never carries a stored secret); `{}` for the first types. */
export function maskedSettings(row: Pick<MonitorRow, 'type' | 'settings'>): Record<string, unknown> {
  const stored = row.settings ?? {};
  const settings: Record<string, unknown> = {};
  for (const field of READ_FIELDS.get(row.type ?? 'http')?.settings ?? []) {
    const value = stored[field.name];
    if (value !== undefined) settings[field.name] = field.secret && value ? SECRET_MASK : value;
  }
  return settings;
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

/** What the checker of the monitor's type is given, built in the type's folder (types/targets.ts). */
export { toCheckTarget };

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
