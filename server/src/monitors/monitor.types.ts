import type { CheckDto, HttpMethod, MonitorStatus } from '@vigil/proto';

/** What the checker needs to know about a monitor. */
export interface MonitorTarget {
  id: number;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | null;
  timeout: number;
  expectedStatus: number;
}

/** What the scheduler needs on top of that. */
export interface ScheduledMonitor extends MonitorTarget {
  interval: number;
  retryInterval: number;
  nextCheckAt: Date | null;
  status: MonitorStatus;
}

/** A monitor row as stored. */
export interface MonitorRow {
  id: number;
  name: string;
  url: string;
  method: HttpMethod;
  interval_s: number;
  timeout_s: number;
  expected_status: number;
  headers: Record<string, string>;
  body: string | null;
  active: boolean;
  retries: number;
  retry_interval_s: number;
  status: MonitorStatus;
  consecutive_failures: number;
  response_time: number | null;
  last_checked: Date | null;
  next_check_at: Date | null;
  created_at: Date;
}

/** One stored check, as the monitor's check list reads it. */
export interface CheckRow {
  id: number;
  status: CheckDto['status'];
  status_code: number | null;
  response_time: number | null;
  error: string | null;
  checked_at: Date;
}

export interface MonitorCounts {
  up: number;
  down: number;
  pending: number;
  paused: number;
  total: number;
}
