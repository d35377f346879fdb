import type { EventMap } from '../events/event-map';
import type { NotificationEvent } from './templates';
import type { TargetSettings } from './rules';

type Stored = EventMap['agent.report_stored'];

/** A figure a threshold is judged on, and which sensor, disk or interface it came from (none for host-wide ones). */
export interface HostReading {
  value: number;
  item?: string;
}

interface ThresholdRule {
  flag: keyof TargetSettings;
  threshold: keyof TargetSettings;
  high: NotificationEvent;
  recovery: NotificationEvent;
  /** What `{{metric}}` says. */
  label: string;
  /** Null: the report does not carry the figure (an older agent, no sensors), so the streak is left as it is. */
  read(stored: Stored): HostReading | null;
}

/** The highest of a list's figures, with the item it belongs to; null for an absent or empty list. */
function highest<T>(items: readonly T[] | null | undefined, value: (item: T) => number, name: (item: T) => string): HostReading | null {
  let best: HostReading | null = null;
  for (const item of items ?? []) {
    const figure = value(item);
    if (!best || figure > best.value) best = { value: figure, item: name(item) };
  }
  return best;
}

/**
 * Load is judged per core, as a percent (load1 4 on 8 cores is 50 %), so one threshold fits every host; an agent that
 * never said how many cores it has is not judged on load rather than guessed at.
 */
export function loadPercent(load1: number | null, cores: number | null): number | null {
  if (load1 === null || !cores || cores < 1) return null;
  return (load1 / cores) * 100;
}

/** Every metric that alerts above a threshold for `ALERT_THRESHOLD_REPORTS` reports in a row, and where its figure comes from. */
export const THRESHOLD_RULES = {
  cpu: {
    flag: 'on_cpu_threshold',
    threshold: 'cpu_threshold',
    high: 'agent.cpu_high',
    recovery: 'agent.cpu_recovery',
    label: 'CPU',
    read: ({ point }) => ({ value: point.cpu }),
  },
  memory: {
    flag: 'on_memory_threshold',
    threshold: 'memory_threshold',
    high: 'agent.memory_high',
    recovery: 'agent.memory_recovery',
    label: 'memory',
    read: ({ point }) => (point.memory === null ? null : { value: point.memory }),
  },
  disk: {
    flag: 'on_disk_threshold',
    threshold: 'disk_threshold',
    high: 'agent.disk_high',
    recovery: 'agent.disk_recovery',
    label: 'disk',
    read: ({ point }) => (point.disk === null ? null : { value: point.disk }),
  },
  load: {
    flag: 'on_load_threshold',
    threshold: 'load_threshold',
    high: 'agent.load_high',
    recovery: 'agent.load_recovery',
    label: 'load',
    read: ({ agent, point }) => {
      const value = loadPercent(point.load1, agent.cpu_cores);
      return value === null ? null : { value };
    },
  },
  temperature: {
    flag: 'on_temperature_threshold',
    threshold: 'temperature_threshold',
    high: 'agent.temperature_high',
    recovery: 'agent.temperature_recovery',
    label: 'temperature',
    read: ({ insight }) =>
      highest(
        insight?.sensors,
        (s) => s.celsius,
        (s) => s.name,
      ),
  },
  diskIo: {
    flag: 'on_disk_io_threshold',
    threshold: 'disk_io_threshold',
    high: 'agent.disk_io_high',
    recovery: 'agent.disk_io_recovery',
    label: 'disk I/O',
    read: ({ insight }) =>
      highest(
        insight?.disk_io,
        (d) => d.busy,
        (d) => d.device,
      ),
  },
  bandwidth: {
    flag: 'on_bandwidth_threshold',
    threshold: 'bandwidth_threshold',
    high: 'agent.bandwidth_high',
    recovery: 'agent.bandwidth_recovery',
    label: 'bandwidth',
    // Either direction counts: a saturated uplink is news whichever way the traffic flows.
    read: ({ interfaces }) =>
      highest(
        interfaces,
        (i) => Math.max(i.rx_rate, i.tx_rate),
        (i) => i.name,
      ),
  },
} as const satisfies Record<string, ThresholdRule>;

export type ThresholdMetric = keyof typeof THRESHOLD_RULES;
export const THRESHOLD_METRICS = Object.keys(THRESHOLD_RULES) as ThresholdMetric[];
