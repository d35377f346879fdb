import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { AvailabilityPage, AvailabilityRow, ExportFormat } from '@vigil/proto';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { badRequest, notFound } from '../common/api-exception';
import { MonitorStatsRepository, type ExportBucketRow, type ExportCheckRow } from '../monitors/monitor-stats.repository';
import { MonitorDaily } from '../status-pages/monitor-daily';
import { ExportReadsRepository, type DaySpan, type ExportMetricRow } from './export-reads.repository';
import { checkTier, exportRange, metricTier, reportMonth, type ExportRange } from './export-range';
import { keysetPages, streamExport, type ExportColumn } from './export-stream';
import type { AvailabilityQuery, CheckExportQuery, MetricExportQuery } from './exports.dto';

/** Rows per keyset page: large enough for few statements, small enough that a page is a few hundred KB. */
const CHECK_PAGE = 2_000;
const BUCKET_PAGE = 1_000;
const REPORT_PAGE = 500;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const CHECK_COLUMNS: ExportColumn<ExportCheckRow>[] = [
  { name: 'time', value: (r) => new Date(r.checked_at) },
  { name: 'status', value: (r) => r.status },
  { name: 'status_code', value: (r) => r.status_code },
  { name: 'response_time_ms', value: (r) => r.response_time },
  { name: 'error', value: (r) => r.error },
];

const BUCKET_COLUMNS: ExportColumn<ExportBucketRow>[] = [
  { name: 'time', value: (r) => new Date(r.time) },
  { name: 'checks', value: (r) => r.checks },
  { name: 'up', value: (r) => r.up },
  { name: 'down', value: (r) => r.checks - r.up },
  { name: 'degraded', value: (r) => r.degraded },
  { name: 'unreachable', value: (r) => r.unreachable },
  { name: 'maintenance', value: (r) => r.maintenance },
  { name: 'uptime', value: (r) => (r.checks ? Math.round((r.up / r.checks) * 100_000) / 1000 : null) },
  { name: 'avg_response_time_ms', value: (r) => (r.avg === null ? null : Math.round(r.avg)) },
  { name: 'max_response_time_ms', value: (r) => r.max },
];

const METRIC_COLUMNS: ExportColumn<ExportMetricRow>[] = [
  { name: 'time', value: (r) => new Date(r.time) },
  { name: 'samples', value: (r) => r.samples },
  { name: 'cpu_percent', value: (r) => r.cpu },
  { name: 'cpu_max_percent', value: (r) => r.cpu_max },
  { name: 'memory_percent', value: (r) => r.memory },
  { name: 'disk_percent', value: (r) => r.disk },
  { name: 'rx_bytes_per_second', value: (r) => r.rx },
  { name: 'tx_bytes_per_second', value: (r) => r.tx },
  { name: 'load1', value: (r) => r.load1 },
];

const REPORT_COLUMNS: ExportColumn<AvailabilityRow>[] = (
  ['monitor_id', 'name', 'type', 'checks', 'up', 'uptime', 'incidents', 'downtime_minutes'] as const
).map((name) => ({ name, value: (r: AvailabilityRow) => r[name] }));

/** `20260102T030405Z`: a time in a file name. */
const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * Data export: a monitor's checks and an agent's metrics over a range, and the monthly availability report, each
 * streamed from the database in keyset pages. Everything that can refuse (range, tier, bounds, the monitor or agent
 * itself) is decided before the first byte, so a refusal is still a clean 400 or 404.
 */
@Injectable()
export class ExportsService {
  constructor(
    private readonly history: MonitorStatsRepository,
    private readonly reads: ExportReadsRepository,
    private readonly daily: MonitorDaily,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async monitorChecks(id: number, query: CheckExportQuery, res: Response): Promise<void> {
    const now = new Date();
    const range = exportRange(query.from, query.to, now);
    const { checkRetentionHours, aggregateRetentionDays } = this.config.monitors;
    const tier = checkTier(query.tier ?? 'auto', range.from, now, { rawHours: checkRetentionHours, hourlyDays: aggregateRetentionDays });
    const monitor = await this.reads.monitorName(id);
    if (!monitor) throw notFound('monitors.notFound');
    const format = query.format ?? 'csv';
    const file = { format, filename: fileName(`monitor-${id}-checks`, range, format), tier };
    if (tier === 'raw') {
      const max = this.config.exportMaxRows;
      if ((await this.history.countChecks(id, range.from, range.to, max + 1)) > max) throw badRequest('exports.tooManyRows');
      const pages = keysetPages(
        (after: { at: string; id: string }) => this.history.checkPage(id, range.to, after, CHECK_PAGE),
        { at: range.from.toISOString(), id: '0' },
        (row) => ({ at: row.cursor, id: row.id }),
        CHECK_PAGE,
      );
      await streamExport(res, { ...file, meta: meta('monitor', id, monitor.name, range), columns: CHECK_COLUMNS, pages });
      return;
    }
    // Aggregates answer whole buckets: the range starts at the start of the bucket holding `from`.
    const step = tier === 'daily' ? 24 * HOUR_MS : HOUR_MS;
    const bucket = tier === 'daily' ? '1 day' : '1 hour';
    const from = new Date(Math.floor(range.from.getTime() / step) * step);
    const pages = keysetPages(
      (since: Date) => this.history.bucketPage(id, bucket, since, range.to, BUCKET_PAGE),
      from,
      (row) => new Date(new Date(row.time).getTime() + step),
      BUCKET_PAGE,
    );
    const covered = { from, to: range.to };
    await streamExport(res, { ...file, meta: meta('monitor', id, monitor.name, covered), columns: BUCKET_COLUMNS, pages });
  }

  async agentMetrics(id: number, query: MetricExportQuery, res: Response): Promise<void> {
    const now = new Date();
    const range = exportRange(query.from, query.to, now);
    const { minuteRetentionHours, fiveMinuteRetentionDays, hourRetentionDays } = this.config.agents;
    const tier = metricTier(query.tier ?? 'auto', range.from, now, {
      60: minuteRetentionHours * HOUR_MS,
      300: fiveMinuteRetentionDays * 24 * HOUR_MS,
      3600: hourRetentionDays * 24 * HOUR_MS,
    });
    const agent = await this.reads.agentName(id);
    if (!agent) throw notFound('agents.notFound');
    const format = query.format ?? 'csv';
    const stepMs = tier * 1000;
    const from = new Date(Math.floor(range.from.getTime() / stepMs) * stepMs);
    const pages = keysetPages(
      (since: Date) => this.reads.metricPage(id, tier, since, range.to, BUCKET_PAGE),
      from,
      (row) => new Date(new Date(row.time).getTime() + stepMs),
      BUCKET_PAGE,
    );
    await streamExport(res, {
      format,
      filename: fileName(`agent-${id}-metrics`, range, format),
      tier: String(tier),
      meta: meta('agent', id, agent.name, { from, to: range.to }),
      columns: METRIC_COLUMNS,
      pages,
    });
  }

  /** The month's report: streamed whole as a download, or one page of it (`limit`) for the report screen. */
  async availability(query: AvailabilityQuery, res: Response): Promise<AvailabilityPage | null> {
    const now = new Date();
    const asked = query.month ?? now.toISOString().slice(0, 7);
    const { month, from, to } = reportMonth(asked, now, this.config.monitors.aggregateRetentionDays);
    const days = await this.dailySpan(from, to);
    if (query.limit !== undefined) {
      const monitors = await this.reads.availabilityPage(query.after ?? 0, query.limit, from, to, days);
      const next = monitors.length === query.limit ? monitors[monitors.length - 1].monitor_id : null;
      return { month, from: from.toISOString(), to: to.toISOString(), monitors, next_after: next };
    }
    const format = query.format ?? 'csv';
    const pages = keysetPages(
      (after: number) => this.reads.availabilityPage(after, REPORT_PAGE, from, to, days),
      query.after ?? 0,
      (row) => row.monitor_id,
      REPORT_PAGE,
    );
    await streamExport(res, {
      format,
      filename: `vigil-availability-${month}.${format}`,
      tier: 'hourly',
      meta: { month, from: from.toISOString(), to: to.toISOString() },
      columns: REPORT_COLUMNS,
      pages,
    });
    return null;
  }

  /** The whole days of `[from, to)` that `monitor_daily` holds (none before its first roll-up). */
  private async dailySpan(from: Date, to: Date): Promise<DaySpan> {
    const rolled = await this.daily.rolled();
    if (!rolled) return { from, until: from };
    const start = Math.max(from.getTime(), rolled.from * DAY_MS);
    const until = Math.min(Math.floor(to.getTime() / DAY_MS) * DAY_MS, rolled.until * DAY_MS);
    return start < until ? { from: new Date(start), until: new Date(until) } : { from, until: from };
  }
}

function fileName(what: string, range: ExportRange, format: ExportFormat): string {
  return `vigil-${what}-${stamp(range.from)}-${stamp(range.to)}.${format}`;
}

function meta(kind: 'monitor' | 'agent', id: number, name: string, range: ExportRange): Record<string, unknown> {
  return { [kind]: { id, name }, from: range.from.toISOString(), to: range.to.toISOString() };
}
