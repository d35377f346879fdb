import type { Assertion, DependencyRef, HttpMethod, LocationId, MonitorType, QuorumRule } from '@vigil/proto';
import type { OutboundScope } from '../common/outbound';
import type { PeerCertificate } from './checkers/checker';
import type { MonitorRow, StoredCertificate } from './monitor.types';
import type { ResultInput } from './monitors.repository';

/** The settings a monitor is stored with (created or edited), by field. */
export interface MonitorFields {
  /** Absent on insert: a trigger makes it from the name (migration ConfigKeys). */
  key?: string;
  name: string;
  url: string;
  method: HttpMethod;
  interval: number;
  timeout: number;
  expectedStatus: number;
  headers: Record<string, string>;
  body: string | null;
  active: boolean;
  retries: number;
  retryInterval: number;
  type: MonitorType;
  hostname: string | null;
  port: number | null;
  certExpiryDays: number[];
  assertions: Assertion[];
  pushToken: string | null;
  pushAwaitedSince: Date | null;
  /** Whose outbound rules its checks follow: the role of whoever saved it last. */
  outboundScope: OutboundScope;
  parentId: number | null;
  dependsOn: DependencyRef[];
  degradedAfterMs: number | null;
  /** The type's own settings (its spec's fields without a shared column), by field name. */
  settings: Record<string, unknown>;
  /** Where it is checked from, and how those locations make its verdict (probes). */
  locations: LocationId[];
  quorum: QuorumRule;
  quorumMin: number | null;
  /** The agent of the host it runs on (its down alert tells that host's state). */
  hostAgentId: number | null;
  description: string | null;
  /** Normalised (normalizeTag), no duplicates. */
  tags: string[];
  /** Each check's verdict inverted (monitor-state.ts, `oriented`). */
  upsideDown: boolean;
}

export const COLUMNS = `id, key, name, url, method, interval_s, timeout_s, expected_status, headers, body, active, retries,
  retry_interval_s, status, consecutive_failures, response_time, last_checked, next_check_at, created_at, type, hostname,
  port, cert_expiry_days, assertions, push_token, push_awaited_since, certificate, outbound_scope, parent_id, depends_on, degraded_after_ms, flapping, recent_changes, muted_until, settings, locations, quorum,
  quorum_min, host_agent_id, description, tags, upside_down`;

export const FIELD_COLUMNS: Record<keyof MonitorFields, string> = {
  key: 'key',
  name: 'name',
  url: 'url',
  method: 'method',
  interval: 'interval_s',
  timeout: 'timeout_s',
  expectedStatus: 'expected_status',
  headers: 'headers',
  body: 'body',
  active: 'active',
  retries: 'retries',
  retryInterval: 'retry_interval_s',
  type: 'type',
  hostname: 'hostname',
  port: 'port',
  certExpiryDays: 'cert_expiry_days',
  assertions: 'assertions',
  pushToken: 'push_token',
  pushAwaitedSince: 'push_awaited_since',
  outboundScope: 'outbound_scope',
  parentId: 'parent_id',
  dependsOn: 'depends_on',
  degradedAfterMs: 'degraded_after_ms',
  settings: 'settings',
  locations: 'locations',
  quorum: 'quorum',
  quorumMin: 'quorum_min',
  hostAgentId: 'host_agent_id',
  description: 'description',
  tags: 'tags',
  upsideDown: 'upside_down',
};

/** Fields stored as jsonb: sent as JSON text. */
const JSON_FIELDS: ReadonlySet<keyof MonitorFields> = new Set(['headers', 'certExpiryDays', 'assertions', 'dependsOn', 'settings']);
export const toParam = (key: keyof MonitorFields, value: unknown) => (JSON_FIELDS.has(key) ? JSON.stringify(value) : value);

/** The columns a monitor's fields are stored in. */
type FieldsRow = Omit<
  MonitorRow,
  | 'id'
  | 'status'
  | 'consecutive_failures'
  | 'response_time'
  | 'last_checked'
  | 'next_check_at'
  | 'created_at'
  | 'certificate'
  | 'flapping'
  | 'recent_changes'
>;

/**
 * The row a set of fields would make (for a check of a monitor that is not stored: `POST /api/monitors/test`), or the
 * columns an edit changes (fields left undefined are left out, so they can be laid over the stored row).
 */
export function fieldsAsRow(fields: MonitorFields): FieldsRow;
export function fieldsAsRow(fields: Partial<MonitorFields>): Partial<FieldsRow>;
export function fieldsAsRow(fields: Partial<MonitorFields>): Partial<FieldsRow> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [FIELD_COLUMNS[key as keyof MonitorFields], value]),
  );
}

/**
 * Push monitors' "no push" verdicts that hold: no push within `silentFor` seconds before the verdict's time. The wait
 * starts at the stored `push_awaited_since` (moved by every push and resume; the rows are locked) or at a push in this
 * batch, whatever its order; a monitor that is no longer a push monitor has no wait, and its verdict is left out too.
 */
export function withoutStaleVerdicts(inputs: ResultInput[], rows: Map<number, MonitorRow>): ResultInput[] {
  const waitStart = new Map<number, number>();
  for (const row of rows.values()) {
    if (row.type === 'push' && row.push_awaited_since) waitStart.set(row.id, new Date(row.push_awaited_since).getTime());
  }
  for (const input of inputs) {
    if (input.pushed) waitStart.set(input.monitorId, Math.max(waitStart.get(input.monitorId) ?? 0, input.checkedAt.getTime()));
  }
  return inputs.filter((input) => {
    if (input.silentFor === undefined) return true;
    const since = waitStart.get(input.monitorId);
    return since !== undefined && input.checkedAt.getTime() - since > input.silentFor * 1000;
  });
}

/** What a batch's results saw beyond the state machine, per monitor: the newest peer certificate, the latest push. */
export interface SeenByType {
  certificates: Map<number, StoredCertificate>;
  pushes: Map<number, Date>;
}

export function seenByType(inputs: ResultInput[]): SeenByType {
  const certificates = new Map<number, StoredCertificate>();
  const certificateAt = new Map<number, Date>();
  const pushes = new Map<number, Date>();
  for (const { certificate, monitorId, checkedAt, pushed } of inputs) {
    if (certificate && (certificateAt.get(monitorId) ?? 0) <= checkedAt) {
      certificates.set(monitorId, storedCertificate(certificate));
      certificateAt.set(monitorId, checkedAt);
    }
    if (pushed && (pushes.get(monitorId) ?? 0) < checkedAt) pushes.set(monitorId, checkedAt);
  }
  return { certificates, pushes };
}

export const certificateText = (stored: StoredCertificate | undefined): string | null => (stored ? JSON.stringify(stored) : null);

function storedCertificate(certificate: PeerCertificate): StoredCertificate {
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    expires_at: certificate.expiresAt.toISOString(),
    fingerprint: certificate.fingerprint,
  };
}
