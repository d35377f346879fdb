/**
 * Notification templates: the events a template renders, the variables each event fills, the one renderer (server
 * messages, the preview endpoint and the client's live preview all use it, so they agree), and the bodies of the
 * template routes. A template is plain text with `{{variable}}` placeholders: no expressions, no helpers, nothing
 * runs; a channel that shows HTML escapes the rendered text at its edge.
 */
import { readableTarget } from './monitor-targets';
import type { MonitorTypeSpec } from './monitor-type-specs';
import type { MonitorType } from './monitor-types';
import { MONITOR_TYPE_SPECS } from './type-specs';
import type { NotificationTemplateDto } from './notifications';

export const NOTIFICATION_EVENTS = [
  'monitor.down',
  'monitor.recovery',
  'agent.offline',
  'agent.recovery',
  'agent.cpu_high',
  'agent.memory_high',
  'agent.disk_high',
  'agent.cpu_recovery',
  'agent.memory_recovery',
  'agent.disk_recovery',
  'agent.load_high',
  'agent.temperature_high',
  'agent.disk_io_high',
  'agent.bandwidth_high',
  'agent.load_recovery',
  'agent.temperature_recovery',
  'agent.disk_io_recovery',
  'agent.bandwidth_recovery',
  'agent.container_down',
  'agent.container_recovery',
  'agent.container_unhealthy',
  'agent.container_healthy',
  'agent.service_failed',
  'agent.service_recovery',
  'certificate.expiring',
  'certificate.expired',
  'domain.expiring',
  'domain.expired',
  'monitor.degraded',
  'monitor.degraded_recovery',
  'monitor.flapping',
  'monitor.flapping_settled',
  'alert.reminder',
  'alert.escalation',
  'alert.acknowledged',
  'maintenance.started',
  'maintenance.ended',
  'test',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const TEMPLATE_LANGUAGES = ['zh-CN', 'en-US'] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

export const TEMPLATE_LIMITS = { name: 100, subject: 200, content: 4000 } as const;

/** A variable's words in each language. */
export type Localized = Readonly<Record<TemplateLanguage, string>>;

/** The dictionary key (client `i18n/locales`) that names a variable on screen; camelCase, as i18next reads `_x` as a context. */
const label = (name: string) => `notifications.templates.vars.${name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}`;

const MONITOR_VARIABLES = [
  'name',
  'status',
  'previous_status',
  'time',
  'type',
  'target',
  'url',
  'response_time',
  'status_code',
  'expected_status',
  'error',
  'dependents',
] as const;
/** Issue 32: a down monitor that names its host agent tells that host's state (the whole block, or its parts). */
const HOST_VARIABLES = ['host', 'host_name', 'host_figures', 'host_changes'] as const;
const AGENT_VARIABLES = ['name', 'hostname', 'ip_addresses', 'os', 'status', 'previous_status', 'time', 'dependents'] as const;
/** What an alert's reminder, escalation and acknowledgement say of it (`since`: when it opened; `minutes`: how long ago). */
const ALERT_VARIABLES = ['name', 'alert', 'since', 'minutes', 'time'] as const;
const METRIC_VARIABLES = ['name', 'hostname', 'ip_addresses', 'os', 'metric', 'value', 'threshold', 'time'] as const;
/** Issue 32's host thresholds also name the item: the sensor, disk or interface (empty for load). */
const HOST_METRIC_VARIABLES = [...METRIC_VARIABLES, 'item'] as const;
/** A container's or systemd unit's alert: the host, the item (container or unit name) and what it was seen in. */
const HOST_ITEM_VARIABLES = ['name', 'hostname', 'ip_addresses', 'os', 'item', 'state', 'time'] as const;
const CONTAINER_VARIABLES = [...HOST_ITEM_VARIABLES, 'image', 'health'] as const;
const SERVICE_VARIABLES = [...HOST_ITEM_VARIABLES, 'sub_state'] as const;
const CERTIFICATE_VARIABLES = ['name', 'target', 'url', 'days_remaining', 'threshold', 'expires_at', 'issuer', 'time'] as const;
/** A domain registration's expiry: the same figures as a certificate's, and the registered domain. */
const DOMAIN_VARIABLES = ['name', 'domain', 'days_remaining', 'threshold', 'expires_at', 'time'] as const;
/** A maintenance window's notices: its title (`name`), its occurrence (`start`, `end`), and what it covers. */
const MAINTENANCE_VARIABLES = ['name', 'start', 'end', 'covers', 'time'] as const;

const named = (names: readonly string[]): Readonly<Record<string, string>> => Object.fromEntries(names.map((name) => [name, label(name)]));

/** The variables each event fills (name → the dictionary key of its friendly name); a template may use only these. */
export const TEMPLATE_VARIABLES: Readonly<Record<NotificationEvent, Readonly<Record<string, string>>>> = {
  'monitor.down': named([...MONITOR_VARIABLES, ...HOST_VARIABLES]),
  'monitor.recovery': named(MONITOR_VARIABLES),
  'agent.offline': named(AGENT_VARIABLES),
  'agent.recovery': named(AGENT_VARIABLES),
  'agent.cpu_high': named(METRIC_VARIABLES),
  'agent.memory_high': named(METRIC_VARIABLES),
  'agent.disk_high': named(METRIC_VARIABLES),
  'agent.cpu_recovery': named(METRIC_VARIABLES),
  'agent.memory_recovery': named(METRIC_VARIABLES),
  'agent.disk_recovery': named(METRIC_VARIABLES),
  'agent.load_high': named(HOST_METRIC_VARIABLES),
  'agent.load_recovery': named(HOST_METRIC_VARIABLES),
  'agent.temperature_high': named(HOST_METRIC_VARIABLES),
  'agent.temperature_recovery': named(HOST_METRIC_VARIABLES),
  'agent.disk_io_high': named(HOST_METRIC_VARIABLES),
  'agent.disk_io_recovery': named(HOST_METRIC_VARIABLES),
  'agent.bandwidth_high': named(HOST_METRIC_VARIABLES),
  'agent.bandwidth_recovery': named(HOST_METRIC_VARIABLES),
  'agent.container_down': named(CONTAINER_VARIABLES),
  'agent.container_recovery': named(CONTAINER_VARIABLES),
  'agent.container_unhealthy': named(CONTAINER_VARIABLES),
  'agent.container_healthy': named(CONTAINER_VARIABLES),
  'agent.service_failed': named(SERVICE_VARIABLES),
  'agent.service_recovery': named(SERVICE_VARIABLES),
  'certificate.expiring': named(CERTIFICATE_VARIABLES),
  'certificate.expired': named(CERTIFICATE_VARIABLES),
  'domain.expiring': named(DOMAIN_VARIABLES),
  'domain.expired': named(DOMAIN_VARIABLES),
  'monitor.degraded': named(MONITOR_VARIABLES),
  'monitor.degraded_recovery': named(MONITOR_VARIABLES),
  'monitor.flapping': named(['name', 'type', 'target', 'status', 'time']),
  'monitor.flapping_settled': named(['name', 'type', 'target', 'status', 'time']),
  'alert.reminder': named(ALERT_VARIABLES),
  'alert.escalation': named([...ALERT_VARIABLES, 'step']),
  'alert.acknowledged': named([...ALERT_VARIABLES, 'acknowledged_by', 'note']),
  'maintenance.started': named(MAINTENANCE_VARIABLES),
  'maintenance.ended': named(MAINTENANCE_VARIABLES),
  test: named(['name', 'time']),
};

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

export type TemplateValues = Record<string, string | number | null | undefined>;

/** Fills `{{variable}}` placeholders with plain values; unknown or empty ones become '-'. Nothing else is interpreted. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_, key: string) => {
    const value = Object.prototype.hasOwnProperty.call(values, key) ? values[key] : undefined;
    return value === undefined || value === null || value === '' ? '-' : String(value);
  });
}

/** The variables a text uses, each once, in order of appearance. */
export function templateVariables(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/** The variables of `texts` that `event` does not fill. */
export function unknownVariables(event: NotificationEvent, ...texts: string[]): string[] {
  const known = TEMPLATE_VARIABLES[event];
  return [...new Set(texts.flatMap(templateVariables))].filter((name) => !Object.prototype.hasOwnProperty.call(known, name));
}

/** How the `type` variable names each monitor type (from its spec). */
export const TYPE_NAMES = Object.fromEntries(
  Object.entries(MONITOR_TYPE_SPECS).map(([type, spec]) => [type, spec.name]),
) as unknown as Readonly<Record<MonitorType, Localized>>;

/** The `target` of a monitor whose type reaches nothing (push: the heartbeat, group: its members), from its spec. */
export function targetlessName(type: MonitorType): Localized {
  const spec: MonitorTypeSpec = MONITOR_TYPE_SPECS[type];
  return spec.targetless ?? { 'en-US': '-', 'zh-CN': '-' };
}

/** What a preview fills the variables with: the same figures in both languages, only the words differ. */
const SAMPLE_FIGURES: TemplateValues = {
  status: 'down',
  previous_status: 'up',
  time: '2026-11-23 08:15:02 UTC',
  response_time: 245,
  status_code: 503,
  expected_status: '200-299',
  hostname: 'web-01',
  ip_addresses: '192.0.2.10, 2001:db8::10',
  os: 'Ubuntu 24.04',
  metric: 'CPU',
  value: 93.5,
  threshold: 90,
  days_remaining: 6,
  expires_at: '2026-11-29 08:15:02 UTC',
  issuer: "Let's Encrypt R11",
  domain: 'example.com',
  since: '2026-11-23 07:45:02 UTC',
  minutes: 30,
  step: 1,
  acknowledged_by: 'admin',
  dependents: null,
  start: '2026-11-23 02:00:00 UTC',
  end: '2026-11-23 04:00:00 UTC',
  item: 'eth0',
  host_name: 'web-01',
  image: 'nginx:1.27',
  health: 'unhealthy',
  sub_state: 'failed',
};

const SAMPLES: Record<TemplateLanguage, TemplateValues> = {
  'en-US': {
    ...SAMPLE_FIGURES,
    name: 'Example API',
    error: 'Expected status 200-299, got 503',
    alert: 'down',
    note: 'Looking into it',
    covers: '3 monitors, 1 agent',
    host_figures: 'CPU 97%, memory 91%, disk / 99%, load 3.2 2.1 1.05',
    host_changes: 'container api exited 2 min ago; nginx.service failed',
    host: 'Host web-01: CPU 97%, memory 91%, disk / 99%, load 3.2 2.1 1.05\nHost changes: container api exited 2 min ago; nginx.service failed',
  },
  'zh-CN': {
    ...SAMPLE_FIGURES,
    name: '示例 API',
    error: '期望状态码 200-299，实际为 503',
    alert: '故障',
    note: '正在处理',
    covers: '3 个监控、1 台服务器',
    host_figures: 'CPU 97%，内存 91%，磁盘 / 99%，负载 3.2 2.1 1.05',
    host_changes: '容器 api 已退出（2 分钟前）；nginx.service 失败',
    host: '主机 web-01：CPU 97%，内存 91%，磁盘 / 99%，负载 3.2 2.1 1.05\n主机变化：容器 api 已退出（2 分钟前）；nginx.service 失败',
  },
};

/**
 * Example values for a preview: what a real message of `event` would fill in, in `language`; a monitor's event reads
 * its type and target as a monitor of `monitorType` would (HTTP by default).
 */
export function sampleValues(event: NotificationEvent, language: TemplateLanguage, monitorType: MonitorType = 'http'): TemplateValues {
  const url = monitorType === 'http' || monitorType === 'websocket' ? 'https://example.com/health' : `${monitorType}://example.com:443`;
  const target =
    readableTarget({ type: monitorType, hostname: 'example.com', port: 443, dns_record_type: 'A', url }) ??
    targetlessName(monitorType)[language];
  const values: TemplateValues = { ...SAMPLES[language], type: TYPE_NAMES[monitorType][language], target, url };
  if (event.startsWith('certificate.') || event.startsWith('domain.')) values.threshold = 7;
  if (event.startsWith('agent.container_')) Object.assign(values, { item: 'web', state: 'exited' });
  if (event.startsWith('agent.service_')) Object.assign(values, { item: 'nginx.service', state: 'failed' });
  if (monitorType !== 'http') Object.assign(values, { status_code: null, expected_status: null });
  return values;
}

/** `POST /api/notifications/templates` and `PUT …/{id}`: a custom template. */
export interface TemplateRequest {
  name: string;
  event: NotificationEvent;
  language: TemplateLanguage;
  subject: string;
  content: string;
}

/** `POST /api/notifications/templates/preview`: texts rendered with sample values, saved or not. */
export interface TemplatePreviewRequest {
  subject: string;
  content: string;
  event: NotificationEvent;
  language: TemplateLanguage;
  /** A monitor event's example monitor type (HTTP by default). */
  monitorType?: MonitorType;
}

export interface TemplatePreviewResponse {
  success: true;
  /** `unknown_variables`: the ones the event does not fill (rendered '-'; saving such a template is refused). */
  data: { subject: string; text: string; unknown_variables: string[] };
}

/** A template as the template routes list it: the spec's fields plus its times (null for the defaults). */
export interface TemplateDto extends NotificationTemplateDto {
  type: NotificationEvent;
  created_at: string | null;
  updated_at: string | null;
}

/** `GET /api/notifications/templates`: the read-only defaults, then the custom templates. */
export interface TemplatesResponse {
  success: true;
  data: { templates: TemplateDto[] };
}

/**
 * `PUT /api/notifications/channels/{id}/templates`: the custom template each event uses on the channel; an event left
 * out (or null) uses the default text in the channel's language. Replaces the channel's whole choice.
 */
export interface ChannelTemplatesRequest {
  templates: Partial<Record<NotificationEvent, number | null>>;
}
