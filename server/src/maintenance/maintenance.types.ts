import type { MaintenanceScope, MaintenanceStrategy, MonthDay } from '@vigil/proto';

/** A `maintenance` row as the driver reads it. */
export interface MaintenanceRow {
  id: number;
  /** Stable name in configuration documents; made from the title by trigger when not given. */
  key: string;
  title: string;
  description: string;
  strategy: MaintenanceStrategy;
  timezone: string;
  start_at: Date | null;
  end_at: Date | null;
  weekdays: number[];
  days_of_month: MonthDay[];
  start_time: string | null;
  end_time: string | null;
  interval_days: number | null;
  cron: string | null;
  duration_minutes: number | null;
  enabled: boolean;
  notify: boolean;
  end_when_healthy_minutes: number | null;
  all_targets: boolean;
  applied_start: Date | null;
  applied_end: Date | null;
  applied_at: Date | null;
  next_start: Date | null;
  next_end: Date | null;
  skip_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What a save writes: the window's own fields (its scope and pages apart). */
export type MaintenanceFields = Pick<
  MaintenanceRow,
  | 'title'
  | 'description'
  | 'strategy'
  | 'timezone'
  | 'start_at'
  | 'end_at'
  | 'weekdays'
  | 'days_of_month'
  | 'start_time'
  | 'end_time'
  | 'interval_days'
  | 'cron'
  | 'duration_minutes'
  | 'enabled'
  | 'notify'
  | 'end_when_healthy_minutes'
  | 'all_targets'
>;

/** The sweep's state of a window: the span applied now, the next one, an early end. */
export type MaintenanceState = Pick<MaintenanceRow, 'applied_start' | 'applied_end' | 'next_start' | 'next_end' | 'skip_until' | 'enabled'>;

/** A window with what it covers and the pages that show it, as reads need it. */
export interface MaintenanceWithLinks {
  row: MaintenanceRow;
  scope: MaintenanceScope;
  pages: string[];
}
