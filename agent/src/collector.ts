import { hostname, loadavg, networkInterfaces, totalmem, uptime } from 'node:os';
import si from 'systeminformation';
import { AGENT_LIMITS, AgentHello, AgentReport } from '@vigil/proto';
import { ContainerCollector, DEFAULT_ENGINE_SOCKETS } from './containers';
import { DiskIoCollector } from './disk-io';
import { isPseudoFileSystem, isVirtualInterface } from './filters';
import { warn } from './log';
import { CounterReading, ratesSince } from './rates';
import { readSensors } from './sensors';
import { readServices, Runner, SystemdMissingError } from './services';

export interface CollectorOptions {
  name: string | null;
  disks: string[] | null;
  interfaces: string[] | null;
  interval: number;
  agentVersion: string;
  containers: boolean;
  dockerSocket: string | null;
  services: string[] | null;
  ioDevices: string[] | null;
}

/** Where the deeper figures come from; the defaults are the host's own, tests point them at fixtures. */
export interface CollectorSources {
  platform?: string;
  diskstats?: string;
  sysBlock?: string;
  hwmon?: string;
  engineSockets?: string[];
  runService?: Runner;
  warn?: (message: string) => void;
}

type HostInsight = Pick<AgentReport, 'disk_io' | 'sensors' | 'containers' | 'services'>;

const clip = (text: string, max: number = AGENT_LIMITS.textMax) => (text.length > max ? text.slice(0, max) : text);

/**
 * Reads this host's figures. Static facts (OS, CPU model) are read once; each report costs one CPU-load sample, one
 * memory read, one `df`, the interface counters and, on Linux, `/proc/diskstats` and the hwmon files; plus the
 * Engine API's container list and stats when its socket is readable and one `systemctl show` when units are named.
 */
export class Collector {
  private previous: CounterReading | null = null;
  private readonly diskIo: DiskIoCollector | null;
  private readonly containers: ContainerCollector | null;
  private services: string[] | null;
  /** The last failure logged per field, so a failing source is logged once, not every report. */
  private readonly failures = new Map<string, string>();

  constructor(
    private readonly options: CollectorOptions,
    private readonly sources: CollectorSources = {},
  ) {
    const linux = (sources.platform ?? process.platform) === 'linux';
    this.diskIo = linux
      ? new DiskIoCollector({ devices: options.ioDevices, diskstats: sources.diskstats, sysBlock: sources.sysBlock })
      : null;
    const sockets = sources.engineSockets ?? (options.dockerSocket ? [options.dockerSocket] : DEFAULT_ENGINE_SOCKETS);
    this.containers = options.containers ? new ContainerCollector({ sockets, hostMemory: totalmem() }) : null;
    this.services = options.services?.length ? options.services : null;
  }

  async hello(): Promise<AgentHello> {
    const [os, cpu] = await Promise.all([si.osInfo(), si.cpu()]);
    const host = clip(os.hostname || hostname());
    return {
      hostname: host,
      ...(this.options.name ? { name: clip(this.options.name, 100) } : {}),
      ip_addresses: addresses(),
      os: clip([os.distro, os.release].filter(Boolean).join(' ') || os.platform),
      platform: clip(os.platform || process.platform),
      kernel: os.kernel ? clip(os.kernel) : undefined,
      arch: os.arch ? clip(os.arch) : undefined,
      cpu_model: clip([cpu.manufacturer, cpu.brand].filter(Boolean).join(' ') || 'unknown'),
      cpu_cores: cpu.cores || undefined,
      agent_version: this.options.agentVersion,
      interval: this.options.interval,
    };
  }

  async report(): Promise<AgentReport> {
    const [load, memory, disks, nics, insight] = await Promise.all([
      si.currentLoad(),
      si.mem(),
      this.disks(),
      si.networkStats('*'),
      this.insight(),
    ]);
    const at = Date.now();
    const reading: CounterReading = { at, counters: new Map() };
    for (const nic of nics) {
      if (!this.wantInterface(nic.iface)) continue;
      reading.counters.set(nic.iface, { rx: nic.rx_bytes, tx: nic.tx_bytes });
    }
    const rates = ratesSince(this.previous, reading);
    this.previous = reading;
    const total = memory.total;
    // "Used" as people mean it: what is not available to programs (buffers and cache can be reclaimed).
    const used = Math.min(total, Math.max(0, total - (memory.available ?? memory.free)));
    const [l1, l5, l15] = loadavg();
    return {
      timestamp: at,
      cpu: clamp(Math.round((load.currentLoad ?? 0) * 100) / 100, 0, 100),
      load: [l1, l5, l15].map((v) => Math.round(v * 100) / 100) as [number, number, number],
      memory_total: Math.max(1, total),
      memory_used: used,
      swap_total: memory.swaptotal,
      swap_used: Math.min(memory.swaptotal, memory.swapused),
      disks,
      interfaces: [...reading.counters].slice(0, AGENT_LIMITS.interfacesMax).map(([name, counters]) => ({
        name: clip(name, 64),
        rx_rate: rates.get(name)?.rx ?? 0,
        tx_rate: rates.get(name)?.tx ?? 0,
        rx_bytes: counters.rx,
        tx_bytes: counters.tx,
      })),
      uptime: Math.round(uptime()),
      ...insight,
    };
  }

  /** The protocol 2 figures. Each source fails alone: its field is left out (logged once), the report goes on. */
  private async insight(): Promise<HostInsight> {
    const [diskIo, sensors, containers, services] = await Promise.all([
      this.diskIo && this.optional('Per-disk I/O', () => this.diskIo!.read()),
      this.optional('Temperatures', () => readSensors(this.sources.hwmon)),
      this.containers ? this.optional('Containers', () => this.readContainers(this.containers!)) : null,
      this.services && this.optional('Services', () => readServices(this.services!, this.sources.runService)),
    ]);
    const insight: HostInsight = {};
    if (diskIo) insight.disk_io = diskIo;
    if (sensors) insight.sensors = sensors;
    // null says "cannot see containers" (no socket, or --no-containers); undefined (a failure) leaves the field out.
    if (containers !== undefined) insight.containers = containers;
    if (services) insight.services = services;
    return insight;
  }

  private async readContainers(collector: ContainerCollector): Promise<HostInsight['containers']> {
    // Half the interval at most, so a slow engine never delays the next report.
    const containers = await collector.read(Math.min(30_000, (this.options.interval * 1000) / 2));
    // Logged apart from failures: the engine being unreadable is an answer (null), not a failed read.
    if (containers === null) {
      const hint = collector.problem?.includes('EACCES') ? " (the agent's user must be in the docker group)" : '';
      this.failed('No containers', `${collector.problem}${hint}`);
    } else this.failures.delete('No containers');
    return containers;
  }

  private async optional<T>(what: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      this.failures.delete(what);
      return value;
    } catch (error) {
      if (error instanceof SystemdMissingError) this.services = null;
      this.failed(what, (error as Error).message);
      return undefined;
    }
  }

  private failed(what: string, message: string): void {
    if (this.failures.get(what) === message) return;
    this.failures.set(what, message);
    (this.sources.warn ?? warn)(`${what}: ${message}`);
  }

  private async disks(): Promise<AgentReport['disks']> {
    const seen = new Set<string>();
    const result: AgentReport['disks'] = [];
    for (const fs of await si.fsSize()) {
      const wanted = this.options.disks
        ? this.options.disks.includes(fs.mount)
        : !isPseudoFileSystem(fs.type ?? '', fs.mount) && fs.size > 0;
      // One device mounted twice (bind mounts) counts once.
      if (!wanted || seen.has(fs.fs)) continue;
      seen.add(fs.fs);
      const total = Math.max(0, fs.size);
      result.push({ mount: clip(fs.mount), fs: clip(fs.type ?? '', 64), total, used: Math.min(total, Math.max(0, fs.used)) });
      if (result.length === AGENT_LIMITS.disksMax) break;
    }
    return result;
  }

  private wantInterface(name: string): boolean {
    if (this.options.interfaces) return this.options.interfaces.includes(name);
    const internal = networkInterfaces()[name]?.every((a) => a.internal) ?? false;
    return !isVirtualInterface(name, internal);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Addresses others can reach this host on: not loopback, not link-local. */
function addresses(): string[] {
  const result: string[] = [];
  for (const [name, entries] of Object.entries(networkInterfaces())) {
    if (isVirtualInterface(name)) continue;
    for (const entry of entries ?? []) {
      if (entry.internal || entry.address.startsWith('fe80:') || entry.address.startsWith('169.254.')) continue;
      result.push(entry.address);
    }
  }
  return result.slice(0, AGENT_LIMITS.ipAddressesMax);
}
