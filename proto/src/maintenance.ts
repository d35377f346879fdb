/**
 * Maintenance windows: planned work during which monitors and agents are still checked and recorded but alert
 * nobody and count no downtime. Strategies map one to one onto Uptime Kuma's (an import uses them).
 */

/** manual: on until switched off; single: start_at..end_at; weekly/monthly: days + daily time range; interval: every N days; cron: expression + duration. */
export const MAINTENANCE_STRATEGIES = ['manual', 'single', 'weekly', 'monthly', 'interval', 'cron'] as const;
export type MaintenanceStrategy = (typeof MAINTENANCE_STRATEGIES)[number];

/** Where a window stands now: `active` covers now; `scheduled` has a future window; `ended` has none left; `paused` is switched off. */
export type MaintenancePhase = 'active' | 'scheduled' | 'ended' | 'paused';

export const MAINTENANCE_LIMITS = {
  titleMax: 150,
  descriptionMax: 5_000,
  idsMax: 100_000,
  pagesMax: 100,
  intervalDaysMax: 3_650,
  durationMinutesMax: 43_200,
  endWhenHealthyMinutesMax: 1_440,
  /** Windows listed ahead by the calendar and `upcoming`. */
  upcomingMax: 50,
} as const;

/** Days of a month: 1–31, or `'last'` for the last day whatever its number (Kuma's `lastDay1`). */
export type MonthDay = number | 'last';

/** What a window covers: everything, or the listed monitors, agents and group monitors (a group covers its members). */
export interface MaintenanceScope {
  all: boolean;
  monitors: number[];
  agents: number[];
  /** Group monitors' ids: the group and every member, transitively. */
  groups: number[];
}

/** One occurrence, as instants. */
export interface MaintenanceOccurrence {
  start: string;
  end: string | null;
}

/** The fields every strategy shares plus each strategy's own (unused ones null). */
export interface MaintenanceSchedule {
  strategy: MaintenanceStrategy;
  /** IANA zone the times of day, days and cron are read in, e.g. `Europe/Berlin`; `UTC` by default. */
  timezone: string;
  /** single: the window; recurring strategies: optional bounds of the recurrence (ISO instants). */
  start_at: string | null;
  end_at: string | null;
  /** weekly: 0 (Sunday) … 6 (Saturday), as JavaScript and Kuma number them. */
  weekdays: number[];
  /** monthly. */
  days_of_month: MonthDay[];
  /** weekly, monthly, interval: `HH:MM` local times; an end at or before the start runs past midnight. */
  start_time: string | null;
  end_time: string | null;
  /** interval: every this many days, counted from start_at's local date. */
  interval_days: number | null;
  /** cron: five fields (minute hour day-of-month month day-of-week), local to `timezone`. */
  cron: string | null;
  /** cron: minutes each occurrence lasts. */
  duration_minutes: number | null;
}

export interface MaintenanceDto extends MaintenanceSchedule {
  id: number;
  /** Stable name in configuration documents (`GET /api/export`). */
  key: string;
  title: string;
  /** Markdown. */
  description: string;
  /** False: switched off (a manual window not on, or any window paused). */
  enabled: boolean;
  phase: MaintenancePhase;
  /** The occurrence covering now, else the next one; null when none is left. */
  current: MaintenanceOccurrence | null;
  scope: MaintenanceScope;
  /** Status page slugs that show the window (`default` is `/status`). */
  pages: string[];
  /** Send a notice to the covered monitors' channels when each occurrence starts and ends. */
  notify: boolean;
  /** End the window by itself once every covered monitor has been up this many minutes (null: never). */
  end_when_healthy_minutes: number | null;
  created_at: string;
  updated_at: string;
}

/** `POST /api/maintenance`, `PUT /api/maintenance/{id}` (whole object). */
export interface SaveMaintenanceRequest {
  /** Unique (CONFIG_KEY_PATTERN); absent on create: made from the title; absent on save: kept. */
  key?: string;
  title: string;
  description?: string;
  strategy: MaintenanceStrategy;
  timezone?: string;
  enabled?: boolean;
  startAt?: string | null;
  endAt?: string | null;
  weekdays?: number[];
  daysOfMonth?: MonthDay[];
  startTime?: string | null;
  endTime?: string | null;
  intervalDays?: number | null;
  cron?: string | null;
  durationMinutes?: number | null;
  scope: MaintenanceScope;
  pages?: string[];
  notify?: boolean;
  endWhenHealthyMinutes?: number | null;
}

/**
 * `GET /api/maintenance?phase=&monitorId=&agentId=&page=&pageSize=`: active first, then scheduled by next start, then
 * the rest. `monitorId` / `agentId`: only the windows that cover it (named, through a group, or `all`).
 */
export interface MaintenanceListResponse {
  success: true;
  maintenance: MaintenanceDto[];
  total: number;
  page: number;
  pageSize: number;
}

export interface MaintenanceResponse {
  success: true;
  message?: string;
  maintenance: MaintenanceDto;
}

/** `GET /api/maintenance/calendar?from=&to=`: every occurrence in the range (at most 62 days), for the calendar view. */
export interface MaintenanceCalendarResponse {
  success: true;
  occurrences: Array<MaintenanceOccurrence & { id: number; title: string }>;
}

/** A window as a status page shows it: never its scope's ids beyond the page's own components. */
export interface PublicMaintenance {
  id: number;
  title: string;
  /** Rendered, sanitised Markdown. */
  description_html: string;
  phase: 'active' | 'scheduled';
  start: string;
  end: string | null;
  /** Names of the page's components it covers (empty: the whole page). */
  components: string[];
}

/** Live to `maintenance` and the pages' rooms: a window was saved, deleted, started or ended. */
export interface MaintenanceChangedEvent {
  action: 'created' | 'updated' | 'deleted' | 'started' | 'ended';
  id: number;
}
