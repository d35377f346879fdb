import type { Assertion, CheckDto, DependencyRef, HttpMethod, LocationId, MonitorStatus, MonitorType, QuorumRule } from '@vigil/proto';
import type { OutboundScope } from '../common/outbound';
import type { CheckTarget } from './checkers/checker';

/** What the checker of the monitor's type needs to know about it (built from the row by `toCheckTarget`). */
export type MonitorTarget = CheckTarget;

/** What the scheduler needs on top of that. */
export type ScheduledMonitor = MonitorTarget & {
  interval: number;
  retryInterval: number;
  nextCheckAt: Date | null;
  status: MonitorStatus;
  /** Where it is checked from: the server runs its check only when `server` is one (see LocationVerdicts). */
  locations: LocationId[];
  quorum: QuorumRule;
  quorumMin: number | null;
};

/** The last peer certificate a check saw, as stored (`monitors.certificate`). */
export interface StoredCertificate {
  subject: string;
  issuer: string;
  expires_at: string;
  fingerprint: string;
}

/** A monitor row as stored. */
export interface MonitorRow {
  id: number;
  key: string;
  name: string;
  /** The readable target of every type (targetOf); the request URL of http and websocket monitors. */
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
  type: MonitorType;
  /** Also kept for database types, parsed from the connection string (never its credentials). */
  hostname: string | null;
  port: number | null;
  cert_expiry_days: number[];
  assertions: Assertion[];
  /** Push monitors only; never in public payloads. */
  push_token: string | null;
  /** Push monitors: when the wait for the next push began (the last push, or creation, resume or type change). */
  push_awaited_since: Date | null;
  certificate: StoredCertificate | null;
  /** Whose outbound rules its checks follow (the role of whoever saved it last; see OutboundPolicy). */
  outbound_scope: OutboundScope;
  /** The group monitor it belongs to. */
  parent_id: number | null;
  /** Monitors and agents this one depends on (see monitors/dependencies). */
  depends_on: DependencyRef[];
  /** A success slower than this is degraded; null: never. */
  degraded_after_ms: number | null;
  /** Where it is checked from (`server`, `agent:<id>`) and the rule that makes its verdict of them. */
  locations: LocationId[];
  quorum: QuorumRule;
  quorum_min: number | null;
  /** The agent of the host it runs on: its down alert and detail page tell that host's state. */
  host_agent_id: number | null;
  description: string | null;
  tags: string[];
  upside_down: boolean;
  flapping: boolean;
  /** Status changes within the flapping window, oldest first (monitor-state.ts `flappingAfter`). */
  recent_changes: Date[];
  /**
   * Every type's own settings by its spec's field names (`packetCount`, `mqttTopic`; secrets in clear: masked in
   * reads); read through `setting()`.
   */
  settings: Record<string, unknown>;
  /** No notifications until then (alerts/mute); null: not muted. */
  muted_until?: Date | null;
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
  degraded: number;
  unreachable: number;
  maintenance: number;
  paused: number;
  total: number;
}
