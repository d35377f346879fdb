import {
  AGENT_LIMITS,
  CONTAINER_HEALTHS,
  CONTAINER_STATES,
  SERVICE_STATES,
  type AgentContainerReport,
  type AgentDiskIoReport,
  type AgentReport,
  type AgentSensorReport,
  type AgentServiceReport,
} from '@vigil/proto';
import { MessageError, num, text } from './agent-validation';

/** The protocol 2 parts of a report: what the host runs and how hot and busy it is. */
export type HostInsight = Pick<AgentReport, 'disk_io' | 'sensors' | 'containers' | 'services'>;

const RATE = AGENT_LIMITS.rateMaxKbs;
const BYTES = AGENT_LIMITS.bytesMax;

function oneOf<T extends string>(value: unknown, path: string, values: readonly T[]): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
    throw new MessageError(`${path} must be one of ${values.join(', ')}`);
  return value as T;
}

function diskIoOf(input: Record<string, unknown>, path: string): AgentDiskIoReport {
  return {
    device: text(input.device, `${path}.device`, { max: 64 })!,
    read_rate: num(input.read_rate, `${path}.read_rate`, 0, RATE)!,
    write_rate: num(input.write_rate, `${path}.write_rate`, 0, RATE)!,
    busy: num(input.busy, `${path}.busy`, 0, 100)!,
  };
}

function sensorOf(input: Record<string, unknown>, path: string): AgentSensorReport {
  const { celsiusMin: min, celsiusMax: max } = AGENT_LIMITS;
  const high = num(input.high, `${path}.high`, min, max, { required: false });
  const critical = num(input.critical, `${path}.critical`, min, max, { required: false });
  return {
    name: text(input.name, `${path}.name`, { max: 128 })!,
    celsius: num(input.celsius, `${path}.celsius`, min, max)!,
    ...(high === undefined ? {} : { high }),
    ...(critical === undefined ? {} : { critical }),
  };
}

function containerOf(input: Record<string, unknown>, path: string): AgentContainerReport {
  const max = AGENT_LIMITS.containerTextMax;
  const id = text(input.id, `${path}.id`, { max: 64 })!;
  if (!/^[0-9a-f]{12,64}$/.test(id)) throw new MessageError(`${path}.id must be the container's hex id`);
  const limit = num(input.memory_limit, `${path}.memory_limit`, 0, BYTES)!;
  return {
    id: id.slice(0, 12),
    name: text(input.name, `${path}.name`, { max })!,
    image: text(input.image, `${path}.image`, { max })!,
    state: oneOf(input.state, `${path}.state`, CONTAINER_STATES),
    health: oneOf(input.health, `${path}.health`, CONTAINER_HEALTHS),
    cpu: num(input.cpu, `${path}.cpu`, 0, 100)!,
    memory_used: num(input.memory_used, `${path}.memory_used`, 0, BYTES)!,
    memory_limit: limit,
    net_rx_rate: num(input.net_rx_rate, `${path}.net_rx_rate`, 0, RATE)!,
    net_tx_rate: num(input.net_tx_rate, `${path}.net_tx_rate`, 0, RATE)!,
    block_read_rate: num(input.block_read_rate, `${path}.block_read_rate`, 0, RATE)!,
    block_write_rate: num(input.block_write_rate, `${path}.block_write_rate`, 0, RATE)!,
  };
}

function serviceOf(input: Record<string, unknown>, path: string): AgentServiceReport {
  const sub = text(input.sub_state, `${path}.sub_state`, { required: false, max: 32 });
  return {
    name: text(input.name, `${path}.name`, { max: 128 })!,
    state: oneOf(input.state, `${path}.state`, SERVICE_STATES),
    ...(sub === undefined ? {} : { sub_state: sub }),
  };
}

/**
 * Items one by one: a bad container or sensor is left out and named in `refused`, the rest kept, so one odd item
 * never costs the host its report. A list longer than its bound keeps its first items and names the rest; a list
 * that is not a list is refused whole (named). Names repeated within a list keep their first item.
 */
function items<T>(
  value: unknown,
  path: string,
  max: number,
  parse: (item: Record<string, unknown>, path: string) => T,
  key: (item: T) => string,
  refused: string[],
): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    refused.push(`${path} must be a list`);
    return undefined;
  }
  if (value.length > max) refused.push(`${path} must have at most ${max} items: ${value.length - max} left out`);
  const kept: T[] = [];
  const seen = new Set<string>();
  value.slice(0, max).forEach((raw, i) => {
    try {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new MessageError(`${path}[${i}] must be an object`);
      const item = parse(raw as Record<string, unknown>, `${path}[${i}]`);
      if (seen.has(key(item))) throw new MessageError(`${path}[${i}] repeats ${key(item)}`);
      seen.add(key(item));
      kept.push(item);
    } catch (error) {
      if (!(error instanceof MessageError)) throw error;
      refused.push(error.message);
    }
  });
  return kept;
}

/** The protocol 2 fields of a report, checked item by item; what was refused is added to `refused`. */
export function insightOf(report: Record<string, unknown>, path: string, refused: string[]): HostInsight {
  const insight: HostInsight = {};
  const diskIo = items(report.disk_io, `${path}.disk_io`, AGENT_LIMITS.diskIoMax, diskIoOf, (d) => d.device, refused);
  if (diskIo) insight.disk_io = diskIo;
  const sensors = items(report.sensors, `${path}.sensors`, AGENT_LIMITS.sensorsMax, sensorOf, (s) => s.name, refused);
  if (sensors) insight.sensors = sensors;
  if (report.containers === null) insight.containers = null;
  else {
    const containers = items(report.containers, `${path}.containers`, AGENT_LIMITS.containersMax, containerOf, (c) => c.id, refused);
    if (containers) insight.containers = containers;
  }
  const services = items(report.services, `${path}.services`, AGENT_LIMITS.servicesMax, serviceOf, (s) => s.name, refused);
  if (services) insight.services = services;
  return insight;
}
