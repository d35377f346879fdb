/**
 * Data export (issue 34, requirement 6): a monitor's checks and an agent's metrics over a range, and the monthly
 * availability report, as CSV or JSON downloads.
 */

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Where a monitor export's rows come from: `raw` checks (kept `CHECK_RETENTION_HOURS`), or the hourly aggregates
 * (kept `AGGREGATE_RETENTION_DAYS`) as they are (`hourly`) or summed per UTC day (`daily`). `auto` takes the finest
 * tier that still holds the range's start.
 */
export const CHECK_EXPORT_TIERS = ['auto', 'raw', 'hourly', 'daily'] as const;
export type CheckExportTier = (typeof CHECK_EXPORT_TIERS)[number];

/** An agent export's tier: the 1-minute, 5-minute or 1-hour points (seconds), or `auto` as for monitors. */
export const METRIC_EXPORT_TIERS = ['auto', '60', '300', '3600'] as const;
export type MetricExportTier = (typeof METRIC_EXPORT_TIERS)[number];

export const EXPORT_LIMITS = {
  /** Longest range one export covers, in days (a year of hourly rows is 8,784 lines). */
  rangeDaysMax: 366,
  /** Range an export covers when `from` is not given: the last 24 hours. */
  defaultRangeHours: 24,
  /** Monitors per page of the availability report's paged JSON reads. */
  reportPageMax: 1000,
} as const;

/** One monitor's line of the monthly availability report (`GET /api/reports/availability`). */
export interface AvailabilityRow {
  monitor_id: number;
  name: string;
  type: string;
  /** Checks counted for uptime in the month (those in maintenance are not). */
  checks: number;
  up: number;
  /** Percent with three decimals; null when the month has no counted check. */
  uptime: number | null;
  /** Down episodes that overlap the month (an `alerts` row of metric `status`). */
  incidents: number;
  /** Minutes of those episodes inside the month (an open one up to now), one decimal. */
  downtime_minutes: number;
}

/** A page of the report, read by the printable page (`format=json` with `limit`). */
export interface AvailabilityPage {
  month: string;
  from: string;
  to: string;
  monitors: AvailabilityRow[];
  /** The `after` of the next page; null on the last one. */
  next_after: number | null;
}

/** `YYYY-MM`: a month of the report, UTC. */
export const REPORT_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
