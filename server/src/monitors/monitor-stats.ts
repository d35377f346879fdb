import { Injectable } from '@nestjs/common';
import type { MonitorStatsResponse, StatsPoint, StatsRange } from '@vigil/proto';
import { uptimePercent } from './check-rules';
import { MonitorsRepository } from './monitors.repository';

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
  constructor(private readonly monitors: MonitorsRepository) {}

  async compute(id: number, range: StatsRange): Promise<MonitorStatsResponse['stats']> {
    const { hours, bucket } = RANGES[range];
    const since = new Date(Date.now() - hours * 3_600_000);
    const [series, [totals], [p95]] = await Promise.all([
      this.monitors.query<{ time: Date; checks: number; up: number; avg: number | null; max: number | null }>(
        `SELECT date_bin($3::interval, hour, '2000-01-01') AS time, sum(checks)::int AS checks, sum(up)::int AS up,
                (sum(response_sum) / NULLIF(sum(response_count), 0))::float AS avg, max(response_max) AS max
         FROM monitor_hourly WHERE monitor_id = $1 AND hour >= date_trunc('hour', $2::timestamptz)
         GROUP BY 1 ORDER BY 1`,
        [id, since, bucket],
      ),
      this.monitors.query<{ checks: number; up: number; avg: number | null }>(
        `SELECT coalesce(sum(checks), 0)::int AS checks, coalesce(sum(up), 0)::int AS up,
                (sum(response_sum) / NULLIF(sum(response_count), 0))::float AS avg
         FROM monitor_hourly WHERE monitor_id = $1 AND hour >= date_trunc('hour', $2::timestamptz)`,
        [id, since],
      ),
      range === '24h'
        ? this.monitors.query<{ p95: number | null }>(
            `SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY response_time)::float AS p95
             FROM monitor_checks WHERE monitor_id = $1 AND checked_at >= $2 AND response_time IS NOT NULL`,
            [id, since],
          )
        : this.monitors.query<{ p95: number | null }>(
            `SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY response_sum::float / response_count)::float AS p95
             FROM monitor_hourly WHERE monitor_id = $1 AND hour >= $2 AND response_count > 0`,
            [id, since],
          ),
    ]);
    const points: StatsPoint[] = series.map((row) => ({
      time: new Date(row.time).toISOString(),
      checks: row.checks,
      up: row.up,
      avg_response_time: row.avg === null ? null : Math.round(row.avg),
      max_response_time: row.max,
    }));
    return {
      range,
      uptime: uptimePercent(totals.up, totals.checks),
      checks: totals.checks,
      avg_response_time: totals.avg === null ? null : Math.round(totals.avg),
      p95_response_time: p95?.p95 == null ? null : Math.round(p95.p95),
      series: points,
    };
  }
}
