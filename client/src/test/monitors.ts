import type { CheckDto, MonitorDto, MonitorsResponse } from '@vigil/proto';

/** A complete monitor as the API reads it, with overrides. */
export function makeMonitor(overrides: Partial<MonitorDto> = {}): MonitorDto {
  const id = overrides.id ?? 1;
  return {
    id,
    key: `monitor-${id}`,
    name: `Monitor ${id}`,
    url: `https://example.com/${id}`,
    method: 'GET',
    interval: 60,
    timeout: 30,
    expected_status: 200,
    headers: {},
    body: null,
    active: true,
    status: 'up',
    response_time: 120,
    uptime: 99.5,
    last_checked: '2025-03-01T10:00:00.000Z',
    created_at: '2025-02-01T08:00:00.000Z',
    retries: 1,
    retry_interval: 20,
    history: [],
    checks: [],
    type: 'http',
    hostname: null,
    port: null,
    packet_count: null,
    dns_record_type: null,
    dns_server: null,
    push_token: null,
    message: null,
    grpc_service: null,
    tls: null,
    connection_string: null,
    query: null,
    ignore_tls: false,
    max_redirects: 5,
    cert_expiry_days: [14],
    assertions: [],
    certificate: null,
    settings: {},
    depends_on: [],
    parent_id: null,
    degraded_after_ms: null,
    group_rule: null,
    group_min: null,
    flapping: false,
    muted_until: null,
    locations: ['server'],
    quorum: 'any',
    quorum_min: null,
    host_agent_id: null,
    description: null,
    tags: [],
    upside_down: false,
    ...overrides,
  };
}

export function makeCheck(overrides: Partial<CheckDto> = {}): CheckDto {
  return {
    id: 1,
    status: 'up',
    status_code: 200,
    response_time: 100,
    error: null,
    checked_at: '2025-03-01T10:01:00.000Z',
    ...overrides,
  };
}

/** A `GET /api/monitors` answer whose counts follow the monitors given. */
export function monitorsPage(monitors: MonitorDto[], extra: Partial<MonitorsResponse> = {}): MonitorsResponse {
  const counts = { up: 0, down: 0, pending: 0, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: monitors.length };
  for (const monitor of monitors) counts[monitor.active ? monitor.status : 'paused'] += 1;
  return { success: true, monitors, total: monitors.length, page: 1, pageSize: 50, counts, ...extra };
}
