import { AGENT_LIMITS, AgentHello, AgentReport } from '@vigil/proto';
import { Checked, checkDiskSum, list, MessageError, num, text } from './agent-validation';
import { CounterSample, CounterState, ratesFromCounters } from './figures';

/**
 * xugou's Go agent reports over HTTP: `POST /api/agents/register` once, then `POST /api/agents/status` with one
 * system-info object (or an array of buffered ones). Its network figures are cumulative counters, so rates come
 * from the previous sample this server kept for the agent.
 */

export interface XugouRegistration {
  token: string;
  name: string | undefined;
  hostname: string;
  ip_addresses: string[];
  os: string | undefined;
  version: string | undefined;
}

export interface XugouStatus {
  token: string;
  hello: AgentHello;
  /** Interval the agent reports at (its `report_interval_seconds` or `keepalive`), seconds. */
  interval: number | undefined;
  timestamp: number;
  cpu: number;
  memory_total: number;
  memory_used: number;
  load: [number, number, number] | undefined;
  disks: AgentReport['disks'];
  counters: Record<string, CounterSample>;
}

const MAX_BYTES = AGENT_LIMITS.bytesMax;

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MessageError(`${path} must be an object`);
  return value as Record<string, unknown>;
}

function attempt<T>(run: () => T): Checked<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof MessageError) return { ok: false, error: error.message };
    throw error;
  }
}

function addresses(value: unknown, path: string): string[] {
  return list(value ?? [], path, AGENT_LIMITS.ipAddressesMax).map((ip, i) => text(ip, `${path}[${i}]`, { max: 64 })!);
}

export function checkXugouRegistration(input: unknown): Checked<XugouRegistration> {
  return attempt(() => {
    const body = object(input, 'body');
    return {
      token: text(body.token, 'token', { max: 512 })!,
      name: text(body.name, 'name', { required: false, max: 100 }),
      hostname: text(body.hostname, 'hostname')!,
      ip_addresses: addresses(body.ip_addresses, 'ip_addresses'),
      os: text(body.os, 'os', { required: false }),
      version: text(body.version, 'version', { required: false }),
    };
  });
}

/** One object or an array of them, at most `AGENT_LIMITS.backlogMax`. */
export function checkXugouStatus(input: unknown, now = Date.now()): Checked<XugouStatus[]> {
  return attempt(() => {
    const items = Array.isArray(input) ? list(input, 'body', AGENT_LIMITS.backlogMax) : [input];
    if (!items.length) throw new MessageError('body must hold at least one status');
    return items.map((item, i) => statusOf(item, Array.isArray(input) ? `[${i}]` : 'body', now));
  });
}

function statusOf(input: unknown, path: string, now: number): XugouStatus {
  const body = object(input, path);
  const cpu = object(body.cpu ?? {}, `${path}.cpu`);
  const memory = object(body.memory ?? {}, `${path}.memory`);
  const timestamp = timestampOf(body.timestamp, `${path}.timestamp`, now);
  const memoryTotal = num(memory.total, `${path}.memory.total`, 1, MAX_BYTES)!;
  const disks = list(body.disks ?? [], `${path}.disks`, AGENT_LIMITS.disksMax).map((item, i) => {
    const disk = object(item, `${path}.disks[${i}]`);
    const total = num(disk.total, `${path}.disks[${i}].total`, 0, MAX_BYTES)!;
    return {
      mount: text(disk.mount_point, `${path}.disks[${i}].mount_point`)!,
      fs: text(disk.fs_type, `${path}.disks[${i}].fs_type`, { required: false, max: 64 }) ?? '',
      total,
      used: num(disk.used, `${path}.disks[${i}].used`, 0, total)!,
    };
  });
  checkDiskSum(disks, `${path}.disks`);
  const counters: Record<string, CounterSample> = {};
  list(body.network ?? [], `${path}.network`, AGENT_LIMITS.interfacesMax).forEach((item, i) => {
    const nic = object(item, `${path}.network[${i}]`);
    const name = text(nic.interface, `${path}.network[${i}].interface`, { max: 64 })!;
    counters[name] = {
      rx: num(nic.bytes_recv, `${path}.network[${i}].bytes_recv`, 0, MAX_BYTES)!,
      tx: num(nic.bytes_sent, `${path}.network[${i}].bytes_sent`, 0, MAX_BYTES)!,
    };
  });
  let load: [number, number, number] | undefined;
  if (body.load !== undefined && body.load !== null) {
    const l = object(body.load, `${path}.load`);
    load = [
      num(l.load1, `${path}.load.load1`, 0, 1_000_000)!,
      num(l.load5, `${path}.load.load5`, 0, 1_000_000)!,
      num(l.load15, `${path}.load.load15`, 0, 1_000_000)!,
    ];
  }
  const interval =
    num(body.report_interval_seconds, `${path}.report_interval_seconds`, 0, AGENT_LIMITS.intervalMax, { required: false, integer: true }) ||
    num(body.keepalive, `${path}.keepalive`, 0, AGENT_LIMITS.intervalMax, { required: false, integer: true }) ||
    undefined;
  const hostname = text(body.hostname, `${path}.hostname`)!;
  // xugou's `os` is the family (linux), `platform` the distribution (debian) and `version` its release.
  const family = text(body.os, `${path}.os`, { required: false });
  const distribution = text(body.platform, `${path}.platform`, { required: false });
  const release = text(body.version, `${path}.version`, { required: false, max: 64 });
  return {
    token: text(body.token, `${path}.token`, { max: 512 })!,
    hello: {
      hostname,
      ip_addresses: addresses(body.ip_addresses, `${path}.ip_addresses`),
      os: distribution ? [distribution, release].filter(Boolean).join(' ') : (family ?? 'unknown'),
      platform: family ?? 'unknown',
      cpu_model: text(cpu.model_name, `${path}.cpu.model_name`, { required: false }),
      cpu_cores: num(cpu.cores, `${path}.cpu.cores`, 0, 65_536, { required: false, integer: true }) || undefined,
      agent_version: release ?? 'xugou',
    },
    interval: interval === undefined ? undefined : Math.max(AGENT_LIMITS.intervalMin, interval),
    timestamp,
    cpu: num(cpu.usage, `${path}.cpu.usage`, 0, 100)!,
    memory_total: memoryTotal,
    memory_used: num(memory.used, `${path}.memory.used`, 0, memoryTotal)!,
    load,
    disks,
    counters,
  };
}

/** Go marshals `time.Time` as RFC 3339; an agent that sent none reported now. */
function timestampOf(value: unknown, path: string, now: number): number {
  if (value === undefined || value === null || value === '') return now;
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) throw new MessageError(`${path} must be an RFC 3339 time`);
  if (at < now - AGENT_LIMITS.reportMaxAgeMs || at > now + AGENT_LIMITS.reportMaxSkewMs) {
    throw new MessageError(`${path} is too far from the server's clock`);
  }
  return at;
}

/**
 * Turns a time-ordered run of xugou statuses into reports, each one's rates measured against the sample before it
 * (the kept one for the first). Returns the counter state to keep.
 */
export function xugouReports(statuses: XugouStatus[], kept: CounterState | null): { reports: AgentReport[]; state: CounterState | null } {
  let state = kept;
  const reports = [...statuses]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((status) => {
      const { rates, state: next } = ratesFromCounters(state, status.timestamp, status.counters);
      state = next;
      return {
        timestamp: status.timestamp,
        cpu: status.cpu,
        load: status.load,
        memory_total: status.memory_total,
        memory_used: status.memory_used,
        disks: status.disks,
        interfaces: Object.entries(status.counters).map(([name, c]) => ({
          name,
          rx_rate: rates[name].rx,
          tx_rate: rates[name].tx,
          rx_bytes: c.rx,
          tx_bytes: c.tx,
        })),
      } satisfies AgentReport;
    });
  return { reports, state };
}
