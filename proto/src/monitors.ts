/** Monitors: REST bodies and live events. Field names follow the spec's Monitor entity (snake_case reads). */
import type { MonitorTypeReadFields, MonitorTypeRequest } from './monitor-types';

/**
 * `degraded`: checks succeed but cross the monitor's `degraded_after_ms` (or a soft assertion); counted as up.
 * `unreachable`: checks fail while a dependency is down (agent: offline); counted as down, sends nothing of its own.
 * `maintenance`: a maintenance window covers it; still checked and recorded, sends nothing, counted neither up nor down.
 */
export type MonitorStatus = 'up' | 'down' | 'pending' | 'degraded' | 'unreachable' | 'maintenance';
export const MONITOR_STATUSES: readonly MonitorStatus[] = ['up', 'down', 'pending', 'degraded', 'unreachable', 'maintenance'];

/** What a monitor or agent depends on: while one of them is down (agent: offline), its failures are `unreachable`. */
export interface DependencyRef {
  type: 'monitor' | 'agent';
  id: number;
}
export const DEPENDENCIES_MAX = 20;

/** One monitor or agent of a dependency chain, as it stands now. */
export interface DependencyChainItem {
  ref: DependencyRef;
  name: string;
  /** A monitor's status, or an agent's (`inactive`: offline). */
  status: MonitorStatus | import('./agents').AgentStatus;
  /** Monitors: false while paused (agents: always true). */
  active: boolean;
  /** Agents: offline behind a down dependency. */
  unreachable: boolean;
  /** 1: directly; 2: through one other; … */
  depth: number;
}

/**
 * `GET /api/monitors/{id}/dependencies` and `GET /api/agents/{id}/dependencies`: what it depends on and what depends
 * on it, transitively (each once, at its shortest depth, nearest first; at most DEPENDENCY_CHAIN_DEPTH deep).
 */
export interface DependencyChainResponse {
  success: true;
  dependencies: DependencyChainItem[];
  dependents: DependencyChainItem[];
}
export const DEPENDENCY_CHAIN_DEPTH = 10;

/** How a group monitor's status follows its members: down when any / all / at least `group_min` of them are down. */
export const GROUP_RULES = ['any', 'all', 'atLeast'] as const;
export type GroupRule = (typeof GROUP_RULES)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** Methods that send the configured body. */
export const METHODS_WITH_BODY: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/** Limits of a monitor's settings (seconds unless named otherwise). */
export const MONITOR_LIMITS = {
  nameMax: 100,
  urlMax: 2048,
  /** The shortest interval any server accepts; each server's own floor (`MonitorLimitsResponse`) may be higher. */
  intervalMin: 10,
  intervalMax: 86_400,
  timeoutMin: 1,
  timeoutMax: 300,
  retriesMin: 0,
  retriesMax: 10,
  retryIntervalMin: 10,
  retryIntervalMax: 3_600,
  headersMax: 50,
  bodyMax: 64 * 1024,
  /** `degradedAfterMs`: milliseconds (the longest timeout is 300 s). */
  degradedAfterMsMin: 1,
  degradedAfterMsMax: 300_000,
  /** Plain text shown on the detail page. */
  descriptionMax: 2000,
  /** Tags per monitor, and characters per tag (`name` or `name:value`, after normalizeTag). */
  tagsMax: 30,
  tagMax: 100,
} as const;

/**
 * A tag as stored: trimmed, runs of white space made one space, none around the first `:` (which splits `name:value`,
 * as Uptime Kuma's tag and value); a trailing `:` (an empty value) is dropped. Case is kept. Null when it is not a
 * tag: empty, no name before the `:`, a control character, or longer than `tagMax`.
 */
export function normalizeTag(raw: unknown): string | null {
  if (typeof raw !== 'string' || /\p{Cc}/u.test(raw)) return null;
  const text = raw.trim().replace(/\s+/g, ' ');
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  const value = colon < 0 ? '' : text.slice(colon + 1).trim();
  const tag = value ? `${name}:${value}` : name;
  return name && tag.length <= MONITOR_LIMITS.tagMax ? tag : null;
}

/** A list of tags as stored: each normalised, duplicates dropped (first kept); null when one is not a tag or there are too many. */
export function normalizeTags(raw: unknown): string[] | null {
  if (!Array.isArray(raw)) return null;
  const tags: string[] = [];
  for (const item of raw) {
    const tag = normalizeTag(item);
    if (tag === null) return null;
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags.length <= MONITOR_LIMITS.tagsMax ? tags : null;
}

/** A stored tag's name and value (null without one). */
export function splitTag(tag: string): { name: string; value: string | null } {
  const colon = tag.indexOf(':');
  return colon < 0 ? { name: tag, value: null } : { name: tag.slice(0, colon), value: tag.slice(colon + 1) };
}

export const MONITOR_DEFAULTS = {
  method: 'GET' as HttpMethod,
  interval: 60,
  timeout: 30,
  expectedStatus: 200,
  retries: 1,
  retryInterval: 20,
} as const;

/** A timeout left out: 30 s, or 80 % of a shorter interval (as Uptime Kuma), so it stays below the interval. */
export function defaultTimeoutFor(interval: number): number {
  return Math.min(MONITOR_DEFAULTS.timeout, Math.max(MONITOR_LIMITS.timeoutMin, Math.floor(interval * 0.8)));
}

/** The spec's expected-status choices: 2–5 mean a whole class (2xx…5xx), the rest exact codes. */
export const EXPECTED_STATUS_CLASSES = [2, 3, 4, 5] as const;
export const EXPECTED_STATUS_CODES = [200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 500, 502, 503, 504] as const;

/** Points shown by the detail page's uptime bar and the summary bar. */
export const DETAIL_HISTORY_POINTS = 40;
export const SUMMARY_HISTORY_SLOTS = 24;

export interface HistoryPoint {
  status: MonitorStatus;
  timestamp: string;
}

export interface CheckDto {
  id: number;
  /**
   * The result as recorded: a success over `degraded_after_ms` is degraded, a failure behind a down dependency
   * unreachable, any result while a maintenance window covers the monitor `maintenance` (`error` then tells a failure).
   */
  status: 'up' | 'down' | 'degraded' | 'unreachable' | 'maintenance';
  status_code: number | null;
  /** Milliseconds. */
  response_time: number | null;
  error: string | null;
  checked_at: string;
}

/** A monitor as signed-in users read it; `url` is the readable target of every type (targetOf), credentials masked. */
export interface MonitorDto extends MonitorTypeReadFields {
  id: number;
  /** Stable name in configuration documents (`GET /api/export`); made from the name when not given. */
  key: string;
  name: string;
  url: string;
  method: HttpMethod;
  /** Seconds. */
  interval: number;
  /** Seconds. */
  timeout: number;
  expected_status: number;
  headers: Record<string, string>;
  body: string | null;
  /** False while paused. */
  active: boolean;
  status: MonitorStatus;
  /** Milliseconds, of the last check. */
  response_time: number | null;
  /** Percent of successful checks over the last 24 h, 0–100 with 2 decimals. */
  uptime: number;
  last_checked: string | null;
  created_at: string;
  retries: number;
  retry_interval: number;
  /** Recent statuses, oldest first (at most DETAIL_HISTORY_POINTS). */
  history: HistoryPoint[];
  /** Recent checks, newest first (detail read only; empty in lists). */
  checks: CheckDto[];
  /** Monitors and agents this one depends on. */
  depends_on: DependencyRef[];
  /** The group monitor this one belongs to. */
  parent_id: number | null;
  /** Milliseconds; a successful check slower than this is degraded. Null: never. */
  degraded_after_ms: number | null;
  /** Group monitors: the rule their status follows (null for other types). */
  group_rule: GroupRule | null;
  /** Group monitors with rule `atLeast`: how many members down make the group down. */
  group_min: number | null;
  /** Group monitors: how many monitors have it as their parent (absent for other types). */
  member_count?: number;
  /** Changing state more often than the flapping window allows; one message when it starts, one when it settles. */
  flapping: boolean;
  /** No notifications until this time (ISO); null: not muted. */
  muted_until: string | null;
  /** Where it is checked from (`server`, `agent:<id>`); `['server']` unless chosen. */
  locations: import('./probes').LocationId[];
  /** How its locations make its verdict (see QUORUM_RULES). */
  quorum: import('./probes').QuorumRule;
  /** With rule `atLeast`: how many failing locations make it down. */
  quorum_min: number | null;
  /** The agent of the host it runs on: its down alert and detail page tell that host's state (null: none). */
  host_agent_id: number | null;
  /** Plain text (at most MONITOR_LIMITS.descriptionMax characters); null: none. */
  description: string | null;
  /** Labels, each `name` or `name:value` (normalizeTag), in the order given. */
  tags: string[];
  /** Each check's verdict inverted: a failing check is up, a passing one down (docs/decisions.md, "Upside-down monitors"). */
  upside_down: boolean;
}

export type MonitorFilter = 'all' | 'active' | 'paused';

/**
 * `GET /api/monitors?page=&pageSize=&filter=&status=&search=&tag=` (no paging parameters: every monitor). The grouped
 * view adds `topLevel=true` (monitors in no group) and `parentId=<group id>` (that group's members), each paged. `tag`
 * keeps monitors carrying that exact tag (normalised as stored: `env:prod`, or `env` for the tag without a value).
 */
/** `GET /api/monitors/limits`: this server's own bounds, which the form applies before sending. */
export interface MonitorLimitsResponse {
  success: true;
  /** Seconds: the shortest interval this server accepts (MONITOR_MIN_INTERVAL_SECONDS, at least MONITOR_LIMITS.intervalMin). */
  intervalMin: number;
}

export interface MonitorsResponse {
  success: true;
  monitors: MonitorDto[];
  total: number;
  page: number;
  pageSize: number;
  /** Counts over every monitor, whatever the page, for summary cards. */
  counts: {
    up: number;
    down: number;
    pending: number;
    degraded: number;
    unreachable: number;
    maintenance: number;
    paused: number;
    total: number;
  };
}

export interface MonitorResponse {
  success: true;
  message?: string;
  monitor: MonitorDto;
}

/**
 * Create and update body; `headers` may also be a JSON string; `expectedStatus` 2–5 or an exact code
 * (`expected_status` is read as the same field, as xugou's client sends it). `url` is required for http and
 * websocket only; the other types send their own fields (MonitorTypeFields).
 */
export interface MonitorRequest extends MonitorTypeRequest {
  name: string;
  /** Unique (CONFIG_KEY_PATTERN); absent on create: made from the name. */
  key?: string;
  url?: string;
  method?: HttpMethod;
  interval?: number;
  timeout?: number;
  expectedStatus?: number;
  expected_status?: number;
  headers?: Record<string, string> | string | null;
  body?: string | null;
  active?: boolean;
  retries?: number;
  retryInterval?: number;
  /** Replaces the monitor's dependencies; `depends_on` is read as the same field. A cycle is refused (400). */
  dependsOn?: DependencyRef[];
  depends_on?: DependencyRef[];
  /** The group monitor to join (null leaves it); `parent_id` is read as the same field. */
  parentId?: number | null;
  parent_id?: number | null;
  degradedAfterMs?: number | null;
  groupRule?: GroupRule;
  groupMin?: number;
  /** Admins only (a member's change of them is refused). Agents must exist; an agent location needs a PROBE_TYPES type. */
  locations?: string[];
  quorum?: import('./probes').QuorumRule;
  quorumMin?: number | null;
  /** The agent of the host it runs on (must exist; null: none). */
  hostAgentId?: number | null;
  /** Plain text; null or empty: none. */
  description?: string | null;
  /** Replaces the monitor's tags; each normalised (normalizeTag), duplicates dropped. */
  tags?: string[];
  /** Checked types only (not group or manual). */
  upsideDown?: boolean;
}

export interface CheckResponse {
  success: true;
  message: string;
  check: CheckDto;
  monitor: MonitorDto;
}

export type StatsRange = '24h' | '7d' | '30d' | '90d';
export const STATS_RANGES: readonly StatsRange[] = ['24h', '7d', '30d', '90d'];

export interface StatsPoint {
  /** Start of the bucket. */
  time: string;
  checks: number;
  /** Successes, degraded ones included (uptime counts them as up). */
  up: number;
  /** Of `up`: successes slower than `degraded_after_ms` (or with a soft assertion failed). */
  degraded: number;
  /** Failures while a dependency was down (not in `up`: uptime counts them as down). */
  unreachable: number;
  /** Milliseconds; null when the bucket has no timed check. */
  avg_response_time: number | null;
  max_response_time: number | null;
}

export interface MonitorStatsResponse {
  success: true;
  stats: {
    range: StatsRange;
    uptime: number;
    checks: number;
    /** Degraded checks in the range (counted as up in `uptime`). */
    degraded: number;
    /** Unreachable checks in the range (counted as down in `uptime`). */
    unreachable: number;
    avg_response_time: number | null;
    p95_response_time: number | null;
    series: StatsPoint[];
  };
}

export interface ChecksPageResponse {
  success: true;
  checks: CheckDto[];
  total: number;
  page: number;
  pageSize: number;
}

/** Live: one check finished (to `monitors` and `monitor:<id>`). */
export interface MonitorCheckedEvent {
  monitorId: number;
  check: CheckDto;
  status: MonitorStatus;
  response_time: number | null;
  uptime: number;
  last_checked: string;
}

/** Live: a status transition (to `monitors` and `monitor:<id>`). */
export interface MonitorStatusChangedEvent {
  monitorId: number;
  name: string;
  previous: MonitorStatus;
  status: MonitorStatus;
  check: CheckDto;
  changed_at: string;
}

/** Live: a monitor was created, edited, paused, resumed or deleted (to `monitors` and `monitor:<id>`). */
export interface MonitorsChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  monitor: MonitorDto;
}
