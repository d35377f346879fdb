import type { AvailabilityRow } from '@vigil/proto';

/** The current UTC month and the `count - 1` before it, newest first, as `YYYY-MM`. */
export function recentMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, back) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7),
  );
}

export interface ReportTotals {
  monitors: number;
  /** Up checks over counted checks of every monitor, percent; null when nothing was checked. */
  uptime: number | null;
  incidents: number;
  downtimeMinutes: number;
}

/** The report's totals, added from the per-monitor lines the server summed. */
export function reportTotals(rows: readonly AvailabilityRow[]): ReportTotals {
  let checks = 0;
  let up = 0;
  let incidents = 0;
  let downtime = 0;
  for (const row of rows) {
    checks += row.checks;
    up += row.up;
    incidents += row.incidents;
    downtime += row.downtime_minutes;
  }
  return {
    monitors: rows.length,
    uptime: checks ? Math.round((up / checks) * 100_000) / 1000 : null,
    incidents,
    downtimeMinutes: Math.round(downtime * 10) / 10,
  };
}

/** Worst first: lowest uptime (monitors without checks last), then most downtime, then by name. */
export function worstFirst(rows: readonly AvailabilityRow[]): AvailabilityRow[] {
  return [...rows].sort(
    (a, b) => (a.uptime ?? Infinity) - (b.uptime ?? Infinity) || b.downtime_minutes - a.downtime_minutes || a.name.localeCompare(b.name),
  );
}
