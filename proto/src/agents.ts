/** Agents as the browser sees them: REST bodies and live events. Field names follow the spec's Agent entity. */

export type AgentStatus = 'active' | 'inactive' | 'connecting';
export const AGENT_STATUSES: readonly AgentStatus[] = ['active', 'inactive', 'connecting'];

/**
 * What the list filters and counts by: a status, or `unreachable` — the offline agents (all `inactive`, as the spec
 * counts them) whose dependency is down, so a router's outage does not bury the hosts that failed on their own — or
 * `maintenance`, the agents a maintenance window covers now.
 */
export type AgentListStatus = AgentStatus | 'unreachable' | 'maintenance';
export const AGENT_LIST_STATUSES: readonly AgentListStatus[] = [...AGENT_STATUSES, 'unreachable', 'maintenance'];

/** How an agent talks to us: the Vigil agent's socket, or xugou's HTTP reporting. */
export type AgentProtocol = 'socket' | 'http';

export const AGENT_NAME_MAX = 100;

export interface AgentDiskDto {
  mount: string;
  fs: string;
  /** Bytes. */
  total: number;
  used: number;
}

export interface AgentInterfaceDto {
  name: string;
  /** KB/s. */
  rx_rate: number;
  tx_rate: number;
}

export interface AgentDto {
  id: number;
  name: string;
  hostname: string;
  /** The first reported address (spec field); every address is in `ip_addresses`. */
  ip_address: string | null;
  ip_addresses: string[];
  os: string | null;
  /** The agent program's version. */
  version: string | null;
  platform: string | null;
  kernel: string | null;
  arch: string | null;
  cpu_model: string | null;
  cpu_cores: number | null;
  status: AgentStatus;
  protocol: AgentProtocol;
  /** Reporting interval, seconds. */
  interval: number;
  /** Percent of the last report. */
  cpu_usage: number | null;
  /** Bytes. */
  memory_total: number | null;
  memory_used: number | null;
  swap_total: number | null;
  swap_used: number | null;
  /** Bytes, summed over the reported disks. */
  disk_total: number | null;
  disk_used: number | null;
  /** KB/s, summed over the reported interfaces. */
  network_rx: number | null;
  network_tx: number | null;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  /** Seconds since the host booted, at the last report. */
  host_uptime: number | null;
  disks: AgentDiskDto[];
  interfaces: AgentInterfaceDto[];
  /** The registration token it enrolled with (its id, never the token), so the create page can spot it. */
  registration_id: number | null;
  created_at: string;
  /** Time of the last report, or of the last change when it never reported. */
  updated_at: string;
  /** Monitors and agents this agent depends on (its offline alert is held while one of them is down). */
  depends_on: import('./monitors').DependencyRef[];
  /** Offline while a dependency is down: shown as unreachable, sends nothing of its own. */
  unreachable: boolean;
  /** No notifications until this time (ISO); null: not muted. */
  muted_until: string | null;
  /** A maintenance window covers it: its status stays what it is, but going offline alerts nobody until the window ends. */
  maintenance: boolean;
}

/**
 * Agents per status (active + inactive + connecting = total); `unreachable` is the part of `inactive` behind a down
 * dependency; `maintenance` counts those a maintenance window covers, whatever their status.
 */
export interface AgentCounts {
  active: number;
  inactive: number;
  connecting: number;
  unreachable: number;
  maintenance: number;
  total: number;
}

/** `GET /api/agents?page=&pageSize=&status=&search=` (no paging parameters: every agent; `status` an AgentListStatus). */
export interface AgentsResponse {
  success: true;
  agents: AgentDto[];
  total: number;
  page: number;
  pageSize: number;
  /** Over every agent, whatever the page (see AgentCounts). */
  counts: AgentCounts;
}

export interface AgentResponse {
  success: true;
  message?: string;
  agent: AgentDto;
}

export interface AgentUpdateRequest {
  name: string;
  /** Replaces the agent's dependencies; `depends_on` is read as the same field. A cycle is refused (400). */
  dependsOn?: import('./monitors').DependencyRef[];
  depends_on?: import('./monitors').DependencyRef[];
}

/** `POST /api/agents/token/generate`. The token is shown once; only its hash is stored. */
export interface AgentTokenResponse {
  success: true;
  token: string;
  message: string;
  token_id: number;
  expires_at: string;
  /** The address agents should use (PUBLIC_URL); null: the browser's own origin. */
  server_url: string | null;
}

export type AgentMetricsRange = '1h' | '24h' | '7d' | '30d';
export const AGENT_METRICS_RANGES: readonly AgentMetricsRange[] = ['1h', '24h', '7d', '30d'];

/** One chart point: averages over its bucket (percentages 0–100, network KB/s). */
export interface AgentMetricPoint {
  /** Start of the bucket. */
  time: string;
  cpu: number;
  cpu_max: number;
  memory: number | null;
  disk: number | null;
  rx: number;
  tx: number;
  load1: number | null;
}

/**
 * `GET /api/agents/{id}/insight`: the host's newest protocol 2 figures (issue 32). Each part is null when the agent
 * never sent it (a protocol 1 agent, not Linux, no hwmon); `containers` is also null when the agent cannot read an
 * Engine API socket, and `[]` when it can and none exist.
 */
export interface AgentInsightDto {
  reported_at: string | null;
  disk_io: import('./agent').AgentDiskIoReport[] | null;
  sensors: import('./agent').AgentSensorReport[] | null;
  containers: import('./agent').AgentContainerReport[] | null;
  services: import('./agent').AgentServiceReport[] | null;
}

export interface AgentInsightResponse {
  success: true;
  insight: AgentInsightDto;
}

/** Kinds of per-device history: block devices' I/O, interfaces' traffic, temperature sensors. */
export const AGENT_DEVICE_KINDS = ['disk', 'nic', 'temp'] as const;
export type AgentDeviceKind = (typeof AGENT_DEVICE_KINDS)[number];

/** One bucket of one device: disk `read`/`write` KB/s and `busy` %; nic `rx`/`tx` KB/s; temp `celsius` (mean) and `celsius_max`. */
export interface AgentDevicePoint {
  time: string;
  read?: number;
  write?: number;
  busy?: number;
  rx?: number;
  tx?: number;
  celsius?: number;
  celsius_max?: number;
}

export interface AgentDeviceSeries {
  kind: AgentDeviceKind;
  name: string;
  points: AgentDevicePoint[];
}

/** `GET /api/agents/{id}/devices?range=&kind=`: per-disk, per-interface or per-sensor history, one series each. */
export interface AgentDevicesResponse {
  success: true;
  devices: { range: AgentMetricsRange; step: number; kind: AgentDeviceKind; series: AgentDeviceSeries[] };
}

export interface AgentMetricsResponse {
  success: true;
  metrics: {
    range: AgentMetricsRange;
    /** Bucket width, seconds. */
    step: number;
    points: AgentMetricPoint[];
  };
}

/** Live: an agent reported (to `agents` and `agent:<id>`). `agent` carries the new latest figures. */
export interface AgentReportedEvent {
  agentId: number;
  agent: AgentDto;
  /** The report as a chart point (bucket = the report's own time). */
  point: AgentMetricPoint;
}

/** Live: a status transition (to `agents` and `agent:<id>`). */
export interface AgentStatusChangedEvent {
  agentId: number;
  name: string;
  previous: AgentStatus;
  status: AgentStatus;
  /**
   * Whether it was and is unreachable (only ever while `inactive`), so lists move it between the right counts. The
   * server always sends both; absent reads as false.
   */
  previous_unreachable?: boolean;
  unreachable?: boolean;
  changed_at: string;
}

/** Live: an agent enrolled, was renamed or deleted (to `agents` and `agent:<id>`). */
export interface AgentsChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  agent: AgentDto;
}
