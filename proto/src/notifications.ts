/** Notifications: channel types and their configuration as the API reads and writes them. */
import type { ChannelType } from './channels';
import type { TargetFields } from './monitor-targets';

/** The JSON a generic webhook receives. */
export interface WebhookPayload {
  event: string;
  severity: 'alert' | 'recovery' | 'info';
  subject: string;
  text: string;
  target: { kind: NotificationTargetKind; id: number | null; name: string };
  sent_at: string;
  /** The monitor's or agent's page, when the server's PUBLIC_URL is set. */
  link?: string;
  /** The delivery's idempotency key (also the `X-Vigil-Delivery` header): the same on every retry, so drop repeats by it. */
  delivery_id?: string;
  /**
   * A grouped message (a storm within the channel's grouping window): every transition it stands for, each as a
   * single message would carry it. Absent when the message is about one transition.
   */
  items?: Array<Pick<WebhookPayload, 'event' | 'severity' | 'subject' | 'text' | 'target'> & { at: string }>;
}

export interface NotificationTemplateDto {
  id: number;
  name: string;
  /** The event it renders, e.g. monitor.down. */
  type: string;
  language: 'zh-CN' | 'en-US';
  subject: string;
  content: string;
  is_default: boolean;
}

export type ChannelLanguage = 'zh-CN' | 'en-US';
export const CHANNEL_LANGUAGES: readonly ChannelLanguage[] = ['zh-CN', 'en-US'];

/** A channel as `GET /api/notifications` lists it: `config` is a JSON string with every secret replaced by SECRET_MASK. */
export interface NotificationChannelDto {
  id: number;
  /** Stable name in configuration documents (`GET /api/export`). */
  key: string;
  name: string;
  type: ChannelType;
  config: string;
  enabled: boolean;
  /** Language of the templates its messages are rendered from. */
  language: ChannelLanguage;
  /** The custom template id chosen per event (`PUT …/channels/{id}/templates`); an event not listed uses the default. */
  templates?: Record<string, number>;
  /** Transitions within this many seconds go out as one message (0: each at once). */
  group_wait_seconds: number;
  /** While a storm lasts, at most one message per this many seconds. */
  group_interval_seconds: number;
  created_at: string;
  updated_at: string;
}

/**
 * `POST /api/notifications/channels` and `PUT …/{id}`: `config` is a JSON string (an object is accepted too).
 * On edit, a secret sent back as SECRET_MASK keeps the stored one.
 */
export interface ChannelRequest {
  /** Unique (CONFIG_KEY_PATTERN); absent on create: made from the name. */
  key?: string;
  name: string;
  type: ChannelType;
  enabled?: boolean;
  config: string | Record<string, unknown>;
  language?: ChannelLanguage;
  groupWaitSeconds?: number;
  groupIntervalSeconds?: number;
}

export const CHANNEL_GROUPING = { waitDefault: 10, intervalDefault: 60, waitMax: 600, intervalMax: 3600 } as const;

export interface MonitorNotificationSettings {
  enabled: boolean;
  onDown: boolean;
  onRecovery: boolean;
  /** `certificate.expiring` and `domain.expiring` at each of the monitor's thresholds, and their `.expired` (see docs/decisions.md). */
  onCertificateExpiry: boolean;
  /** A degraded spell opens its own alert. */
  onDegraded: boolean;
  channels: number[];
  /** Minutes between "still down" reminders while an alert is open and unacknowledged; null: none. */
  reminderMinutes: number | null;
  escalation: import('./alerts').EscalationStep[];
}

export interface AgentNotificationSettings {
  enabled: boolean;
  onOffline: boolean;
  onRecovery: boolean;
  onCpuThreshold: boolean;
  cpuThreshold: number;
  onMemoryThreshold: boolean;
  memoryThreshold: number;
  onDiskThreshold: boolean;
  diskThreshold: number;
  /** Load1 per CPU core, percent. */
  onLoadThreshold: boolean;
  loadThreshold: number;
  /** Degrees Celsius, any sensor. */
  onTemperatureThreshold: boolean;
  temperatureThreshold: number;
  /** Busy percent, any disk. */
  onDiskIoThreshold: boolean;
  diskIoThreshold: number;
  /** KB/s, any interface, received or sent. */
  onBandwidthThreshold: boolean;
  bandwidthThreshold: number;
  /** A container seen running stops or disappears (one alert per container). */
  onContainerDown: boolean;
  /** A container's health check says unhealthy. */
  onContainerUnhealthy: boolean;
  /** A watched systemd unit is in state `failed`. */
  onServiceFailed: boolean;
  channels: number[];
  reminderMinutes: number | null;
  escalation: import('./alerts').EscalationStep[];
}

export interface NotificationSettingsDto {
  monitors: MonitorNotificationSettings;
  agents: AgentNotificationSettings;
  /** Keyed by monitor id; only entries that were saved. */
  specificMonitors: Record<string, MonitorNotificationSettings & { overrideGlobal: boolean }>;
  specificAgents: Record<string, AgentNotificationSettings & { overrideGlobal: boolean }>;
}

export interface NotificationsResponse {
  success: true;
  data: {
    channels: NotificationChannelDto[];
    templates: NotificationTemplateDto[];
    settings: NotificationSettingsDto;
  };
}

export const SETTINGS_TARGET_TYPES = ['global-monitor', 'global-agent', 'monitor', 'agent'] as const;
export type SettingsTargetType = (typeof SETTINGS_TARGET_TYPES)[number];

/** `POST /api/notifications/settings`, one call per target; `channels` is a JSON string of ids (an array is accepted). */
export interface NotificationSettingsRequest {
  target_type: SettingsTargetType;
  /** Required for `monitor` and `agent`. */
  target_id?: number;
  enabled: boolean;
  on_down?: boolean;
  on_recovery?: boolean;
  /** Monitors only. */
  on_certificate_expiry?: boolean;
  on_offline?: boolean;
  on_cpu_threshold?: boolean;
  cpu_threshold?: number;
  on_memory_threshold?: boolean;
  memory_threshold?: number;
  on_disk_threshold?: boolean;
  disk_threshold?: number;
  /** Agents: load1 per CPU core, percent (1–1000). */
  on_load_threshold?: boolean;
  load_threshold?: number;
  /** Agents: degrees Celsius, any sensor (1–200). */
  on_temperature_threshold?: boolean;
  temperature_threshold?: number;
  /** Agents: busy percent, any disk (1–100). */
  on_disk_io_threshold?: boolean;
  disk_io_threshold?: number;
  /** Agents: KB/s, any interface, received or sent (1–20,000,000). */
  on_bandwidth_threshold?: boolean;
  bandwidth_threshold?: number;
  /** Agents: one alert per container that stopped or vanished after being seen running, per unhealthy container, per failed unit. */
  on_container_down?: boolean;
  on_container_unhealthy?: boolean;
  on_service_failed?: boolean;
  channels: string | number[];
  override_global?: boolean;
  /** Monitors only. */
  on_degraded?: boolean;
  reminder_minutes?: number | null;
  escalation?: import('./alerts').EscalationStep[];
}

/** `POST /api/notifications/channels/{id}/test` (and `/channels/test` for an unsaved channel): what the provider said. */
export interface ChannelTestResponse {
  success: boolean;
  message: string;
  data: { status: number | null; detail: string };
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'sent', 'failed'];
/** `maintenance`: a window's start and end notices (the target is the window). */
export type NotificationTargetKind = 'monitor' | 'agent' | 'test' | 'maintenance';

export interface DeliveryAttemptDto {
  attempt: number;
  ok: boolean;
  http_status: number | null;
  /** The provider's answer or the error, never containing a secret. */
  detail: string | null;
  duration_ms: number;
  at: string;
}

/** A history entry's monitor: its type and the fields its target is read from (`readableTarget`). */
export type NotificationHistoryMonitor = TargetFields & { url: string };

/** One notification to one channel, with its delivery attempts. */
export interface NotificationHistoryItem {
  id: number;
  event: string;
  severity: WebhookPayload['severity'];
  subject: string;
  text: string;
  target_kind: NotificationTargetKind;
  target_id: number | null;
  target_name: string;
  /**
   * The monitor of a monitor entry as it stands now, for showing its type and target as the monitor list does (URL
   * credentials masked); null for agents, tests and monitors deleted since.
   */
  monitor: NotificationHistoryMonitor | null;
  channel_id: number | null;
  channel_name: string;
  channel_type: ChannelType;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  tries: DeliveryAttemptDto[];
  /** The alert the notification belongs to (its acknowledgement is offered beside it); null for tests and older rows. */
  alert_id: number | null;
}

/** `GET /api/notifications/history?page=&pageSize=&status=&target_kind=&target_id=&channel_id=`, newest first. */
export interface NotificationHistoryResponse {
  success: true;
  items: NotificationHistoryItem[];
  total: number;
  page: number;
  pageSize: number;
}

/** The page of a notification's monitor, agent or maintenance window on this site (`/monitors/12`); null for a test message. */
export function targetPagePath(target: { kind: NotificationTargetKind; id: number | null }): string | null {
  if (target.id === null || target.kind === 'test') return null;
  if (target.kind === 'maintenance') return '/maintenance';
  return target.kind === 'monitor' ? `/monitors/${target.id}` : `/agents/${target.id}`;
}
