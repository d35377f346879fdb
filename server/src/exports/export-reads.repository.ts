import { Injectable } from '@nestjs/common';
import type { AvailabilityRow } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { queryRow, queryRows } from '../database/rows';

/** One agent metrics point as an export writes it: the bucket's averages. */
export interface ExportMetricRow {
  time: Date;
  samples: number;
  cpu: number | null;
  cpu_max: number;
  memory: number | null;
  disk: number | null;
  rx: number | null;
  tx: number | null;
  load1: number | null;
}

/** Whole UTC days `[from, until)` (midnights) whose totals `monitor_daily` holds; empty when `from` equals `until`. */
export interface DaySpan {
  from: Date;
  until: Date;
}

/**
 * The reads of data export that are not a monitor's check history (that one is `MonitorStatsRepository`'s): agent
 * metric points in keyset pages, and the monthly availability report a page of monitors at a time.
 */
@Injectable()
export class ExportReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  monitorName(id: number): Promise<{ name: string } | null> {
    return queryRow<{ name: string }>(this.dataSource, `SELECT name FROM monitors WHERE id = $1`, [id]);
  }

  agentName(id: number): Promise<{ name: string } | null> {
    return queryRow<{ name: string }>(this.dataSource, `SELECT name FROM agents WHERE id = $1`, [id]);
  }

  /** One tier's points from `since` (a bucket's start) to `to`, oldest first. */
  metricPage(id: number, tier: number, since: Date, to: Date, limit: number): Promise<ExportMetricRow[]> {
    const avg = (sum: string, n: string) => `round((${sum} / NULLIF(${n}, 0))::numeric, 2)::float`;
    return queryRows<ExportMetricRow>(
      this.dataSource,
      `SELECT bucket AS time, samples, ${avg('cpu_sum', 'samples')} AS cpu, cpu_max, ${avg('memory_sum', 'memory_n')} AS memory,
              ${avg('disk_sum', 'disk_n')} AS disk, ${avg('rx_sum', 'samples')} AS rx, ${avg('tx_sum', 'samples')} AS tx,
              ${avg('load_sum', 'load_n')} AS load1
       FROM agent_metrics WHERE agent_id = $1 AND tier = $2 AND bucket >= $3 AND bucket < $4 ORDER BY bucket LIMIT $5`,
      [id, tier, since, to, limit],
    );
  }

  /**
   * The report's lines for the monitors after `after` (by id), `limit` of them, for `[from, to)`: uptime from the day
   * totals (`monitor_daily`) for the days `daily` holds and from the hourly aggregates for the rest of the range;
   * incidents and downtime from the down episodes (`alerts`, metric `status`) that overlap the range, each clipped to
   * it (an open one runs to `to`). One statement per page; its aggregates are read through their primary keys by the
   * page's id span (ids are consecutive in the page, and aggregates cascade with their monitor), so a month of 10,000
   * monitors is 20 short statements over 310,000 day rows instead of 7.4 million hourly ones.
   */
  availabilityPage(after: number, limit: number, from: Date, to: Date, daily: DaySpan): Promise<AvailabilityRow[]> {
    return queryRows<AvailabilityRow>(
      this.dataSource,
      `WITH page AS (SELECT id, name, type FROM monitors WHERE id > $1 ORDER BY id LIMIT $2),
       last AS (SELECT max(id) AS id FROM page),
       counts AS (
         SELECT d.monitor_id, d.checks, d.up FROM monitor_daily d
         WHERE d.monitor_id > $1 AND d.monitor_id <= (SELECT id FROM last) AND d.day >= $5::date AND d.day < $6::date
         UNION ALL
         SELECT h.monitor_id, h.checks, h.up FROM monitor_hourly h
         WHERE h.monitor_id > $1 AND h.monitor_id <= (SELECT id FROM last)
           AND ((h.hour >= $3 AND h.hour < $7) OR (h.hour >= $8 AND h.hour < $4))),
       totals AS (SELECT monitor_id, sum(checks)::int AS checks, sum(up)::int AS up FROM counts GROUP BY monitor_id),
       episodes AS (
         SELECT a.target_id, count(*)::int AS incidents,
                sum(extract(epoch FROM least(coalesce(a.closed_at, $4), $4) - greatest(a.opened_at, $3))) AS seconds
         FROM alerts a JOIN page p ON p.id = a.target_id
         WHERE a.target_kind = 'monitor' AND a.metric = 'status' AND a.opened_at < $4 AND (a.closed_at IS NULL OR a.closed_at > $3)
         GROUP BY a.target_id)
       SELECT p.id AS monitor_id, p.name, p.type, coalesce(t.checks, 0) AS checks, coalesce(t.up, 0) AS up,
              round(100.0 * t.up / NULLIF(t.checks, 0), 3)::float AS uptime, coalesce(e.incidents, 0) AS incidents,
              round(coalesce(e.seconds, 0)::numeric / 60, 1)::float AS downtime_minutes
       FROM page p LEFT JOIN totals t ON t.monitor_id = p.id LEFT JOIN episodes e ON e.target_id = p.id
       ORDER BY p.id`,
      [after, limit, from, to, daily.from.toISOString().slice(0, 10), daily.until.toISOString().slice(0, 10), daily.from, daily.until],
    );
  }
}
