import type { AgentContainerReport, AgentSensorReport } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { containerHealthColor, containerStateColor, deviceChartRows, sensorLevel, serviceStateColor, shownContainers } from './insight';

function container(overrides: Partial<AgentContainerReport>): AgentContainerReport {
  return {
    id: 'aaaaaaaaaaaa',
    name: 'web',
    image: 'nginx:1.27',
    state: 'running',
    health: 'healthy',
    cpu: 1,
    memory_used: 1024,
    memory_limit: 0,
    net_rx_rate: 0,
    net_tx_rate: 0,
    block_read_rate: 0,
    block_write_rate: 0,
    ...overrides,
  };
}

const containers = [
  container({ id: '1', name: 'api', image: 'vigil/api:2', cpu: 40, memory_used: 10 }),
  container({ id: '2', name: 'db', image: 'postgres:17', state: 'exited', health: 'none', cpu: 0, memory_used: 0 }),
  container({ id: '3', name: 'cache', image: 'redis:7', health: 'unhealthy', cpu: 5, memory_used: 300 }),
];

describe('shownContainers', () => {
  it.each([
    [{ by: 'state', descending: false }, ['db', 'api', 'cache']],
    [{ by: 'health', descending: false }, ['cache', 'db', 'api']],
    [{ by: 'cpu', descending: true }, ['api', 'cache', 'db']],
    [{ by: 'memory', descending: true }, ['cache', 'api', 'db']],
    [{ by: 'name', descending: false }, ['api', 'cache', 'db']],
    [{ by: 'image', descending: true }, ['api', 'cache', 'db']],
  ] as const)('orders by %o', (order, names) => {
    expect(shownContainers(containers, '', order).map((entry) => entry.name)).toEqual(names);
  });

  it('keeps the containers whose name, image or id contain the search, whatever the case', () => {
    expect(shownContainers(containers, ' POSTGRES ', { by: 'name', descending: false }).map((entry) => entry.name)).toEqual(['db']);
    expect(shownContainers(containers, '3', { by: 'name', descending: false }).map((entry) => entry.name)).toEqual(['cache']);
    expect(shownContainers(containers, 'nothing', { by: 'name', descending: false })).toEqual([]);
  });

  it('leaves the given list untouched', () => {
    shownContainers(containers, '', { by: 'cpu', descending: false });
    expect(containers.map((entry) => entry.name)).toEqual(['api', 'db', 'cache']);
  });
});

describe('badge colours', () => {
  it.each([
    ['running', 'green'],
    ['exited', 'red'],
    ['dead', 'red'],
    ['paused', 'yellow'],
    ['restarting', 'yellow'],
  ] as const)('shows a %s container in %s', (state, color) => expect(containerStateColor(state)).toBe(color));

  it.each([
    ['healthy', 'green'],
    ['unhealthy', 'red'],
    ['starting', 'yellow'],
    ['none', 'gray'],
  ] as const)('shows %s health in %s', (health, color) => expect(containerHealthColor(health)).toBe(color));

  it.each([
    ['active', 'green'],
    ['failed', 'red'],
    ['inactive', 'gray'],
    ['activating', 'gray'],
    ['unknown', 'gray'],
  ] as const)('shows an %s service in %s', (state, color) => expect(serviceStateColor(state)).toBe(color));
});

describe('sensorLevel', () => {
  it.each<[AgentSensorReport, string]>([
    [{ name: 'cpu', celsius: 100, high: 80, critical: 100 }, 'critical'],
    [{ name: 'cpu', celsius: 85, high: 80, critical: 100 }, 'high'],
    [{ name: 'cpu', celsius: 45, high: 80, critical: 100 }, 'normal'],
    [{ name: 'nvme', celsius: 90, critical: 85 }, 'critical'],
    [{ name: 'nvme', celsius: 70, high: 70 }, 'high'],
    [{ name: 'acpitz', celsius: 95 }, 'unknown'],
  ])('judges %o as %s', (sensor, level) => expect(sensorLevel(sensor)).toBe(level));
});

describe('deviceChartRows', () => {
  it('puts each point on the time axis and drops points without a readable time', () => {
    const rows = deviceChartRows([
      { time: '2025-03-04T12:00:00.000Z', read: 1, write: 2, busy: 3 },
      { time: 'not a time', read: 9 },
    ]);
    expect(rows).toEqual([{ time: '2025-03-04T12:00:00.000Z', at: Date.parse('2025-03-04T12:00:00.000Z'), read: 1, write: 2, busy: 3 }]);
  });
});
