import type {
  AgentDto,
  AlertDto,
  AgentMetricPoint,
  AgentReport,
  AgentStatus,
  CheckDto,
  DependencyRef,
  IncidentDto,
  MaintenanceDto,
  MonitorDto,
  MonitorLocationEvent,
  LocationStatus,
  MonitorStatus,
  PublicAgent,
  ProbeResultReport,
  PublicMonitor,
  UserDto,
} from '@vigil/proto';
import type { DomainExpiry, PeerCertificate } from '../monitors/checkers/checker';

/** One item of the public status page as it stands after a check or report. */
export type StatusItemChange = { monitor: PublicMonitor; agent?: never } | { agent: PublicAgent; monitor?: never };

/**
 * A component of the status pages (rows of `status_pages`) as it stands after a check or report, before each page
 * shows it its way: a monitor with the check that moved it (its day's bar counts it), or an agent's figures.
 */
export type PageComponentChange =
  | {
      monitor: {
        id: number;
        status: MonitorStatus;
        active: boolean;
        response_time: number | null;
        certificate_days: number | null;
        /** The stored check as the hourly aggregates count it (up or not, and when); null: not counted (maintenance). */
        check: { ok: boolean; at: string } | null;
      };
      agent?: never;
    }
  | {
      agent: {
        id: number;
        status: AgentStatus;
        unreachable: boolean;
        maintenance: boolean;
        hostname: string;
        ip_address: string | null;
        cpu: number | null;
        memory: number | null;
        disk: number | null;
      };
      monitor?: never;
    };

/**
 * Every domain event, declared once: name → payload. A fact a writing transaction stores (WrittenEventName) is raised
 * once inside it (`DomainEvents.transaction`) and heard in two phases: inside the transaction by the listeners that
 * declared phase `transaction` (the notification outbox), after commit by those of phase `commit` (pushes, memory).
 * Every other event is raised after its change is committed (`emit`) and heard in phase `commit` only.
 */
export interface EventMap {
  'user.created': { user: UserDto };
  'user.updated': { user: UserDto };
  'user.deleted': { user: UserDto };
  'monitor.created': { monitor: MonitorDto };
  'monitor.updated': { monitor: MonitorDto };
  'monitor.deleted': { monitor: MonitorDto };
  /**
   * Every stored check. `monitor` carries the state after it (history and checks left empty); `certificate` the peer
   * certificate this check saw (TLS-using types), for the certificate-expiry alerts.
   */
  /** `certificate` and `domainExpiry`: what the check saw that expires (ExpiryAlertsService announces its thresholds). */
  'monitor.checked': {
    monitor: MonitorDto;
    check: CheckDto;
    uptime: number;
    certificate: PeerCertificate | null;
    domainExpiry?: DomainExpiry | null;
  };
  /**
   * Raised once per transition, decided atomically in the database. `cause`: for a move to `unreachable`, the
   * dependency that was down (the dependents of a target: DependenciesRepository.dependentsOf).
   */
  'monitor.status_changed': {
    monitor: MonitorDto;
    previous: MonitorStatus;
    status: MonitorStatus;
    check: CheckDto;
    cause?: (DependencyRef & { name: string }) | null;
  };
  /** The monitor started or stopped flapping (monitor-state.ts `flappingAfter`), raised with the check that decided it. */
  'monitor.flapping_changed': { monitor: MonitorDto; flapping: boolean; check: CheckDto };
  'agent.created': { agent: AgentDto };
  'agent.updated': { agent: AgentDto };
  'agent.deleted': { agent: AgentDto };
  /** The agent's host enrolled again with its registration token: its previous credential no longer works. */
  'agent.credential_replaced': { id: number };
  /**
   * The newest report of an arrival (one socket message or HTTP post), raised on arrival so live screens never wait
   * for the database; `agent` has its figures. Storing it is `agent.report_stored`.
   */
  'agent.reported': { agent: AgentDto; report: AgentReport; point: AgentMetricPoint };
  /** Raised once per transition, decided atomically in the database. */
  'agent.status_changed': {
    agent: AgentDto;
    previous: AgentStatus;
    /** Whether it was unreachable before (its new flag is `agent.unreachable`). */
    previousUnreachable: boolean;
    status: AgentStatus;
    changedAt: string;
    /** Gone offline while a dependency was down (`agent.unreachable`): that dependency. */
    cause?: DependencyRef & { name: string };
  };
  /** Every stored report, oldest first per agent (what the threshold alerts count); `agent` as stored with it. */
  'agent.report_stored': {
    agent: AgentDto;
    point: AgentMetricPoint;
    /** The report's own interface rates and protocol 2 parts (null from a protocol 1 agent), for the host alert rules. */
    interfaces: Array<Pick<AgentReport['interfaces'][number], 'name' | 'rx_rate' | 'tx_rate'>>;
    insight: Pick<AgentReport, 'disk_io' | 'sensors' | 'containers' | 'services'> | null;
  };
  /**
   * No maintenance window covers the agent any more (decided once, in the transaction that cleared its flag): one
   * still offline gets the offline alert its silence inside the window did not send.
   */
  'agent.maintenance_ended': { agent: AgentDto; at: string };
  /** An agent sent results of checks assigned to it (validated, on the instance holding its socket). */
  'probe.results': { agentId: number; results: ProbeResultReport[] };
  /**
   * A location of a monitor got a result (stored), or its agent came or went: pushed to `monitors` and
   * `monitor:<id>`. `previous`: its standing before, as stored (null before any), so listeners tell a change from a
   * repeat without keeping their own copy.
   */
  'monitor.location_checked': MonitorLocationEvent & { previous: LocationStatus | null };
  'display_key.revoked': { id: number };
  /** The status page's configuration was saved. */
  'status.config_changed': Record<string, never>;
  /** A selected item of the status page changed (decided by the instance that stored the check or took the report). */
  'status.item_changed': StatusItemChange;
  /** An alert opened, was acknowledged, reminded, escalated or closed (committed): pushed to the `alerts` room. */
  'alert.changed': { alert: AlertDto };
  /**
   * An incident was created, changed (its fields or a new update) or deleted (committed). `pageIds`: the pages it is
   * on now and was on before, whose data changes with it (none while it is a draft before and after).
   */
  'incident.changed': { action: 'created' | 'updated' | 'deleted'; incident: IncidentDto; pageIds: number[] };
  /**
   * A maintenance window was saved or deleted, or one of its occurrences started or ended (decided once across
   * instances). `pageIds` as for incidents.
   */
  'maintenance.changed': {
    action: 'created' | 'updated' | 'deleted' | 'started' | 'ended';
    maintenance: MaintenanceDto;
    pageIds: number[];
  };
  /** A component of one or more status pages changed (decided by the instance that stored the check or took the report). */
  'status_page.component_changed': PageComponentChange;
  /** A status page was created, saved or deleted (committed): its projection is dropped on every instance. */
  'status_page.changed': { pageId: number; slug: string; previousSlug?: string };
  /** This instance's link to the others came back after a break: its memory may have missed their changes. */
  'server_events.resumed': Record<string, never>;
}

export type EventName = keyof EventMap;

/**
 * Facts raised by the transaction that stores them, so that phase `transaction` listeners can write with them (the
 * outbox commits with the transition or not at all). Only these can be heard in phase `transaction`.
 */
export type WrittenEventName =
  | 'monitor.checked'
  | 'monitor.status_changed'
  | 'monitor.flapping_changed'
  | 'agent.status_changed'
  | 'agent.report_stored'
  | 'agent.maintenance_ended';
/** Raised after the change is committed (or with nothing stored), by `emit`. */
export type EmittedEventName = Exclude<EventName, WrittenEventName>;

/**
 * Events that are also sent to the other instances (through Redis, when REDIS_URL is set), because they change what
 * instances hold in memory: the status page snapshot, the user in a browser socket's data, the agent row an agent
 * socket keeps, the agent sockets a replaced credential drops. There, only listeners declared `everyInstance` hear
 * them. Their payloads must survive JSON.
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
  'agent.credential_replaced',
  'status.config_changed',
  'status.item_changed',
  'incident.changed',
  'maintenance.changed',
  'status_page.changed',
  'status_page.component_changed',
] as const satisfies readonly EmittedEventName[];

export type ServerEventName = (typeof SERVER_EVENTS)[number];

export function isServerEvent(name: EventName): name is ServerEventName {
  return (SERVER_EVENTS as readonly EventName[]).includes(name);
}
