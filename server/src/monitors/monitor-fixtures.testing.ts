import type { Assertion, LocationId, QuorumRule } from '@vigil/proto';
import type { MonitorRow } from './monitor.types';
import type { MonitorFields } from './monitors.repository';

/** The per-type columns of an http monitor as the migration leaves an existing one, for row fixtures. */
export const HTTP_TYPE_COLUMNS: Pick<
  MonitorRow,
  | 'type'
  | 'hostname'
  | 'port'
  | 'cert_expiry_days'
  | 'assertions'
  | 'push_token'
  | 'push_awaited_since'
  | 'outbound_scope'
  | 'certificate'
  | 'parent_id'
  | 'depends_on'
  | 'degraded_after_ms'
  | 'flapping'
  | 'recent_changes'
  | 'settings'
  | 'locations'
  | 'quorum'
  | 'quorum_min'
  | 'host_agent_id'
  | 'description'
  | 'tags'
  | 'upside_down'
> = {
  type: 'http',
  hostname: null,
  port: null,
  cert_expiry_days: [14],
  assertions: [],
  push_token: null,
  push_awaited_since: null,
  outbound_scope: 'admin',
  certificate: null,
  parent_id: null,
  depends_on: [],
  degraded_after_ms: null,
  flapping: false,
  recent_changes: [],
  settings: { ignoreTls: false, maxRedirects: 5 },
  locations: ['server'],
  quorum: 'any',
  quorum_min: null,
  host_agent_id: null,
  description: null,
  tags: [],
  upside_down: false,
};

/** A stored http monitor, up, with the given columns changed. */
export function monitorRow(overrides: Partial<MonitorRow> = {}): MonitorRow {
  return {
    ...HTTP_TYPE_COLUMNS,
    id: 1,
    key: 'api',
    name: 'api',
    url: 'https://api.example.com/health',
    method: 'GET',
    interval_s: 60,
    timeout_s: 30,
    expected_status: 200,
    headers: {},
    body: null,
    active: true,
    retries: 1,
    retry_interval_s: 20,
    status: 'up',
    consecutive_failures: 0,
    response_time: null,
    last_checked: null,
    next_check_at: null,
    created_at: new Date(0),
    ...overrides,
  };
}

/** What an http check target has beyond the fields of before issue 16. */
export const HTTP_TARGET_EXTRAS: {
  type: 'http';
  ignoreTls: boolean;
  maxRedirects: number;
  assertions: Assertion[];
  scope: 'admin';
  locations: LocationId[];
  quorum: QuorumRule;
  quorumMin: null;
} = {
  type: 'http',
  ignoreTls: false,
  maxRedirects: 5,
  locations: ['server'],
  quorum: 'any',
  quorumMin: null,
  scope: 'admin',
  assertions: [],
};

/** The per-type fields of an http monitor with the defaults, for MonitorFields fixtures. */
export const HTTP_TYPE_FIELDS: Omit<
  MonitorFields,
  'name' | 'url' | 'method' | 'interval' | 'timeout' | 'expectedStatus' | 'headers' | 'body' | 'active' | 'retries' | 'retryInterval'
> = {
  type: 'http',
  hostname: null,
  port: null,
  certExpiryDays: [14],
  assertions: [],
  pushToken: null,
  pushAwaitedSince: null,
  outboundScope: 'admin',
  parentId: null,
  dependsOn: [],
  degradedAfterMs: null,
  settings: { ignoreTls: false, maxRedirects: 5 },
  locations: ['server'],
  quorum: 'any',
  quorumMin: null,
  hostAgentId: null,
  description: null,
  tags: [],
  upsideDown: false,
};

/** A whole http monitor's fields pointed at a closed loopback port, for repository specs on a real database. */
export function httpMonitorFields(overrides: Partial<MonitorFields> = {}): MonitorFields {
  return {
    ...HTTP_TYPE_FIELDS,
    name: 'site',
    url: 'http://127.0.0.1:9/',
    method: 'GET',
    interval: 60,
    timeout: 10,
    expectedStatus: 2,
    headers: {},
    body: null,
    active: true,
    retries: 0,
    retryInterval: 20,
    ...overrides,
  };
}
