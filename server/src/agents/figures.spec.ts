import { bucketStart, latestFigures, percent, rate, ratesFromCounters, reportPoint, sumIntoBuckets } from './figures';

describe('rate from cumulative counters', () => {
  it.each([
    ['normal growth', 0, 1024 * 600, 60_000, 10],
    ['first sample (no previous)', undefined, 5_000, 60_000, 0],
    ['counter reset (went down)', 10_000_000, 2_048, 60_000, 0],
    ['no elapsed time', 0, 4_096, 0, 0],
    ['negative elapsed time', 0, 4_096, -1_000, 0],
    ['unchanged', 4_096, 4_096, 1_000, 0],
    ['fractional KB/s, two decimals', 0, 1_000, 3_000, 0.33],
  ])('%s', (_, previous, current, elapsed, expected) => {
    expect(rate(previous as number | undefined, current as number, elapsed as number)).toBe(expected);
  });

  it('gives every interface its own rate and keeps the newest counters', () => {
    const first = ratesFromCounters(null, 1_000, { eth0: { rx: 0, tx: 0 } });
    expect(first.rates.eth0).toEqual({ rx: 0, tx: 0 });
    const second = ratesFromCounters(first.state, 11_000, { eth0: { rx: 102_400, tx: 51_200 }, eth1: { rx: 7, tx: 7 } });
    expect(second.rates).toEqual({ eth0: { rx: 10, tx: 5 }, eth1: { rx: 0, tx: 0 } });
    expect(second.state).toEqual({ at: 11_000, interfaces: { eth0: { rx: 102_400, tx: 51_200 }, eth1: { rx: 7, tx: 7 } } });
  });

  it('does not move the kept counters back for an older sample', () => {
    const kept = { at: 10_000, interfaces: { eth0: { rx: 50_000, tx: 0 } } };
    const { rates, state } = ratesFromCounters(kept, 5_000, { eth0: { rx: 10_000, tx: 0 } });
    expect(rates.eth0).toEqual({ rx: 0, tx: 0 });
    expect(state).toBe(kept);
  });
});

describe('percent', () => {
  it.each([
    [50, 100, 50],
    [1, 3, 33.3],
    [2, 3, 66.7],
    [0, 100, 0],
    [150, 100, 100],
    [5, 0, null],
    [null, 100, null],
    [5, undefined, null],
  ])('%p of %p is %p', (used, total, expected) => {
    expect(percent(used as number | null, total as number | undefined)).toBe(expected);
  });
});

describe('report figures', () => {
  const report = {
    timestamp: Date.UTC(2026, 10, 22, 10, 7, 30),
    cpu: 12.345,
    load: [1, 2, 3] as [number, number, number],
    memory_total: 1000,
    memory_used: 250,
    disks: [
      { mount: '/', fs: 'ext4', total: 100, used: 50 },
      { mount: '/data', fs: 'xfs', total: 300, used: 50 },
    ],
    interfaces: [
      { name: 'eth0', rx_rate: 10.5, tx_rate: 1, rx_bytes: 0, tx_bytes: 0 },
      { name: 'eth1', rx_rate: 0.25, tx_rate: 2, rx_bytes: 0, tx_bytes: 0 },
    ],
    uptime: 99.6,
  };

  it('sums disks and interfaces into the spec fields', () => {
    const figures = latestFigures(report);
    expect(figures).toMatchObject({
      cpu_usage: 12.35,
      disk_total: 400,
      disk_used: 100,
      network_rx: 10.75,
      network_tx: 3,
      load1: 1,
      load15: 3,
      host_uptime: 100,
      swap_total: null,
    });
    expect(figures.interfaces).toEqual([
      { name: 'eth0', rx_rate: 10.5, tx_rate: 1 },
      { name: 'eth1', rx_rate: 0.25, tx_rate: 2 },
    ]);
  });

  it('turns a report into a chart point with percentages', () => {
    expect(reportPoint(report)).toEqual({
      time: '2026-11-22T10:07:30.000Z',
      cpu: 12.35,
      cpu_max: 12.35,
      memory: 25,
      disk: 25,
      rx: 10.75,
      tx: 3,
      load1: 1,
    });
  });

  it('places a time in the bucket of each tier', () => {
    const at = Date.UTC(2026, 10, 22, 10, 7, 30);
    expect(new Date(bucketStart(at, 60)).toISOString()).toBe('2026-11-22T10:07:00.000Z');
    expect(new Date(bucketStart(at, 300)).toISOString()).toBe('2026-11-22T10:05:00.000Z');
    expect(new Date(bucketStart(at, 3600)).toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });

  it('adds reports of one bucket into one row per tier', () => {
    const point = (minute: number, cpu: number, memory: number | null) => ({
      time: new Date(Date.UTC(2026, 10, 22, 10, minute, 10)).toISOString(),
      cpu,
      cpu_max: cpu,
      memory,
      disk: 10,
      rx: 1,
      tx: 2,
      load1: null,
    });
    const sums = sumIntoBuckets([
      { agentId: 1, point: point(7, 10, 50) },
      { agentId: 1, point: point(7, 30, null) },
      { agentId: 1, point: point(8, 20, 40) },
      { agentId: 2, point: point(7, 90, 10) },
    ]);
    const of = (agent: number, tier: number) => sums.filter((s) => s.agent_id === agent && s.tier === tier);
    expect(of(1, 60)).toHaveLength(2);
    expect(of(1, 60)[0]).toMatchObject({ samples: 2, cpu_sum: 40, cpu_max: 30, memory_sum: 50, memory_n: 1, load_n: 0 });
    expect(of(1, 300)).toEqual([expect.objectContaining({ bucket: '2026-11-22T10:05:00.000Z', samples: 3, cpu_sum: 60, rx_sum: 3 })]);
    expect(of(1, 3600)).toHaveLength(1);
    expect(of(2, 60)).toEqual([expect.objectContaining({ samples: 1, cpu_max: 90 })]);
  });
});
