import { AGENT_LIMITS, type AgentReport } from '@vigil/proto';
import { checkReport } from './agent-validation';
import { latestFigures, reportPoint, sumIntoBuckets } from './figures';
import { checkXugouStatus, xugouReports } from './xugou';

/**
 * Whatever the validators accept must fit the columns it is stored in (migrations `1764000000000-agents.ts`):
 * bigint for byte figures and uptime, integer for counts, double precision for percentages and rates.
 */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const BIGINT_MAX = 2n ** 63n - 1n;
const INTEGER_MAX = 2 ** 31 - 1;
const EIB = 2 ** 60;

/** How a figure reaches PostgreSQL: as JSON in `jsonb_to_recordset`, parsed there as a bigint. */
function fitsBigint(value: number | null): boolean {
  if (value === null) return true;
  const json = JSON.stringify(value);
  return /^\d+$/.test(json) && BigInt(json) <= BIGINT_MAX;
}

const disk = (total: number, used = total) => ({ mount: '/', fs: 'ext4', total, used });

/** The largest report the socket validator lets through: every list full, every figure at its bound. */
function largestReport(): AgentReport {
  return {
    timestamp: NOW,
    cpu: 100,
    load: [1_000_000, 1_000_000, 1_000_000],
    memory_total: EIB,
    memory_used: EIB,
    swap_total: EIB,
    swap_used: EIB,
    disks: Array.from({ length: AGENT_LIMITS.disksMax }, () => disk(EIB / AGENT_LIMITS.disksMax)),
    interfaces: Array.from({ length: AGENT_LIMITS.interfacesMax }, (_, i) => ({
      name: `eth${i}`,
      rx_rate: AGENT_LIMITS.rateMaxKbs,
      tx_rate: AGENT_LIMITS.rateMaxKbs,
      rx_bytes: EIB,
      tx_bytes: EIB,
    })),
    uptime: 100 * 365 * 86_400,
  };
}

function xugouStatus(extra: Record<string, unknown> = {}) {
  return {
    token: 'vgr_x',
    hostname: 'h',
    timestamp: new Date(NOW).toISOString(),
    cpu: { usage: 1, cores: 2 },
    memory: { total: 8e9, used: 1e9 },
    disks: [{ mount_point: '/', fs_type: 'ext4', total: 1e11, used: 1e10 }],
    network: [{ interface: 'eth0', bytes_recv: 1e9, bytes_sent: 1e9 }],
    ...extra,
  };
}

describe('storage bounds of agent reports', () => {
  it('refuses the report that overflowed the bigint disk sum: 64 disks of 2^60 bytes', () => {
    const attack = { ...largestReport(), disks: Array.from({ length: 64 }, () => disk(EIB)) };
    expect(checkReport(attack, NOW)).toEqual({ ok: false, error: `report.disks must add up to at most ${EIB} bytes in total` });
  });

  it('refuses the same disks from a xugou agent', () => {
    const attack = xugouStatus({ disks: Array.from({ length: 64 }, () => ({ mount_point: '/', total: EIB, used: EIB })) });
    expect(checkXugouStatus(attack, NOW)).toEqual({ ok: false, error: `body.disks must add up to at most ${EIB} bytes in total` });
    expect(checkXugouStatus([xugouStatus(), attack], NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\[1\]\.disks must add up/),
    });
  });

  it.each([
    ['memory', { memory: { total: EIB * 2, used: 1 } }, /body.memory.total must be from 1/],
    [
      'a byte counter',
      { network: [{ interface: 'eth0', bytes_recv: EIB * 2, bytes_sent: 0 }] },
      /body.network\[0\].bytes_recv must be from 0/,
    ],
    ['a disk', { disks: [{ mount_point: '/', total: EIB * 2, used: 0 }] }, /body.disks\[0\].total must be from 0/],
  ])('refuses a xugou %s figure above 1 EiB', (_name, extra, error) => {
    const result = checkXugouStatus(xugouStatus(extra), NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it('stores every figure of the largest accepted report in its column', () => {
    const checked = checkReport(largestReport(), NOW);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const figures = latestFigures(checked.value);
    for (const key of ['memory_total', 'memory_used', 'swap_total', 'swap_used', 'disk_total', 'disk_used', 'host_uptime'] as const) {
      expect([key, fitsBigint(figures[key])]).toEqual([key, true]);
    }
    for (const key of ['cpu_usage', 'network_rx', 'network_tx', 'load1', 'load5', 'load15'] as const) {
      expect([key, Number.isFinite(figures[key])]).toEqual([key, true]);
    }
  });

  it('keeps bucket sums finite and their counts within integer for a whole batch of the largest reports', () => {
    const report = checkReport(largestReport(), NOW);
    if (!report.ok) throw new Error(report.error);
    const point = reportPoint(report.value);
    const [sum] = sumIntoBuckets(Array.from({ length: 5_000 }, () => ({ agentId: 1, point })));
    for (const [key, value] of Object.entries(sum)) {
      if (typeof value === 'number') expect([key, Number.isFinite(value)]).toEqual([key, true]);
    }
    for (const key of ['samples', 'memory_n', 'disk_n', 'load_n'] as const) expect(sum[key]).toBeLessThanOrEqual(INTEGER_MAX);
  });

  it('rounds fractional byte figures, which a bigint column refuses', () => {
    const checked = checkReport(
      { ...largestReport(), memory_total: 1000.5, memory_used: 10.25, disks: [disk(100.5, 0.5)], swap_total: 9.5, swap_used: 1.5 },
      NOW,
    );
    if (!checked.ok) throw new Error(checked.error);
    const figures = latestFigures(checked.value);
    expect(
      [figures.memory_total, figures.memory_used, figures.disk_total, figures.disk_used, figures.swap_total, figures.swap_used].every(
        fitsBigint,
      ),
    ).toBe(true);
  });

  it('counts a xugou counter that leapt beyond any link as no rate, not an absurd one', () => {
    const first = checkXugouStatus(xugouStatus({ timestamp: new Date(NOW - 60_000).toISOString() }), NOW);
    const second = checkXugouStatus(xugouStatus({ network: [{ interface: 'eth0', bytes_recv: EIB, bytes_sent: 2e9 }] }), NOW);
    if (!first.ok || !second.ok) throw new Error('fixture refused');
    const { reports } = xugouReports([...first.value, ...second.value], null);
    expect(reports[1].interfaces[0]).toMatchObject({ rx_rate: 0, tx_rate: Math.round((1e9 / 1024 / 60) * 100) / 100 });
  });
});
