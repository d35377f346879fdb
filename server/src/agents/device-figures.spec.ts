import type { AgentReport } from '@vigil/proto';
import { DEVICE_HISTORY_MAX, devicePoint, deviceSamples, sumDevices } from './device-figures';

const report = (extra: Partial<AgentReport> = {}): AgentReport => ({
  timestamp: Date.UTC(2026, 10, 28, 12, 0, 30),
  cpu: 1,
  memory_total: 1,
  memory_used: 0,
  disks: [],
  interfaces: [{ name: 'eth0', rx_rate: 10, tx_rate: 4, rx_bytes: 0, tx_bytes: 0 }],
  ...extra,
});

describe('per-device history', () => {
  it('takes every report’s interfaces and protocol 2’s disks and sensors, at most 16 of a kind', () => {
    const disks = Array.from({ length: 20 }, (_, i) => ({ device: `sd${i}`, read_rate: i, write_rate: 1, busy: 5 }));
    const samples = deviceSamples(report({ disk_io: disks, sensors: [{ name: 'cpu', celsius: 50 }] }));
    expect(samples.filter((s) => s.kind === 'disk')).toHaveLength(DEVICE_HISTORY_MAX);
    expect(samples.filter((s) => s.kind === 'nic')).toEqual([{ kind: 'nic', name: 'eth0', a: 10, b: 4, c: 0 }]);
    expect(samples.filter((s) => s.kind === 'temp')).toEqual([{ kind: 'temp', name: 'cpu', a: 50, b: 0, c: 50 }]);
    expect(deviceSamples(report())).toHaveLength(1);
  });

  it('sums reports of one bucket per device and tier, keeping a sensor’s highest', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, s));
    const sums = sumDevices([
      { agentId: 1, at: at(10), devices: [{ kind: 'temp', name: 'cpu', a: 50, b: 0, c: 50 }] },
      { agentId: 1, at: at(40), devices: [{ kind: 'temp', name: 'cpu', a: 70, b: 0, c: 70 }] },
    ]);
    expect(sums.map((s) => [s.tier, s.samples, s.a_sum, s.c_max])).toEqual([
      [60, 2, 120, 70],
      [300, 2, 120, 70],
      [3600, 2, 120, 70],
    ]);
    expect(devicePoint('temp', sums[0])).toEqual({
      time: '2026-11-28T12:00:00.000Z',
      celsius: 60,
      celsius_max: 70,
    });
  });

  it('reads a bucket back as the kind’s figures', () => {
    const row = { bucket: '2026-11-28T12:00:00.000Z', samples: 4, a_sum: 10, b_sum: 2, c_sum: 100, c_max: 40 };
    expect(devicePoint('disk', row)).toEqual({ time: row.bucket, read: 2.5, write: 0.5, busy: 25 });
    expect(devicePoint('nic', row)).toEqual({ time: row.bucket, rx: 2.5, tx: 0.5 });
  });
});
