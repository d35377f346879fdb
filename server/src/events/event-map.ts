import type { AgentDto, AgentMetricPoint, AgentReport, AgentStatus, CheckDto, MonitorDto, MonitorStatus, UserDto } from '@vigil/proto';

/** Every domain event: name → payload. Services raise them; listeners react. */
export interface EventMap {
  'user.created': { user: UserDto };
  'user.updated': { user: UserDto };
  'user.deleted': { user: UserDto };
  'monitor.created': { monitor: MonitorDto };
  'monitor.updated': { monitor: MonitorDto };
  'monitor.deleted': { monitor: MonitorDto };
  /** Every stored check. `monitor` carries the state after it (history and checks left empty). */
  'monitor.checked': { monitor: MonitorDto; check: CheckDto; uptime: number };
  /** Raised once per transition, decided atomically in the database. */
  'monitor.status_changed': { monitor: MonitorDto; previous: MonitorStatus; status: MonitorStatus; check: CheckDto };
  'agent.created': { agent: AgentDto };
  'agent.updated': { agent: AgentDto };
  'agent.deleted': { agent: AgentDto };
  /** The newest report of an arrival (one socket message or HTTP post), before it is stored; `agent` has its figures. */
  'agent.reported': { agent: AgentDto; report: AgentReport; point: AgentMetricPoint };
  /** Raised once per transition, decided atomically in the database. */
  'agent.status_changed': { agent: AgentDto; previous: AgentStatus; status: AgentStatus; changedAt: string };
  'display_key.revoked': { id: number };
  /** The status page's configuration was saved. */
  'status.config_changed': Record<string, never>;
}

export type EventName = keyof EventMap;
