import { AGENT_LIMITS, type AgentMetricPoint, type AgentReport } from '@vigil/proto';
import type { HostInsight } from './insight-validation';

/** Percent of `used` in `total`, 0–100 with one decimal; null when nothing is known. */
export function percent(used: number | null | undefined, total: number | null | undefined): number | null {
  if (used == null || total == null || total <= 0) return null;
  return Math.round(Math.min(100, Math.max(0, (used / total) * 100)) * 10) / 10;
}

/** Cumulative byte counters of one interface at one moment. */
export interface CounterSample {
  rx: number;
  tx: number;
}

export interface CounterState {
  /** Epoch milliseconds of the sample. */
  at: number;
  interfaces: Record<string, CounterSample>;
}

/**
 * KB/s between two readings of a cumulative counter. A counter that went down was reset (reboot, driver reload,
 * 32-bit wrap), and one that rose faster than any link carries was replaced or glitched: that interval has no
 * trustworthy rate, so it counts as 0 rather than a negative or absurd figure.
 */
export function rate(previous: number | undefined, current: number, elapsedMs: number): number {
  if (previous === undefined || elapsedMs <= 0 || current < previous) return 0;
  const kbs = Math.round(((current - previous) / 1024 / (elapsedMs / 1000)) * 100) / 100;
  return kbs > AGENT_LIMITS.rateMaxKbs ? 0 : kbs;
}

/** Rates of every interface since the previous state, and the state to keep for the next one. */
export function ratesFromCounters(
  previous: CounterState | null,
  at: number,
  counters: Record<string, CounterSample>,
): { rates: Record<string, { rx: number; tx: number }>; state: CounterState } {
  const rates: Record<string, { rx: number; tx: number }> = {};
  // A sample older than the kept one (a retried batch) is not a later reading; its rates are unknown.
  const elapsed = previous ? at - previous.at : 0;
  for (const [name, sample] of Object.entries(counters)) {
    const before = previous?.interfaces[name];
    rates[name] = { rx: rate(before?.rx, sample.rx, elapsed), tx: rate(before?.tx, sample.tx, elapsed) };
  }
  const state = previous && at < previous.at ? previous : { at, interfaces: counters };
  return { rates, state };
}

/** The spec's latest figures of an agent, summed over its disks and interfaces. */
export interface LatestFigures {
  cpu_usage: number;
  memory_total: number;
  memory_used: number;
  swap_total: number | null;
  swap_used: number | null;
  disk_total: number;
  disk_used: number;
  network_rx: number;
  network_tx: number;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  host_uptime: number | null;
  disks: Array<{ mount: string; fs: string; total: number; used: number }>;
  interfaces: Array<{ name: string; rx_rate: number; tx_rate: number }>;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Byte figures go to bigint columns, which refuse a fraction: an agent that sent 1.5 bytes meant 2. */
const whole = (value: number) => Math.round(value);

export function latestFigures(report: AgentReport): LatestFigures {
  return {
    cpu_usage: round2(report.cpu),
    memory_total: whole(report.memory_total),
    memory_used: whole(report.memory_used),
    swap_total: report.swap_total === undefined ? null : whole(report.swap_total),
    swap_used: report.swap_used === undefined ? null : whole(report.swap_used),
    disk_total: whole(report.disks.reduce((sum, d) => sum + d.total, 0)),
    disk_used: whole(report.disks.reduce((sum, d) => sum + d.used, 0)),
    network_rx: round2(report.interfaces.reduce((sum, i) => sum + i.rx_rate, 0)),
    network_tx: round2(report.interfaces.reduce((sum, i) => sum + i.tx_rate, 0)),
    load1: report.load?.[0] ?? null,
    load5: report.load?.[1] ?? null,
    load15: report.load?.[2] ?? null,
    host_uptime: report.uptime === undefined ? null : Math.round(report.uptime),
    disks: report.disks.map(({ mount, fs, total, used }) => ({ mount, fs, total, used })),
    interfaces: report.interfaces.map(({ name, rx_rate, tx_rate }) => ({ name, rx_rate, tx_rate })),
  };
}

/** A report's protocol 2 parts as stored (`agents.insight`); null when it has none (a protocol 1 agent). */
export function insightOfReport(report: AgentReport): HostInsight | null {
  const { disk_io, sensors, containers, services } = report;
  if (disk_io === undefined && sensors === undefined && containers === undefined && services === undefined) return null;
  return { disk_io, sensors, containers, services };
}

/** One report as a chart point of its own. */
export function reportPoint(report: AgentReport, figures = latestFigures(report)): AgentMetricPoint {
  return {
    time: new Date(report.timestamp).toISOString(),
    cpu: figures.cpu_usage,
    cpu_max: figures.cpu_usage,
    memory: percent(figures.memory_used, figures.memory_total),
    disk: percent(figures.disk_used, figures.disk_total),
    rx: figures.network_rx,
    tx: figures.network_tx,
    load1: figures.load1,
  };
}

/** Tier widths in seconds: 1-minute, 5-minute and 1-hour points. */
export const TIERS = [60, 300, 3600] as const;
export type Tier = (typeof TIERS)[number];

/** Start of the tier bucket holding `at` (epoch ms), in epoch ms. */
export function bucketStart(at: number, tier: Tier): number {
  return Math.floor(at / (tier * 1000)) * tier * 1000;
}

/** Sums of many reports in one bucket, as stored in `agent_metrics`. */
export interface BucketSums {
  agent_id: number;
  tier: Tier;
  bucket: string;
  samples: number;
  cpu_sum: number;
  cpu_max: number;
  memory_sum: number;
  memory_n: number;
  disk_sum: number;
  disk_n: number;
  rx_sum: number;
  tx_sum: number;
  load_sum: number;
  load_n: number;
}

/** Adds reports into per-(agent, tier, bucket) sums, so one upsert per bucket stores a whole batch. */
export function sumIntoBuckets(reports: Array<{ agentId: number; point: AgentMetricPoint }>): BucketSums[] {
  const sums = new Map<string, BucketSums>();
  for (const { agentId, point } of reports) {
    const at = Date.parse(point.time);
    for (const tier of TIERS) {
      const bucket = new Date(bucketStart(at, tier)).toISOString();
      const key = `${agentId}/${tier}/${bucket}`;
      let sum = sums.get(key);
      if (!sum) {
        sum = {
          agent_id: agentId,
          tier,
          bucket,
          samples: 0,
          cpu_sum: 0,
          cpu_max: 0,
          memory_sum: 0,
          memory_n: 0,
          disk_sum: 0,
          disk_n: 0,
          rx_sum: 0,
          tx_sum: 0,
          load_sum: 0,
          load_n: 0,
        };
        sums.set(key, sum);
      }
      sum.samples += 1;
      sum.cpu_sum += point.cpu;
      sum.cpu_max = Math.max(sum.cpu_max, point.cpu_max);
      if (point.memory !== null) {
        sum.memory_sum += point.memory;
        sum.memory_n += 1;
      }
      if (point.disk !== null) {
        sum.disk_sum += point.disk;
        sum.disk_n += 1;
      }
      sum.rx_sum += point.rx;
      sum.tx_sum += point.tx;
      if (point.load1 !== null) {
        sum.load_sum += point.load1;
        sum.load_n += 1;
      }
    }
  }
  return [...sums.values()];
}
