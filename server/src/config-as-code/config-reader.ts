import { Injectable } from '@nestjs/common';
import {
  AGENT_REF_PREFIX,
  CONFIG_DOCUMENT_VERSION,
  ConfigChannel,
  ConfigDocument,
  ConfigMaintenance,
  ConfigMonitor,
  ConfigStatusPage,
  DependencyRef,
  MonitorNotificationSettings,
  PAGE_SIZE_MAX,
  SERVER_LOCATION,
  typeSpec,
} from '@vigil/proto';
import { MaintenanceService } from '../maintenance/maintenance.service';
import { monitorSnapshot } from '../monitors/monitor-audit';
import type { MonitorRow } from '../monitors/monitor.types';
import { MonitorsRepository } from '../monitors/monitors.repository';
import { NotificationsRepository } from '../notifications/notifications.repository';
import { NotificationsService } from '../notifications/notifications.service';
import { StatusPagesService } from '../status-pages/status-pages.service';
import { ConfigKeysRepository, KeyedIds } from './config-keys.repository';

/** The install as a document (secrets real), with the ids behind its keys. */
export interface CurrentConfig {
  document: Required<ConfigDocument>;
  ids: KeyedIds;
}

/** The monitor fields every type shares, as the create body names them (read → request). */
const COMMON_FIELDS: Array<[keyof ConfigMonitor, string]> = [
  ['active', 'active'],
  ['method', 'method'],
  ['interval', 'interval'],
  ['timeout', 'timeout'],
  ['expectedStatus', 'expected_status'],
  ['headers', 'headers'],
  ['body', 'body'],
  ['retries', 'retries'],
  ['retryInterval', 'retry_interval'],
  ['degradedAfterMs', 'degraded_after_ms'],
  ['description', 'description'],
  ['tags', 'tags'],
  ['upsideDown', 'upside_down'],
  ['assertions', 'assertions'],
  ['quorum', 'quorum'],
  ['quorumMin', 'quorum_min'],
];

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/**
 * Reads everything a configuration document holds from the services' own reads (monitors from their rows, as the
 * audit log sees them, so secrets are real), naming rows by key. The export masks the secrets; the plan compares.
 */
@Injectable()
export class ConfigReader {
  constructor(
    private readonly keys: ConfigKeysRepository,
    private readonly monitors: MonitorsRepository,
    private readonly channels: NotificationsRepository,
    private readonly notifications: NotificationsService,
    private readonly maintenance: MaintenanceService,
    private readonly pages: StatusPagesService,
  ) {}

  async read(): Promise<CurrentConfig> {
    const ids = await this.keys.read();
    const names = reverse(ids);
    const [{ rows }, channelRows, { settings }] = await Promise.all([
      this.monitors.list({ offset: 0, limit: null, filter: 'all' }),
      this.channels.channels(),
      this.notifications.read(),
    ]);
    const specific = settings.specificMonitors;
    const monitors = rows.map((row) => monitorEntry(row, names, specific[String(row.id)])).sort((a, b) => a.key.localeCompare(b.key));
    const channelKey = (id: number) => names.channels.get(id) ?? `#${id}`;
    const channels: ConfigChannel[] = channelRows
      .map((row) => ({
        key: channelKey(row.id),
        name: row.name,
        type: row.type,
        enabled: row.enabled,
        language: row.language,
        config: row.config,
        groupWaitSeconds: row.group_wait_seconds,
        groupIntervalSeconds: row.group_interval_seconds,
        defaultForMonitors: settings.monitors.channels.includes(row.id),
        defaultForAgents: settings.agents.channels.includes(row.id),
      }))
      .sort((a, b) => a.key.localeCompare(b.key));
    const { channels: _monitorChannels, ...monitorDefaults } = settings.monitors;
    const { channels: _agentChannels, ...agentDefaults } = settings.agents;
    const document: Required<ConfigDocument> = {
      version: CONFIG_DOCUMENT_VERSION,
      monitors,
      channels,
      notificationSettings: {
        monitors: { ...monitorDefaults, escalation: monitorDefaults.escalation.map((step) => stepByKey(step, channelKey)) },
        agents: { ...agentDefaults, escalation: agentDefaults.escalation.map((step) => stepByKey(step, channelKey)) },
      },
      maintenance: await this.readMaintenance(names),
      statusPages: await this.readPages(names),
    };
    return { document, ids };
  }

  private async readMaintenance(names: KeyedNames): Promise<ConfigMaintenance[]> {
    const windows = [];
    for (let page = 1; ; page++) {
      const { maintenance, total } = await this.maintenance.list({ page, pageSize: PAGE_SIZE_MAX });
      windows.push(...maintenance);
      if (page * PAGE_SIZE_MAX >= total) break;
    }
    return windows
      .map((window) => ({
        key: names.maintenance.get(window.id) ?? `#${window.id}`,
        title: window.title,
        description: window.description,
        strategy: window.strategy,
        timezone: window.timezone,
        enabled: window.enabled,
        startAt: window.start_at,
        endAt: window.end_at,
        weekdays: window.weekdays,
        daysOfMonth: window.days_of_month,
        startTime: window.start_time,
        endTime: window.end_time,
        intervalDays: window.interval_days,
        cron: window.cron,
        durationMinutes: window.duration_minutes,
        scope: {
          all: window.scope.all,
          monitors: window.scope.monitors.map((id) => names.monitors.get(id) ?? `#${id}`).sort(),
          groups: window.scope.groups.map((id) => names.monitors.get(id) ?? `#${id}`).sort(),
          agents: window.scope.agents.map((id) => names.agents.get(id) ?? `#${id}`).sort(),
        },
        pages: [...window.pages].sort(),
        notify: window.notify,
        endWhenHealthyMinutes: window.end_when_healthy_minutes,
      }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }

  private async readPages(names: KeyedNames): Promise<ConfigStatusPage[]> {
    const pages: ConfigStatusPage[] = [];
    for (const summary of (await this.pages.list()).sort((a, b) => a.slug.localeCompare(b.slug))) {
      const page = await this.pages.get(summary.slug);
      pages.push({
        slug: page.slug,
        title: page.title,
        description: page.description,
        logoUrl: page.logoUrl,
        footer: page.footer,
        customCss: page.customCss,
        theme: page.theme,
        historyDays: page.historyDays,
        showAgentDetails: page.showAgentDetails,
        showResources: page.showResources,
        domain: page.domain,
        draftAfterMinutes: page.draftAfterMinutes,
        subscribeEmailChannel: page.subscribeEmailChannelId === null ? null : (names.channels.get(page.subscribeEmailChannelId) ?? null),
        subscribeWebhooks: page.subscribeWebhooks,
        groups: page.groups.map((group) => ({
          name: group.name,
          collapsed: group.collapsed,
          items: group.items.map((item) => refName({ type: item.type, id: item.id }, names)),
        })),
      });
    }
    return pages;
  }
}

/** Id → key (agents: id → name). */
export interface KeyedNames {
  monitors: Map<number, string>;
  channels: Map<number, string>;
  maintenance: Map<number, string>;
  agents: Map<number, string>;
}

function reverse(ids: KeyedIds): KeyedNames {
  const flip = (map: Map<string, number>) => new Map([...map].map(([key, id]) => [id, key]));
  return { monitors: flip(ids.monitors), channels: flip(ids.channels), maintenance: flip(ids.maintenance), agents: flip(ids.agents) };
}

const refName = (ref: DependencyRef, names: KeyedNames): string =>
  ref.type === 'agent' ? `${AGENT_REF_PREFIX}${names.agents.get(ref.id) ?? `#${ref.id}`}` : (names.monitors.get(ref.id) ?? `#${ref.id}`);

const stepByKey = (step: { afterMinutes: number; channels: number[] }, key: (id: number) => string) => ({
  afterMinutes: step.afterMinutes,
  channels: step.channels.map(key),
});

/** One monitor as the document names it: the create body's fields, references by key, the type's own fields. */
function monitorEntry(row: MonitorRow, names: KeyedNames, alerts: (MonitorNotificationSettings & { overrideGlobal: boolean }) | undefined) {
  const read = monitorSnapshot(row);
  const entry: ConfigMonitor = { key: names.monitors.get(row.id) ?? `#${row.id}`, name: row.name, type: row.type };
  for (const [field, column] of COMMON_FIELDS) if (!isEmpty(read[column])) entry[field] = read[column];
  const settings = (row.settings ?? {}) as Record<string, unknown>;
  for (const field of typeSpec(row.type).fields) {
    // Settings hold the real values; reads of the first types' own fields sit at the top level.
    const value = Object.hasOwn(settings, field.name) ? settings[field.name] : read[snake(field.name)];
    if (isEmpty(value)) continue;
    entry[field.name] = field.ref === 'agent' && typeof value === 'number' ? (names.agents.get(value) ?? `#${value}`) : value;
  }
  const locations = (row.locations ?? [SERVER_LOCATION]).map((location) =>
    location === SERVER_LOCATION ? location : `${AGENT_REF_PREFIX}${names.agents.get(Number(location.slice(6))) ?? location}`,
  );
  if (locations.length !== 1 || locations[0] !== SERVER_LOCATION) entry.locations = locations;
  if (row.parent_id) entry.parent = names.monitors.get(row.parent_id) ?? `#${row.parent_id}`;
  if (row.depends_on?.length) entry.dependsOn = row.depends_on.map((ref) => refName(ref, names));
  if (row.host_agent_id) entry.hostAgent = names.agents.get(row.host_agent_id) ?? `#${row.host_agent_id}`;
  if (alerts) {
    const { channels, escalation, ...rest } = alerts;
    const key = (id: number) => names.channels.get(id) ?? `#${id}`;
    entry.notifications = { ...rest, channels: channels.map(key), escalation: escalation.map((step) => stepByKey(step, key)) };
  }
  return entry;
}
