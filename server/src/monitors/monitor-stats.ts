import { Injectable } from '@nestjs/common';
import type { MonitorStatsResponse, StatsPoint, StatsRange } from '@vigil/proto';
import { uptimePercent } from './monitor.mapper';
import { MonitorStatsRepository } from './monitor-stats.repository';

/** Length of each range and the bucket its chart series uses. */
const RANGES: Record<StatsRange, { hours: number; bucket: string }> = {
  '24h': { hours: 24, bucket: '1 hour' },
  '7d': { hours: 24 * 7, bucket: '1 hour' },
  '30d': { hours: 24 * 30, bucket: '6 hours' },
  '90d': { hours: 24 * 90, bucket: '1 day' },
};

/**
 * Uptime, response times and chart series computed in SQL from the hourly aggregates (kept a year). The p95 comes
 * from raw checks while the range fits in the raw window (24 h), else from the hourly averages.
 */
@Injectable()
export class MonitorStats {
  constructor(private readonly history: MonitorStatsRepository) {}

  async compute(id: number, range: StatsRange): Promise<MonitorStatsResponse['stats']> {
    const { hours, bucket } = RANGES[range];
    const since = new Date(Date.now() - hours * 3_600_000);
    const [series, totals, p95] = await Promise.all([
      this.history.series(id, since, bucket),
      this.history.totals(id, since),
      this.history.p95(id, since, range === '24h' ? 'checks' : 'hourly'),
    ]);
    const points: StatsPoint[] = series.map((row) => ({
      time: new Date(row.time).toISOString(),
      checks: row.checks,
      up: row.up,
      degraded: row.degraded,
      unreachable: row.unreachable,
      avg_response_time: row.avg === null ? null : Math.round(row.avg),
      max_response_time: row.max,
    }));
    return {
      range,
      uptime: uptimePercent(totals.up, totals.checks),
      checks: totals.checks,
      degraded: totals.degraded,
      unreachable: totals.unreachable,
      avg_response_time: totals.avg === null ? null : Math.round(totals.avg),
      p95_response_time: p95 === null ? null : Math.round(p95),
      series: points,
    };
  }
}
