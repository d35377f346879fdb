import type { AgentDto, AgentStatus } from '@vigil/proto';

/** How the list shows an agent: any status the client does not know counts as inactive (spec section 4). */
export function listStatus(status: string): AgentStatus {
  return status === 'active' || status === 'connecting' ? status : 'inactive';
}

/** The detail page knows only online and offline (spec section 2): connecting is not online yet. */
export function detailStatus(status: string): 'active' | 'inactive' {
  return status === 'active' ? 'active' : 'inactive';
}

/** What an agent shows as: its status, or `unreachable` while offline behind a dependency that is down. */
export type AgentShownStatus = AgentStatus | 'unreachable';

export function shownAgentStatus(status: AgentStatus, unreachable: boolean | undefined): AgentShownStatus {
  return unreachable && status === 'inactive' ? 'unreachable' : status;
}

/** Unreachable has the monitors' unreachable colour, so a storm behind one router reads alike everywhere. */
export const STATUS_COLORS: Record<AgentShownStatus, string> = {
  active: 'green',
  connecting: 'yellow',
  inactive: 'red',
  unreachable: 'grape',
};

/** Resource bar colour (spec section 9): under 50 green, under 75 amber, else red. */
export function barColor(percent: number | null): 'green' | 'yellow' | 'red' | 'gray' {
  if (percent === null) return 'gray';
  if (percent < 50) return 'green';
  if (percent < 75) return 'yellow';
  return 'red';
}

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Used over total as a percentage clamped to 0–100, or null when either is unknown or the total is zero. */
export function percentOf(used: number | null | undefined, total: number | null | undefined): number | null {
  if (!finite(used) || !finite(total) || total <= 0) return null;
  return Math.min(100, Math.max(0, (used / total) * 100));
}

export function clampPercent(value: number | null | undefined): number | null {
  return finite(value) ? Math.min(100, Math.max(0, value)) : null;
}

/** CPU, memory and disk with one decimal (spec section 9), e.g. `12.3%`; '-' before the first report. */
export function formatPercent(value: number | null | undefined): string {
  const clamped = clampPercent(value);
  return clamped === null ? '-' : `${clamped.toFixed(1)}%`;
}

/** The network bar's fill: the rate in KB/s over 51.2, capped at 100 (spec section 9). */
export function networkPercent(kbPerSecond: number | null | undefined): number | null {
  if (!finite(kbPerSecond)) return null;
  return Math.min(100, Math.max(0, kbPerSecond / 51.2));
}

/**
 * A network rate with one decimal: KB/s below 1024, MB/s from 1024 (spec section 9). Unit symbols are the same in
 * both languages, so they are not in the dictionaries.
 */
export function formatRate(kbPerSecond: number | null | undefined): string {
  if (!finite(kbPerSecond)) return '-';
  const rate = Math.max(0, kbPerSecond);
  return rate < 1024 ? `${rate.toFixed(1)} KB/s` : `${(rate / 1024).toFixed(1)} MB/s`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in binary steps with one decimal, e.g. `7.8 GB`. */
export function formatBytes(bytes: number | null | undefined): string {
  if (!finite(bytes) || bytes < 0) return '-';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

export interface Span {
  days: number;
  hours: number;
  minutes: number;
}

/** Whole days, hours and minutes in a number of seconds (negative or unknown counts as none). */
export function spanOfSeconds(seconds: number | null | undefined): Span {
  const total = finite(seconds) && seconds > 0 ? Math.floor(seconds / 60) : 0;
  return { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60), minutes: total % 60 };
}

/** The detail page's 'uptime': the span from registration to the last update (spec section 2). */
export function spanBetween(from: string, to: string): Span {
  const start = Date.parse(from);
  const end = Date.parse(to);
  return spanOfSeconds(Number.isNaN(start) || Number.isNaN(end) ? 0 : (end - start) / 1000);
}

type SpanLabels = (unit: 'days' | 'hours' | 'minutes', count: number) => string;

/** `3d 4h 5m`: leading zero units are left out, minutes always shown. */
export function formatSpan(span: Span, label: SpanLabels): string {
  const parts: string[] = [];
  if (span.days > 0) parts.push(label('days', span.days));
  if (span.days > 0 || span.hours > 0) parts.push(label('hours', span.hours));
  parts.push(label('minutes', span.minutes));
  return parts.join(' ');
}

/** `10.0.0.5` or, for an agent with several addresses, the first one; '-' when none was reported. */
export function primaryAddress(agent: Pick<AgentDto, 'ip_address' | 'ip_addresses'>): string {
  return agent.ip_address ?? agent.ip_addresses[0] ?? '-';
}

/** Load averages as `0.52 / 0.48 / 0.40`, or '-' when the host reports none (Windows). */
export function formatLoad(agent: Pick<AgentDto, 'load1' | 'load5' | 'load15'>): string {
  const values = [agent.load1, agent.load5, agent.load15];
  return values.every(finite) ? values.map((value) => (value as number).toFixed(2)).join(' / ') : '-';
}

/** The figures of an agent's three percentage bars, null before the first report. */
export function usage(agent: AgentDto): { cpu: number | null; memory: number | null; disk: number | null } {
  return {
    cpu: clampPercent(agent.cpu_usage),
    memory: percentOf(agent.memory_used, agent.memory_total),
    disk: percentOf(agent.disk_used, agent.disk_total),
  };
}
