/**
 * Issue 32, requirement 9: the host a monitor runs on (its `host_agent_id`), as the monitor's down alert and detail
 * page tell it: the host's last figures and what changed on it lately, so the first message points at a cause.
 */
import type { ContainerHealth, ContainerState, ServiceState } from './agent';
import type { AgentStatus } from './agents';

export const HOST_CONTEXT_LIMITS = {
  /** Minutes: alerts opened longer ago are no news (alerts still open are told however old). */
  windowMinutes: 60,
  /** Changes told, newest first; `more_changes` counts the rest. */
  changesMax: 10,
} as const;

/** The host's figures of its last report (percent 0–100, one decimal); null where the agent never said. */
export interface HostFigures {
  cpu: number | null;
  memory: number | null;
  swap: number | null;
  /** The fullest disk. */
  disk: { mount: string; percent: number } | null;
  load: [number, number, number] | null;
}

/**
 * One recent change: a host alert of the agent (its `metric`, and `item` when it names a sensor, disk, interface,
 * container or unit), a container not running or unhealthy, or a watched unit that failed, as its last report
 * says. `since`: when the alert that names the container or unit opened; null when none does.
 */
export type HostChange =
  | { kind: 'alert'; metric: string; item: string | null; opened_at: string; closed_at: string | null }
  | { kind: 'container'; name: string; state: ContainerState; health: ContainerHealth; since: string | null }
  | { kind: 'service'; name: string; state: ServiceState; since: string | null };

export interface HostContextDto {
  agent: { id: number; name: string; hostname: string; status: AgentStatus };
  /** When it went offline; null while it is online (or has never connected). */
  offline_since: string | null;
  /** Time of the report the figures come from; null: it never reported. */
  reported_at: string | null;
  figures: HostFigures;
  /** Containers and units in trouble first (likely causes), then alerts; newest first; at most `changesMax`. */
  changes: HostChange[];
  /** Changes left out of `changes`. */
  more_changes: number;
}

/** `GET /api/monitors/{id}/host` (404 when the monitor names no host agent). */
export interface MonitorHostResponse {
  success: true;
  host: HostContextDto;
}
