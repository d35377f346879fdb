import type { AvailabilityRow } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { recentMonths, reportTotals, worstFirst } from './report';

const row = (id: number, uptime: number | null, downtime = 0, checks = 100): AvailabilityRow => ({
  monitor_id: id,
  name: `m${id}`,
  type: 'http',
  checks,
  up: uptime === null ? 0 : Math.round((uptime / 100) * checks),
  uptime,
  incidents: downtime ? 1 : 0,
  downtime_minutes: downtime,
});

describe('the report helpers', () => {
  it('offers this month and the ones before it, across a year boundary', () => {
    expect(recentMonths(new Date('2026-02-28T23:59:00Z'), 4)).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
  });

  it('adds the totals from the lines, uptime weighted by checks', () => {
    expect(reportTotals([row(1, 100, 0, 300), row(2, 50, 12.25, 100), row(3, null, 0, 0)])).toEqual({
      monitors: 3,
      uptime: 87.5,
      incidents: 1,
      downtimeMinutes: 12.3,
    });
    expect(reportTotals([]).uptime).toBeNull();
  });

  it('orders the worst first, monitors without checks last', () => {
    expect(worstFirst([row(1, null, 0, 0), row(2, 99.9), row(3, 98, 5), row(4, 98, 9)]).map((r) => r.monitor_id)).toEqual([4, 3, 2, 1]);
  });
});
