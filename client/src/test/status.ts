import type { DashboardResponse, PublicAgent, StatusChange, StatusData, WallData, WallMonitor } from '@vigil/proto';

/** A monitor as the public status page and the wall read it (the wall's location counts, when overridden), with overrides. */
export function makePublicMonitor(overrides: Partial<WallMonitor> = {}): WallMonitor {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Service ${id}`,
    status: 'up',
    uptime: 99.9,
    response_time: 87,
    history: [],
    last_checked: '2025-03-01T10:00:00.000Z',
    active: true,
    ...overrides,
  };
}

export function makePublicAgent(overrides: Partial<PublicAgent> = {}): PublicAgent {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Server ${id}`,
    status: 'active',
    hostname: `host-${id}`,
    ip_address: `10.0.0.${id}`,
    os: 'Debian GNU/Linux 12',
    cpu: 12.3,
    memory: 55.5,
    disk: 80,
    updated_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeStatusData(overrides: Partial<StatusData> = {}): StatusData {
  return {
    title: 'Acme status',
    description: 'Live state of Acme services',
    logoUrl: null,
    customCss: null,
    showResources: true,
    overall: 'operational',
    monitors: [makePublicMonitor({ id: 1 }), makePublicMonitor({ id: 2 })],
    agents: [makePublicAgent({ id: 1 })],
    updated_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeChange(overrides: Partial<StatusChange> = {}): StatusChange {
  return { kind: 'monitor', id: 1, name: 'Service 1', previous: 'up', status: 'down', at: '2025-03-01T10:05:00.000Z', ...overrides };
}

export function makeWallData(overrides: Partial<WallData> = {}): WallData {
  return {
    overall: 'operational',
    monitors: [makePublicMonitor({ id: 1, name: 'alpha' }), makePublicMonitor({ id: 2, name: 'beta' })],
    agents: [makePublicAgent({ id: 1, name: 'gamma' })],
    recent_changes: [],
    updated_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeDashboardSummary(overrides: Partial<DashboardResponse['dashboard']> = {}): DashboardResponse['dashboard'] {
  return {
    monitors: { up: 8, down: 2, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 1, total: 12 },
    agents: { active: 3, inactive: 1, connecting: 0, unreachable: 0, maintenance: 0, total: 4 },
    uptime: 99.25,
    avg_response_time: 143,
    recent_changes: [makeChange({ id: 7, name: 'api', at: '2025-03-01T09:00:00.000Z' })],
    ...overrides,
  };
}
