import type {
  AgentDto,
  AgentMetricPoint,
  AgentReport,
  AgentStatus,
  CheckDto,
  MonitorDto,
  MonitorStatus,
  PublicAgent,
  PublicMonitor,
  UserDto,
} from '@vigil/proto';

/** A monitor's transition as its writer stores it (inside the writing transaction). */
export interface MonitorTransition {
  monitor: { id: number; name: string; url: string; expected_status: number };
  previous: MonitorStatus;
  status: MonitorStatus;
  check: { id: number; status_code: number | null; response_time: number | null; error: string | null; checked_at: Date };
}

export interface AgentTransition {
  agent: AgentDto;
  previous: AgentStatus;
  status: AgentStatus;
}

export interface AgentReading {
  agent: AgentDto;
  point: AgentMetricPoint;
}

/** One item of the public status page as it stands after a check or report. */
export type StatusItemChange = { monitor: PublicMonitor; agent?: never } | { agent: PublicAgent; monitor?: never };

/**
 * Every domain event: name → payload. Writers raise the batch events of TRANSACTION_EVENTS inside the transaction
 * that stores them (`emitInTransaction`); everything else is raised after commit (`emit`). A listener declares the
 * phase it hears (see `OnEvent`), and the types keep it to the events raised in that phase.
 */
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
  /** The transitions of one stored batch of checks, inside its transaction. */
  'monitor.transitions': MonitorTransition[];
  'agent.created': { agent: AgentDto };
  'agent.updated': { agent: AgentDto };
  'agent.deleted': { agent: AgentDto };
  /** The newest report of an arrival (one socket message or HTTP post), before it is stored; `agent` has its figures. */
  'agent.reported': { agent: AgentDto; report: AgentReport; point: AgentMetricPoint };
  /** Raised once per transition, decided atomically in the database. */
  'agent.status_changed': { agent: AgentDto; previous: AgentStatus; status: AgentStatus; changedAt: string };
  /** The transitions of one stored batch (reports or the presence sweep), inside its transaction. */
  'agent.transitions': AgentTransition[];
  /** Every stored report of one batch, oldest first per agent, inside its transaction. */
  'agent.readings': AgentReading[];
  'display_key.revoked': { id: number };
  /** The status page's configuration was saved. */
  'status.config_changed': Record<string, never>;
  /** A selected item of the status page changed (decided by the instance that stored the check or took the report). */
  'status.item_changed': StatusItemChange;
  /** This instance's link to the others came back after a break: its memory may have missed their changes. */
  'server_events.resumed': Record<string, never>;
}

export type EventName = keyof EventMap;

/** Raised inside the writer's transaction, heard by the listeners of phase `transaction` (the notification outbox). */
export type TransactionEventName = 'monitor.transitions' | 'agent.transitions' | 'agent.readings';
/** Raised after commit, heard by the listeners of phase `commit` (pushes, memory). */
export type CommitEventName = Exclude<EventName, TransactionEventName>;

/**
 * Events that are also sent to the other instances (through Redis, when REDIS_URL is set), because they change what
 * instances hold in memory: the status page snapshot, the user in a browser socket's data, the agent row an agent
 * socket keeps. There, only listeners declared `everyInstance` hear them. Their payloads must survive JSON.
 */
export const SERVER_EVENTS = [
  'user.updated',
  'user.deleted',
  'monitor.created',
  'monitor.updated',
  'monitor.deleted',
  'agent.created',
  'agent.updated',
  'agent.deleted',
  'status.config_changed',
  'status.item_changed',
] as const satisfies readonly CommitEventName[];

export type ServerEventName = (typeof SERVER_EVENTS)[number];

export function isServerEvent(name: EventName): name is ServerEventName {
  return (SERVER_EVENTS as readonly EventName[]).includes(name);
}
