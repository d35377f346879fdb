import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRow, queryRows } from '../database/rows';

/** One chart bucket: sums of the hourly aggregates in it. */
export interface StatsBucketRow {
  time: Date;
  checks: number;
  up: number;
  degraded: number;
  unreachable: number;
  avg: number | null;
  max: number | null;
}

/** One raw check as an export writes it. */
export interface ExportCheckRow {
  id: string;
  checked_at: Date;
  /** `checked_at` in full (microseconds), the keyset cursor: a Date keeps only milliseconds. */
  cursor: string;
  status: string;
  status_code: number | null;
  response_time: number | null;
  error: string | null;
}

/** The hourly aggregates summed per bucket (an hour or a UTC day), as an export writes them. */
export interface ExportBucketRow extends StatsBucketRow {
  maintenance: number;
}

export interface StatsTotalsRow {
  checks: number;
  up: number;
  degraded: number;
  unreachable: number;
  avg: number | null;
}

/** Statistics of one monitor's check history (`monitor_hourly`, kept a year, and the raw `monitor_checks`). */
@Injectable()
export class MonitorStatsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The hourly aggregates since `since`, summed per `bucket` (an interval, e.g. '6 hours'), oldest first. */
  series(id: number, since: Date, bucket: string): Promise<StatsBucketRow[]> {
    return queryRows<StatsBucketRow>(
      this.dataSource,
      `SELECT date_bin($3::interval, hour, '2000-01-01') AS time, sum(checks)::int AS checks, sum(up)::int AS up,
              sum(degraded)::int AS degraded, sum(unreachable)::int AS unreachable,
              (sum(response_sum) / NULLIF(sum(response_count), 0))::float AS avg, max(response_max) AS max
       FROM monitor_hourly WHERE monitor_id = $1 AND hour >= date_trunc('hour', $2::timestamptz)
       GROUP BY 1 ORDER BY 1`,
      [id, since, bucket],
    );
  }

  async totals(id: number, since: Date): Promise<StatsTotalsRow> {
    const row = await queryRow<StatsTotalsRow>(
      this.dataSource,
      `SELECT coalesce(sum(checks), 0)::int AS checks, coalesce(sum(up), 0)::int AS up,
              coalesce(sum(degraded), 0)::int AS degraded, coalesce(sum(unreachable), 0)::int AS unreachable,
              (sum(response_sum) / NULLIF(sum(response_count), 0))::float AS avg
       FROM monitor_hourly WHERE monitor_id = $1 AND hour >= date_trunc('hour', $2::timestamptz)`,
      [id, since],
    );
    return row!;
  }

  /** The 95th percentile of response times since `since`: of raw checks, or of hourly means when `source` says so. */
  async p95(id: number, since: Date, source: 'checks' | 'hourly'): Promise<number | null> {
    const row = await queryRow<{ p95: number | null }>(
      this.dataSource,
      source === 'checks'
        ? `SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY response_time)::float AS p95
           FROM monitor_checks WHERE monitor_id = $1 AND checked_at >= $2 AND response_time IS NOT NULL`
        : `SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY response_sum::float / response_count)::float AS p95
           FROM monitor_hourly WHERE monitor_id = $1 AND hour >= $2 AND response_count > 0`,
      [id, since],
    );
    return row?.p95 ?? null;
  }

  /**
   * Raw checks before `to` after the keyset cursor (`checked_at`, `id`; the first is the range's start and id 0),
   * oldest first: one page of an export.
   */
  checkPage(id: number, to: Date, after: { at: string; id: string }, limit: number): Promise<ExportCheckRow[]> {
    return queryRows<ExportCheckRow>(
      this.dataSource,
      `SELECT id::text, checked_at, checked_at::text AS cursor, status, status_code, response_time, error FROM monitor_checks
       WHERE monitor_id = $1 AND checked_at >= $3::timestamptz AND checked_at < $2 AND (checked_at, id) > ($3::timestamptz, $4::bigint)
       ORDER BY checked_at, monitor_checks.id LIMIT $5`,
      [id, to, after.at, after.id, limit],
    );
  }

  /** Raw checks in `[from, to)`, counted up to `cap` (an export's bound: counting stops there). */
  async countChecks(id: number, from: Date, to: Date, cap: number): Promise<number> {
    const row = await queryRow<{ count: number }>(
      this.dataSource,
      `SELECT count(*)::int AS count FROM (
         SELECT 1 FROM monitor_checks WHERE monitor_id = $1 AND checked_at >= $2 AND checked_at < $3 LIMIT $4) c`,
      [id, from, to, cap],
    );
    return row!.count;
  }

  /** The hourly aggregates from `since` (a bucket's start) to `to`, summed per `bucket` ('1 hour', '1 day'), oldest first. */
  bucketPage(id: number, bucket: string, since: Date, to: Date, limit: number): Promise<ExportBucketRow[]> {
    return queryRows<ExportBucketRow>(
      this.dataSource,
      `SELECT date_bin($2::interval, hour, '2000-01-01') AS time, sum(checks)::int AS checks, sum(up)::int AS up,
              sum(degraded)::int AS degraded, sum(unreachable)::int AS unreachable, sum(maintenance)::int AS maintenance,
              (sum(response_sum) / NULLIF(sum(response_count), 0))::float AS avg, max(response_max) AS max
       FROM monitor_hourly WHERE monitor_id = $1 AND hour >= $3 AND hour < $4
       GROUP BY 1 ORDER BY 1 LIMIT $5`,
      [id, bucket, since, to, limit],
    );
  }
}
