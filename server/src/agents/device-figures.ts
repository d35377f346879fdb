import type { AgentDeviceKind, AgentDevicePoint, AgentReport } from '@vigil/proto';
import { bucketStart, TIERS, type Tier } from './figures';

/**
 * Devices of one kind a report adds to the history at most: a host with 64 disks keeps its first 16 charted (the
 * latest figures still show all), so one agent's history rows stay bounded at 48 per report and tier.
 */
export const DEVICE_HISTORY_MAX = 16;

/** One device's figures in one report: disk read, write, busy; nic rx, tx; temp celsius (a, and c for the max). */
export interface DeviceSample {
  kind: AgentDeviceKind;
  name: string;
  a: number;
  b: number;
  c: number;
}

/** Sums of one device in one bucket, as stored in `agent_device_metrics`. */
export interface DeviceSums {
  agent_id: number;
  tier: Tier;
  bucket: string;
  kind: AgentDeviceKind;
  name: string;
  samples: number;
  a_sum: number;
  b_sum: number;
  c_sum: number;
  c_max: number;
}

/** What a report adds to the per-device history: every report's interfaces, protocol 2's disk I/O and sensors. */
export function deviceSamples(report: AgentReport): DeviceSample[] {
  const first = <T>(items: T[] | null | undefined) => (items ?? []).slice(0, DEVICE_HISTORY_MAX);
  return [
    ...first(report.disk_io).map((d) => ({ kind: 'disk' as const, name: d.device, a: d.read_rate, b: d.write_rate, c: d.busy })),
    ...first(report.interfaces).map((i) => ({ kind: 'nic' as const, name: i.name, a: i.rx_rate, b: i.tx_rate, c: 0 })),
    ...first(report.sensors).map((s) => ({ kind: 'temp' as const, name: s.name, a: s.celsius, b: 0, c: s.celsius })),
  ];
}

/** Adds samples into per-(agent, tier, bucket, device) sums, so one upsert per device and bucket stores a batch. */
export function sumDevices(reports: Array<{ agentId: number; at: Date; devices: DeviceSample[] }>): DeviceSums[] {
  const sums = new Map<string, DeviceSums>();
  for (const { agentId, at, devices } of reports) {
    for (const tier of TIERS) {
      const bucket = new Date(bucketStart(at.getTime(), tier)).toISOString();
      for (const { kind, name, a, b, c } of devices) {
        const key = `${agentId}/${tier}/${bucket}/${kind}/${name}`;
        const sum = sums.get(key) ?? { agent_id: agentId, tier, bucket, kind, name, samples: 0, a_sum: 0, b_sum: 0, c_sum: 0, c_max: c };
        sum.samples += 1;
        sum.a_sum += a;
        sum.b_sum += b;
        sum.c_sum += c;
        sum.c_max = Math.max(sum.c_max, c);
        sums.set(key, sum);
      }
    }
  }
  return [...sums.values()];
}

/** One stored bucket as a chart point of its kind (means over the bucket; a sensor's highest too). */
export function devicePoint(
  kind: AgentDeviceKind,
  row: { bucket: Date | string; samples: number; a_sum: number; b_sum: number; c_sum: number; c_max: number },
): AgentDevicePoint {
  const mean = (sum: number) => Math.round((sum / Math.max(1, row.samples)) * 100) / 100;
  const time = new Date(row.bucket).toISOString();
  if (kind === 'disk') return { time, read: mean(row.a_sum), write: mean(row.b_sum), busy: mean(row.c_sum) };
  if (kind === 'nic') return { time, rx: mean(row.a_sum), tx: mean(row.b_sum) };
  return { time, celsius: mean(row.a_sum), celsius_max: row.c_max };
}
