/** Public status page, NOC wall and dashboard: REST bodies and live events. */
import type { AgentStatus } from './agents';
import type { MonitorType } from './monitor-types';
import type { HistoryPoint, MonitorsResponse, MonitorStatus } from './monitors';

export const STATUS_LIMITS = {
  titleMax: 100,
  descriptionMax: 1_000,
  logoUrlMax: 2_048,
  customCssMax: 50_000,
  displayKeyNameMax: 100,
} as const;

/** 'all operational', 'some issues', 'major outage' (rule in docs/decisions.md). */
export type OverallStatus = 'operational' | 'degraded' | 'outage';

export interface StatusPageSettings {
  title: string;
  description: string;
  logoUrl: string | null;
  customCss: string | null;
  /** Show agents' CPU / memory / disk bars; off: their system information instead. */
  showResources: boolean;
}

export interface StatusConfigItem {
  id: number;
  name: string;
  selected: boolean;
}

export interface StatusConfig extends StatusPageSettings {
  monitors: StatusConfigItem[];
  agents: StatusConfigItem[];
}

/** `GET /api/status/config`. */
export interface StatusConfigResponse {
  success: true;
  config: StatusConfig;
}

/** `POST /api/status/config`: the selected ids. */
export interface StatusConfigRequest {
  title: string;
  description?: string;
  logoUrl?: string | null;
  customCss?: string | null;
  showResources?: boolean;
  monitors: number[];
  agents: number[];
}

/** A monitor as anyone may see it: never its URL, headers or body. */
export interface PublicMonitor {
  id: number;
  name: string;
  status: MonitorStatus;
  /** Percent over 24 h, 2 decimals. */
  uptime: number;
  /** Milliseconds of the last check. */
  response_time: number | null;
  /** The 24 most recent statuses, oldest first. */
  history: HistoryPoint[];
  last_checked: string | null;
  /** False while checks are paused: shown as paused, ranked last, left out of the overall status. */
  active: boolean;
  /** The monitor's type, shown as an icon (issue 16); never its target, token or connection string. Absent: http. */
  type?: MonitorType;
  /** Days the last seen certificate has left, for TLS-using monitors; null or absent otherwise. */
  certificate_days?: number | null;
  /** The certificate alert thresholds, which colour those days. */
  cert_expiry_days?: number[];
  /** Changing state too often (MonitorDto.flapping); absent: not flapping. */
  flapping?: boolean;
}

export interface PublicAgent {
  id: number;
  name: string;
  status: AgentStatus;
  hostname: string;
  ip_address: string | null;
  os: string | null;
  /** Percentages with one decimal; null when resource display is off or nothing was reported. */
  cpu: number | null;
  memory: number | null;
  disk: number | null;
  updated_at: string;
  /** Offline while a dependency is down (AgentDto.unreachable); absent: false. */
  unreachable?: boolean;
  /** A maintenance window covers it (AgentDto.maintenance); absent: false. */
  maintenance?: boolean;
}

export interface StatusData extends StatusPageSettings {
  overall: OverallStatus;
  monitors: PublicMonitor[];
  agents: PublicAgent[];
  updated_at: string;
}

/** `GET /api/status/data` (public). */
export interface StatusDataResponse {
  success: true;
  data: StatusData;
}

/** One entry of the feed of recent status changes (dashboard, wall). */
export interface StatusChange {
  kind: 'monitor' | 'agent';
  id: number;
  name: string;
  previous: MonitorStatus | AgentStatus;
  status: MonitorStatus | AgentStatus;
  at: string;
}

/** Live, to the `status` room: one selected item changed, with the overall status after it. */
export interface StatusItemEvent {
  monitor?: PublicMonitor;
  agent?: PublicAgent;
  overall: OverallStatus;
  updated_at: string;
}

/** `GET /api/dashboard`. */
export interface DashboardResponse {
  success: true;
  dashboard: {
    monitors: MonitorsResponse['counts'];
    agents: import('./agents').AgentCounts;
    /** Percent of successful checks over 24 h across every monitor; null without checks. */
    uptime: number | null;
    /** Milliseconds, mean over 24 h across every monitor. */
    avg_response_time: number | null;
    /** Newest first, at most 10. */
    recent_changes: StatusChange[];
  };
}

/** A monitor on the wall: its public item and, for one checked from agents or from several locations, how many fail. */
export interface WallMonitor extends PublicMonitor {
  /** Locations whose last result failed, counting only known ones (fresh, agent online); absent: checked from the server alone. */
  locations_failing?: number;
  /** How many locations it is checked from; absent with `locations_failing`. */
  locations_total?: number;
}

/** Live, to `wall`: a location of a monitor started or stopped failing; the monitor's counts after it. */
export interface WallLocationsEvent {
  monitor_id: number;
  locations_failing: number;
  locations_total: number;
  /** When the counts were read, dating them against a read of the wall. */
  at: string;
}

/** The NOC wall: every monitor and agent, problems first. */
export interface WallData {
  overall: OverallStatus;
  monitors: WallMonitor[];
  agents: PublicAgent[];
  recent_changes: StatusChange[];
  updated_at: string;
}

/** `GET /api/wall/data` (a display key or a signed-in user). */
export interface WallDataResponse {
  success: true;
  data: WallData;
}

export interface DisplayKeyDto {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface DisplayKeysResponse {
  success: true;
  keys: DisplayKeyDto[];
}

/** `POST /api/wall/keys`: the key is shown once. */
export interface DisplayKeyCreatedResponse {
  success: true;
  message: string;
  key: DisplayKeyDto;
  secret: string;
}
