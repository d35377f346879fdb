import { EXPORT_LIMITS, REPORT_MONTH, type CheckExportTier, type MetricExportTier } from '@vigil/proto';
import { badRequest } from '../common/api-exception';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface ExportRange {
  from: Date;
  to: Date;
}

/**
 * The range of an export: `to` defaults to now, `from` to a day before `to`; `to` must come after `from` and at most
 * `EXPORT_LIMITS.rangeDaysMax` days later. Both arrive checked as ISO 8601 by the query DTO.
 */
export function exportRange(from: string | undefined, to: string | undefined, now: Date): ExportRange {
  const end = to === undefined ? now : new Date(to);
  const start = from === undefined ? new Date(end.getTime() - EXPORT_LIMITS.defaultRangeHours * HOUR_MS) : new Date(from);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) throw badRequest('exports.rangeInvalid');
  if (end.getTime() - start.getTime() > EXPORT_LIMITS.rangeDaysMax * DAY_MS) throw badRequest('exports.rangeTooLong');
  return { from: start, to: end };
}

export type CheckTier = Exclude<CheckExportTier, 'auto'>;

/** How long each tier of a monitor's history is kept (the retention settings). */
export interface CheckRetention {
  rawHours: number;
  hourlyDays: number;
}

/**
 * The tier that answers a monitor export. `auto`: raw checks while the range starts inside their window, else the hourly
 * aggregates. A tier asked for by name must still hold the range's start (an hour's grace for raw, whose window moves
 * while a client computes its `from`), else 400.
 */
export function checkTier(asked: CheckExportTier, from: Date, now: Date, kept: CheckRetention): CheckTier {
  const rawSince = now.getTime() - kept.rawHours * HOUR_MS;
  const hourlySince = now.getTime() - kept.hourlyDays * DAY_MS;
  if (asked === 'auto') return from.getTime() >= rawSince ? 'raw' : 'hourly';
  const since = asked === 'raw' ? rawSince - HOUR_MS : hourlySince - DAY_MS;
  if (from.getTime() < since) throw badRequest('exports.tierNotKept');
  return asked;
}

export type MetricTier = 60 | 300 | 3600;

/** How long the 1-minute, 5-minute and 1-hour agent points are kept. */
export type MetricRetention = Record<MetricTier, number>;

/** The agent tier that answers: `auto` takes the finest one still holding `from`; a named one must hold it. */
export function metricTier(asked: MetricExportTier, from: Date, now: Date, keptMs: MetricRetention): MetricTier {
  const holds = (tier: MetricTier) => from.getTime() >= now.getTime() - keptMs[tier] - HOUR_MS;
  if (asked !== 'auto') {
    const tier = Number(asked) as MetricTier;
    if (!holds(tier)) throw badRequest('exports.tierNotKept');
    return tier;
  }
  return ([60, 300] as const).find((tier) => from.getTime() >= now.getTime() - keptMs[tier]) ?? 3600;
}

/**
 * A report's month (`YYYY-MM`, UTC): not after the current month, and starting inside the hourly aggregates' window,
 * so every hour of it is still there. The current month runs up to now.
 */
export function reportMonth(month: string, now: Date, hourlyDays: number): ExportRange & { month: string } {
  const match = REPORT_MONTH.exec(month);
  if (!match) throw badRequest('reports.monthInvalid');
  const from = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  const next = new Date(Date.UTC(Number(match[1]), Number(match[2]), 1));
  if (from > now) throw badRequest('reports.monthInvalid');
  if (from.getTime() < now.getTime() - hourlyDays * DAY_MS) throw badRequest('reports.monthNotKept');
  return { month, from, to: next < now ? next : now };
}
