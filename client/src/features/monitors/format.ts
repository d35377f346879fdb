import { EXPECTED_STATUS_CLASSES, EXPECTED_STATUS_CODES, MONITOR_STATUSES, type MonitorDto, type MonitorStatus } from '@vigil/proto';

/** What a monitor shows as: its checked status, or `paused` while inactive (spec section 4). */
export type DisplayStatus = MonitorStatus | 'paused';

export function displayStatus(monitor: Pick<MonitorDto, 'active' | 'status'>): DisplayStatus {
  if (!monitor.active) return 'paused';
  return knownStatus(monitor.status);
}

/** A status from the server's list, or pending for one the client does not know (the spec's default when missing). */
export function knownStatus(status: string): MonitorStatus {
  return (MONITOR_STATUSES as readonly string[]).includes(status) ? (status as MonitorStatus) : 'pending';
}

/** One colour per status, used by every badge, dot, tile and feed entry (the wall's CSS repeats them as hex). */
export const STATUS_COLORS: Record<DisplayStatus, string> = {
  up: 'green',
  down: 'red',
  pending: 'yellow',
  degraded: 'orange',
  unreachable: 'grape',
  /** Planned work: blue wherever statuses are coloured. */
  maintenance: 'blue',
  paused: 'gray',
};

/** Seconds as whole minutes, rounded down, for the edit form's interval field (spec section 5). */
export function secondsToMinutes(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds / 60) : 0;
}

export function minutesToSeconds(minutes: number): number {
  return minutes * 60;
}

/** A typed number field's value; anything that is not a number becomes 0 (spec section 5), so validation rejects it. */
export function parseWholeNumber(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return 0;
  return Number(trimmed);
}

/** Uptime clamped to 0–100 (spec section 5); null when there is nothing to clamp. */
export function clampUptime(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Math.min(100, Math.max(0, value));
}

/** Uptime with two decimals, e.g. `99.95` (spec section 9), or '-' when unknown. */
export function formatUptime(value: number | null | undefined): string {
  const clamped = clampUptime(value);
  return clamped === null ? '-' : clamped.toFixed(2);
}

/** A response time in whole milliseconds, or '-' when the check had none (refused connection, timeout). */
export function formatResponseTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? '-' : String(Math.round(ms));
}

/** `2xx` for a whole class (values 2–5), the code itself otherwise (spec section 9). */
export function expectedStatusLabel(value: number): string {
  return value >= 2 && value <= 5 ? `${value}xx` : String(value);
}

/** The dropdown's choices: the four classes, then the listed codes. A stored code outside the list is kept too. */
export function expectedStatusOptions(current?: number): { value: string; label: string }[] {
  const values: number[] = [...EXPECTED_STATUS_CLASSES, ...EXPECTED_STATUS_CODES];
  if (current !== undefined && !values.includes(current)) values.push(current);
  return values.map((value) => ({ value: String(value), label: expectedStatusLabel(value) }));
}

/** A server timestamp as local date and time, or '-' when missing or unreadable. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '-';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '-' : date.toLocaleString(language);
}
