import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_LIMITS, AgentDiskIoReport } from '@vigil/proto';
import { rateKBs } from './rates';

/** Cumulative counters of one block device, as `/proc/diskstats` gives them. */
export interface DiskCounters {
  sectorsRead: number;
  sectorsWritten: number;
  /** Milliseconds with I/O in flight (`io_ticks`). */
  busyMs: number;
}

export interface DiskReading {
  at: number;
  devices: Map<string, DiskCounters>;
}

/** Virtual and removable devices whose I/O says nothing about the host's disks: loop images, RAM disks, optical drives. */
const VIRTUAL_DEVICE = /^(loop|ram|zram|dm-|sr|fd|nbd)\d*/;
/** The kernel counts in 512-byte sectors whatever the disk's own sector size. */
const SECTOR = 512;

/** Parses `/proc/diskstats`: major, minor, name, then 11 or more counters (the 3rd, 7th and 10th are the ones read). */
export function parseDiskstats(text: string): Map<string, DiskCounters> {
  const devices = new Map<string, DiskCounters>();
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 14) continue;
    const [sectorsRead, sectorsWritten, busyMs] = [parts[5], parts[9], parts[12]].map(Number);
    if (![sectorsRead, sectorsWritten, busyMs].every(Number.isFinite)) continue;
    devices.set(parts[2], { sectorsRead, sectorsWritten, busyMs });
  }
  return devices;
}

/** KB/s read and written and busy % per device since the previous reading; the first reading has rates 0. */
export function diskIoSince(previous: DiskReading | null, current: DiskReading): AgentDiskIoReport[] {
  const elapsed = previous ? current.at - previous.at : 0;
  const result: AgentDiskIoReport[] = [];
  for (const [device, now] of current.devices) {
    const before = previous?.devices.get(device);
    const busy = !before || elapsed <= 0 || now.busyMs < before.busyMs ? 0 : ((now.busyMs - before.busyMs) / elapsed) * 100;
    result.push({
      device: device.slice(0, 64),
      read_rate: Math.min(AGENT_LIMITS.rateMaxKbs, rateKBs(before && before.sectorsRead * SECTOR, now.sectorsRead * SECTOR, elapsed)),
      write_rate: Math.min(
        AGENT_LIMITS.rateMaxKbs,
        rateKBs(before && before.sectorsWritten * SECTOR, now.sectorsWritten * SECTOR, elapsed),
      ),
      busy: Math.min(100, Math.round(busy * 100) / 100),
    });
    if (result.length === AGENT_LIMITS.diskIoMax) break;
  }
  return result;
}

export interface DiskIoOptions {
  /** Devices to report; null: every whole physical disk. */
  devices: string[] | null;
  diskstats?: string;
  /** Where the kernel says which devices are partitions (`<dev>/partition`). */
  sysBlock?: string;
  now?: () => number;
}

/** Per-disk throughput and utilisation on Linux, from the deltas between two reads of `/proc/diskstats`. */
export class DiskIoCollector {
  private previous: DiskReading | null = null;
  private readonly partitions = new Map<string, boolean>();

  constructor(private readonly options: DiskIoOptions) {}

  async read(): Promise<AgentDiskIoReport[]> {
    const text = await readFile(this.options.diskstats ?? '/proc/diskstats', 'utf8');
    const at = (this.options.now ?? Date.now)();
    const devices = new Map([...parseDiskstats(text)].filter(([name]) => this.wanted(name)));
    const current = { at, devices };
    const result = diskIoSince(this.previous, current);
    this.previous = current;
    return result;
  }

  private wanted(name: string): boolean {
    if (this.options.devices) return this.options.devices.includes(name);
    return !VIRTUAL_DEVICE.test(name) && !this.isPartition(name);
  }

  /** Partitions repeat their disk's I/O; the answer is kept, as a device does not turn into a partition. */
  private isPartition(name: string): boolean {
    let known = this.partitions.get(name);
    if (known === undefined) {
      known = existsSync(join(this.options.sysBlock ?? '/sys/class/block', name, 'partition'));
      this.partitions.set(name, known);
    }
    return known;
  }
}
