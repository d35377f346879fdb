/**
 * Checks run from several locations: the server itself and chosen agents (protocol 2). The server assigns each
 * probing agent its checks over the agent socket; the agent runs them with the server's own checkers and streams the
 * results back; the monitor's verdict combines its locations by its quorum rule.
 */
import type { Assertion, MonitorType } from './monitor-types';

/** `server`, or `agent:<id>` for an enrolled agent. */
export type LocationId = 'server' | `agent:${number}`;
export const SERVER_LOCATION = 'server';
export const LOCATIONS_MAX = 20;

/** Types an agent can run: the network and database checks (a push, group, manual or browser check has no place there). */
export const PROBE_TYPES = ['http', 'tcp', 'ping', 'dns', 'tls', 'websocket', 'grpc', 'postgres', 'mysql', 'redis'] as const;
export type ProbeType = (typeof PROBE_TYPES)[number];

export function isProbeType(type: MonitorType): type is ProbeType {
  return (PROBE_TYPES as readonly string[]).includes(type);
}

export function agentLocation(agentId: number): LocationId {
  return `agent:${agentId}`;
}

/** The agent a location names, null for the server; undefined when the text is not a location at all. */
export function locationAgentId(location: string): number | null | undefined {
  if (location === SERVER_LOCATION) return null;
  const match = /^agent:([1-9]\d{0,9})$/.exec(location);
  if (!match) return undefined;
  const id = Number(match[1]);
  return id <= 2_147_483_647 ? id : undefined;
}

/**
 * How a monitor's locations make its verdict: down when `any` known location fails, when a `majority` does (strictly
 * more than half of the known ones: a tie is not down), or when `atLeast` `quorum_min` of them do. A location is known
 * while its last result is fresh and its agent online; a monitor with no known location is `unreachable`.
 */
export const QUORUM_RULES = ['any', 'majority', 'atLeast'] as const;
export type QuorumRule = (typeof QUORUM_RULES)[number];

/** A location's standing: `unknown` while its agent is offline or its last result is stale; `pending` before any. */
export type LocationStatus = 'up' | 'degraded' | 'down' | 'unknown' | 'pending';

/** A location's result is stale (its location unknown) once older than this many intervals plus the timeout. */
export const LOCATION_STALE_INTERVALS = 2;

export interface MonitorLocationDto {
  location: LocationId;
  /** The agent's name, or `server`. */
  name: string;
  agent_id: number | null;
  status: LocationStatus;
  /** Milliseconds, of its last result. */
  response_time: number | null;
  error: string | null;
  checked_at: string | null;
  /** Percent of its successful checks over the last 24 h (2 decimals); null before any. */
  uptime: number | null;
}

/** `GET /api/monitors/{id}/locations`. */
export interface MonitorLocationsResponse {
  success: true;
  quorum: QuorumRule;
  quorum_min: number | null;
  locations: MonitorLocationDto[];
}

/** A location of a monitor got a result (to `monitors` and `monitor:<id>`). */
export interface MonitorLocationEvent {
  monitor_id: number;
  location: MonitorLocationDto;
}

/**
 * One check an agent runs. `target` holds the type's settings as its checker reads them (the server's CheckTarget
 * without id, scope, timeout and assertions), secrets in clear: only the agent it is assigned to ever receives it.
 */
export interface ProbeAssignment {
  monitor_id: number;
  /** Changes whenever anything the agent needs changes, so an agent can tell a changed check from a resent one. */
  revision: string;
  type: ProbeType;
  /** Seconds. */
  interval: number;
  /** Seconds. */
  timeout: number;
  target: Record<string, unknown>;
  assertions: Assertion[];
}

/**
 * Server to agent: `full` replaces everything the agent runs (after each hello); otherwise `upsert` adds or changes
 * and `remove` drops checks by monitor id.
 */
export interface ProbeAssignmentsMessage {
  full: boolean;
  upsert: ProbeAssignment[];
  remove: number[];
}

/** One result of an assigned check, agent to server (its assertions already judged by the agent). */
export interface ProbeResultReport {
  monitor_id: number;
  /** Epoch milliseconds at the check's start. */
  checked_at: number;
  ok: boolean;
  /** A success on which a soft assertion failed. */
  soft?: boolean;
  status_code: number | null;
  /** Milliseconds. */
  response_time: number | null;
  error: string | null;
}

export const PROBE_LIMITS = {
  /** Checks one agent may be assigned. */
  assignmentsMax: 1_000,
  /** Results per `probe.results` message. */
  resultsMax: 500,
  /** Results an agent keeps while the server is away (oldest dropped first). */
  bufferMax: 20_000,
  errorMax: 1_000,
  /** Milliseconds: a result taking longer than the longest timeout plus slack is absurd. */
  responseTimeMax: 310_000,
  /** How long the agent waits to batch results before sending (milliseconds). */
  flushMs: 1_000,
} as const;
