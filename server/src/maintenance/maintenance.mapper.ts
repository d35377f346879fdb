import type { MaintenanceDto, MaintenanceOccurrence, MaintenanceScope } from '@vigil/proto';
import type { Schedule } from './schedule';
import type { MaintenanceRow } from './maintenance.types';
import { phaseOf, type WindowState } from './window-state';

const time = (value: Date | null) => (value === null ? null : new Date(value).getTime());
const text = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/** The schedule of a row, as the expansion reads it. */
export function scheduleOf(row: MaintenanceRow): Schedule {
  return {
    strategy: row.strategy,
    timezone: row.timezone,
    startAt: row.start_at && new Date(row.start_at),
    endAt: row.end_at && new Date(row.end_at),
    weekdays: row.weekdays ?? [],
    daysOfMonth: row.days_of_month ?? [],
    startTime: row.start_time,
    endTime: row.end_time,
    intervalDays: row.interval_days,
    cron: row.cron,
    durationMinutes: row.duration_minutes,
  };
}

/** What the sweep decides on. */
export function windowStateOf(row: MaintenanceRow): WindowState {
  return {
    schedule: scheduleOf(row),
    enabled: row.enabled,
    appliedStart: time(row.applied_start),
    appliedEnd: time(row.applied_end),
    skipUntil: time(row.skip_until),
  };
}

/** The span applied now, else the next one; null when none is left. */
export function currentOf(row: MaintenanceRow): MaintenanceOccurrence | null {
  if (row.applied_start) return { start: text(row.applied_start)!, end: text(row.applied_end) };
  if (row.enabled && row.next_start) return { start: text(row.next_start)!, end: text(row.next_end) };
  return null;
}

export function toMaintenanceDto(row: MaintenanceRow, scope: MaintenanceScope, pages: string[]): MaintenanceDto {
  return {
    id: row.id,
    key: row.key,
    title: row.title,
    description: row.description,
    strategy: row.strategy,
    timezone: row.timezone,
    start_at: text(row.start_at),
    end_at: text(row.end_at),
    weekdays: row.weekdays ?? [],
    days_of_month: row.days_of_month ?? [],
    start_time: row.start_time,
    end_time: row.end_time,
    interval_days: row.interval_days,
    cron: row.cron,
    duration_minutes: row.duration_minutes,
    enabled: row.enabled,
    phase: phaseOf({ enabled: row.enabled, appliedStart: row.applied_start, nextStart: row.next_start }),
    current: currentOf(row),
    scope: { ...scope, all: row.all_targets },
    pages,
    notify: row.notify,
    end_when_healthy_minutes: row.end_when_healthy_minutes,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
