import type {
  AgentContainerReport,
  AgentDevicePoint,
  AgentSensorReport,
  ContainerHealth,
  ContainerState,
  ServiceState,
} from '@vigil/proto';

/** Columns the containers table sorts by. */
export type ContainerSort = 'name' | 'image' | 'state' | 'health' | 'cpu' | 'memory';
export interface ContainerOrder {
  by: ContainerSort;
  descending: boolean;
}

/** Troubled first when sorting by state or health, so an exited or unhealthy container tops the list. */
const STATE_RANK: Record<ContainerState, number> = { dead: 0, exited: 1, restarting: 2, removing: 3, paused: 4, created: 5, running: 6 };
const HEALTH_RANK: Record<ContainerHealth, number> = { unhealthy: 0, starting: 1, none: 2, healthy: 3 };

function compare(a: AgentContainerReport, b: AgentContainerReport, by: ContainerSort): number {
  switch (by) {
    case 'cpu':
      return a.cpu - b.cpu;
    case 'memory':
      return a.memory_used - b.memory_used;
    case 'state':
      return STATE_RANK[a.state] - STATE_RANK[b.state];
    case 'health':
      return HEALTH_RANK[a.health] - HEALTH_RANK[b.health];
    default:
      return a[by].localeCompare(b[by]);
  }
}

/** The containers whose name, image or id contain the search, in the chosen order (ties by name). */
export function shownContainers(containers: AgentContainerReport[], search: string, order: ContainerOrder): AgentContainerReport[] {
  const needle = search.trim().toLowerCase();
  const kept = needle
    ? containers.filter((entry) => [entry.name, entry.image, entry.id].some((text) => text.toLowerCase().includes(needle)))
    : [...containers];
  const sign = order.descending ? -1 : 1;
  return kept.sort((a, b) => sign * compare(a, b, order.by) || a.name.localeCompare(b.name));
}

export function containerStateColor(state: ContainerState): 'green' | 'yellow' | 'red' {
  if (state === 'running') return 'green';
  return state === 'exited' || state === 'dead' ? 'red' : 'yellow';
}

export function containerHealthColor(health: ContainerHealth): 'green' | 'yellow' | 'red' | 'gray' {
  return ({ healthy: 'green', starting: 'yellow', unhealthy: 'red', none: 'gray' } as const)[health];
}

/** Services: active green, failed red, anything else grey (issue 32). */
export function serviceStateColor(state: ServiceState): 'green' | 'red' | 'gray' {
  return state === 'active' ? 'green' : state === 'failed' ? 'red' : 'gray';
}

/** A sensor at or over the chip's critical mark is red, at or over its high mark orange; no marks, no judgement. */
export function sensorLevel({ celsius, high, critical }: AgentSensorReport): 'critical' | 'high' | 'normal' | 'unknown' {
  if (critical !== undefined && celsius >= critical) return 'critical';
  if (high !== undefined && celsius >= high) return 'high';
  return high === undefined && critical === undefined ? 'unknown' : 'normal';
}

export const SENSOR_COLORS = { critical: 'red', high: 'orange', normal: 'green', unknown: undefined } as const;

export function formatCelsius(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '-' : `${value.toFixed(1)} °C`;
}

/** A device's chart rows: epoch ms on the axis, absent figures kept absent so gaps show. */
export function deviceChartRows(points: AgentDevicePoint[]): Array<AgentDevicePoint & { at: number }> {
  return points.map((point) => ({ ...point, at: Date.parse(point.time) })).filter((row) => !Number.isNaN(row.at));
}
