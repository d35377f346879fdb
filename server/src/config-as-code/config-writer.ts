import { Injectable, Type } from '@nestjs/common';
import {
  AGENT_REF_PREFIX,
  ApplyPlan,
  ConfigChannel,
  ConfigDocument,
  ConfigKind,
  ConfigMaintenance,
  ConfigMonitor,
  ConfigStatusPage,
  DependencyRef,
  PlanEntry,
  SERVER_LOCATION,
  typeSpec,
  type MonitorType,
} from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import { createValidationPipe } from '../common/validation';
import { SaveMaintenanceDto } from '../maintenance/maintenance.dto';
import { MaintenanceService } from '../maintenance/maintenance.service';
import { CreateMonitorDto, UpdateMonitorDto } from '../monitors/monitors.dto';
import { MonitorsService } from '../monitors/monitors.service';
import { ChannelDto, SettingsDto } from '../notifications/notifications.dto';
import { NotificationsService } from '../notifications/notifications.service';
import { SaveStatusPageDto } from '../status-pages/status-pages.dto';
import { StatusPagesService } from '../status-pages/status-pages.service';
import { ConfigKeysRepository, KeyedIds } from './config-keys.repository';
import type { CurrentConfig } from './config-reader';
import { DocumentInvalid } from './document-schema';
import { placeholderOf } from './plan';

type Item = Record<string, unknown>;
const validation = createValidationPipe();
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A document's fields over the current ones: left out keeps, a `${NAME}` keeps the stored secret (nested in `config`). */
function merged<T extends Item>(current: T | undefined, desired: T): T {
  if (!current) return desired;
  const out: Item = { ...current };
  for (const [field, value] of Object.entries(desired)) {
    if (value === undefined || placeholderOf(value)) continue;
    if (field === 'config' && value && typeof value === 'object') {
      const config: Item = { ...(current.config as Item) };
      for (const [name, part] of Object.entries(value as Item)) if (!placeholderOf(part)) config[name] = part;
      out.config = config;
    } else out[field] = value;
  }
  return out as T;
}

/** Monitors ordered so a parent and a monitor depended on come first (a cycle keeps the document's order; the service refuses it). */
export function byReferences(monitors: ConfigMonitor[]): ConfigMonitor[] {
  const byKey = new Map(monitors.map((monitor) => [monitor.key, monitor]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const ordered: ConfigMonitor[] = [];
  const visit = (monitor: ConfigMonitor) => {
    if (done.has(monitor.key) || visiting.has(monitor.key)) return;
    visiting.add(monitor.key);
    for (const ref of [monitor.parent, ...(monitor.dependsOn ?? [])]) {
      const target = ref ? byKey.get(ref) : undefined;
      if (target) visit(target);
    }
    visiting.delete(monitor.key);
    done.add(monitor.key);
    ordered.push(monitor);
  };
  monitors.forEach(visit);
  return ordered;
}

/**
 * Carries a plan out through the services (inside the apply's shared transaction): channels, monitors in reference
 * order, their alert settings and the defaults, status pages, maintenance, then the prune's deletes in reverse. Each
 * body goes through the API's validation pipe; a refusal names the item's path.
 */
@Injectable()
export class ConfigWriter {
  constructor(
    private readonly monitors: MonitorsService,
    private readonly notifications: NotificationsService,
    private readonly maintenance: MaintenanceService,
    private readonly pages: StatusPagesService,
    private readonly keys: ConfigKeysRepository,
  ) {}

  async write(doc: ConfigDocument, current: CurrentConfig, plan: ApplyPlan): Promise<void> {
    const action = (kind: ConfigKind, key: string) => plan.entries.find((entry) => entry.kind === kind && entry.key === key)?.action;
    const ids = current.ids;
    const was = current.document;

    for (const [index, channel] of (doc.channels ?? []).entries()) {
      const act = action('channel', channel.key);
      if (act === 'unchanged') continue;
      const before = was.channels.find((item) => item.key === channel.key);
      await this.at(`channels[${index}]`, async () => {
        const { key: _key, defaultForMonitors: _m, defaultForAgents: _a, ...body } = merged(before, channel) as ConfigChannel;
        const dto = await valid(ChannelDto, body);
        if (act === 'create') {
          const id = await this.notifications.createChannel(dto);
          await this.keys.setKey('notification_channels', id, channel.key);
          ids.channels.set(channel.key, id);
        } else await this.notifications.updateChannel(ids.channels.get(channel.key)!, dto);
      });
    }

    const listed = doc.monitors ?? [];
    for (const monitor of byReferences(listed)) {
      const index = listed.indexOf(monitor);
      const act = action('monitor', monitor.key);
      if (act === 'unchanged') continue;
      const before = was.monitors.find((item) => item.key === monitor.key);
      await this.at(`monitors[${index}]`, async () => {
        const body = monitorBody(merged(before, monitor), ids);
        if (act === 'create') {
          const created = await this.monitors.create(await valid(CreateMonitorDto, body), 'admin');
          await this.keys.setKey('monitors', created.id, monitor.key);
          ids.monitors.set(monitor.key, created.id);
        } else await this.monitors.update(ids.monitors.get(monitor.key)!, await valid(UpdateMonitorDto, body), 'admin');
      });
    }
    for (const [index, monitor] of listed.entries()) {
      const changed = plan.entries.find((entry) => entry.kind === 'monitor' && entry.key === monitor.key);
      if (!monitor.notifications || !(changed?.action === 'create' || changed?.fields?.includes('notifications'))) continue;
      await this.at(`monitors[${index}].notifications`, () =>
        this.saveSettings({
          target_type: 'monitor',
          target_id: ids.monitors.get(monitor.key),
          ...alertSettings(monitor.notifications!, ids),
        }),
      );
    }
    await this.at('notificationSettings', () => this.saveDefaults(doc, current, plan));

    for (const [index, page] of (doc.statusPages ?? []).entries()) {
      const act = action('statusPage', page.slug);
      if (act === 'unchanged') continue;
      const before = was.statusPages.find((item) => item.slug === page.slug);
      await this.at(`statusPages[${index}]`, async () => {
        const dto = await valid(SaveStatusPageDto, pageBody(merged(before, page), ids));
        if (act === 'create') await this.pages.create(dto);
        else await this.pages.save(page.slug, dto);
      });
    }

    for (const [index, window] of (doc.maintenance ?? []).entries()) {
      const act = action('maintenance', window.key);
      if (act === 'unchanged') continue;
      const before = was.maintenance.find((item) => item.key === window.key);
      await this.at(`maintenance[${index}]`, async () => {
        const dto = await valid(SaveMaintenanceDto, maintenanceBody(merged(before, window), ids));
        if (act === 'create') {
          const created = await this.maintenance.create(dto);
          await this.keys.setKey('maintenance', created.id, window.key);
          ids.maintenance.set(window.key, created.id);
        } else await this.maintenance.update(ids.maintenance.get(window.key)!, dto);
      });
    }

    await this.deletions(
      plan.entries.filter((entry) => entry.action === 'delete'),
      ids,
    );
  }

  /** Deletes in the reverse order of creation: what refers to others goes first. */
  private async deletions(entries: PlanEntry[], ids: KeyedIds): Promise<void> {
    const of = (kind: ConfigKind) => entries.filter((entry) => entry.kind === kind);
    for (const { key } of of('maintenance')) await this.at(`maintenance ${key}`, () => this.maintenance.remove(ids.maintenance.get(key)!));
    for (const { key } of of('statusPage')) await this.at(`statusPages ${key}`, () => this.pages.remove(key));
    for (const { key } of of('monitor')) await this.at(`monitors ${key}`, () => this.monitors.remove(ids.monitors.get(key)!));
    for (const { key } of of('channel')) await this.at(`channels ${key}`, () => this.notifications.deleteChannel(ids.channels.get(key)!));
  }

  /** The defaults (global monitor and agent settings) when they or a channel's default flags change. */
  private async saveDefaults(doc: ConfigDocument, current: CurrentConfig, plan: ApplyPlan): Promise<void> {
    const flagsChanged = plan.entries.some(
      (entry) =>
        entry.kind === 'channel' &&
        (entry.action === 'delete' ||
          entry.fields?.some((field) => field.startsWith('defaultFor')) ||
          (entry.action === 'create' && doc.channels?.find((c) => c.key === entry.key && (c.defaultForMonitors || c.defaultForAgents)))),
    );
    const settingsChanged = plan.entries.some((entry) => entry.kind === 'notificationSettings' && entry.action === 'update');
    if (!flagsChanged && !settingsChanged) return;
    const channels = (doc.channels ?? current.document.channels).map((channel) =>
      merged(
        current.document.channels.find((c) => c.key === channel.key),
        channel,
      ),
    );
    const defaults = (flag: 'defaultForMonitors' | 'defaultForAgents') =>
      channels.filter((channel) => channel[flag]).map((channel) => current.ids.channels.get(channel.key)!);
    const settings = current.document.notificationSettings;
    const monitors = { ...settings.monitors, ...doc.notificationSettings?.monitors };
    const agents = { ...settings.agents, ...doc.notificationSettings?.agents };
    await this.saveSettings({
      target_type: 'global-monitor',
      ...alertSettings({ ...monitors, channels: [] }, current.ids),
      channels: defaults('defaultForMonitors'),
    });
    await this.saveSettings({
      target_type: 'global-agent',
      ...alertSettings({ ...agents, channels: [] }, current.ids),
      channels: defaults('defaultForAgents'),
    });
  }

  private async saveSettings(body: Item): Promise<void> {
    await this.notifications.saveSettings(await valid(SettingsDto, body));
  }

  /** Runs one item's write; a refusal names the item (`monitors[3]: …`) and so rolls the whole apply back. */
  private async at<T>(path: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof DocumentInvalid) throw new DocumentInvalid(error.problems.map((p) => ({ ...p, path: `${path}.${p.path}` })));
      if (error instanceof ApiException && error.getStatus() < 500) {
        const { message, field } = error.getResponse() as { message: string; field?: string };
        throw new DocumentInvalid([{ path: field ? `${path}.${field}` : path, problem: message }]);
      }
      throw error;
    }
  }
}

/** A body through the API's own pipe (text rule, nulls, whitelist, class-validator). */
async function valid<T>(dto: Type<T>, body: Item): Promise<T> {
  return (await validation.transform(body, { type: 'body', metatype: dto })) as T;
}

const snakeKeys = (value: Item): Item => Object.fromEntries(Object.entries(value).map(([key, item]) => [snake(key), item]));

const refOf = (ref: string, ids: KeyedIds): DependencyRef =>
  ref.startsWith(AGENT_REF_PREFIX)
    ? { type: 'agent', id: ids.agents.get(ref.slice(AGENT_REF_PREFIX.length))! }
    : { type: 'monitor', id: ids.monitors.get(ref)! };

function alertSettings(alerts: Item & { channels: string[] }, ids: KeyedIds): Item {
  const { channels, escalation, ...rest } = alerts as Item & {
    channels: string[];
    escalation?: Array<{ afterMinutes: number; channels: string[] }>;
  };
  return {
    ...snakeKeys(rest),
    channels: channels.map((key) => ids.channels.get(key)!),
    ...(escalation
      ? { escalation: escalation.map((step) => ({ ...step, channels: step.channels.map((key) => ids.channels.get(key)!) })) }
      : {}),
  };
}

/** A document monitor → the create/update body: references by id, the type's agent fields by id. */
function monitorBody(monitor: ConfigMonitor, ids: KeyedIds): Item {
  const { key: _key, parent, dependsOn, hostAgent, locations, notifications: _alerts, ...body } = monitor;
  const out: Item = { ...body };
  for (const field of typeSpec(monitor.type as MonitorType)?.fields ?? []) {
    if (field.ref === 'agent' && typeof out[field.name] === 'string') out[field.name] = ids.agents.get(out[field.name] as string);
  }
  if (parent !== undefined) out.parentId = parent === null ? null : ids.monitors.get(parent);
  if (dependsOn !== undefined) out.dependsOn = dependsOn.map((ref) => refOf(ref, ids));
  if (hostAgent !== undefined) out.hostAgentId = hostAgent === null ? null : ids.agents.get(hostAgent);
  if (locations !== undefined)
    out.locations = locations.map((location) =>
      location === SERVER_LOCATION ? location : `${AGENT_REF_PREFIX}${ids.agents.get(location.slice(AGENT_REF_PREFIX.length))}`,
    );
  return out;
}

function pageBody(page: ConfigStatusPage, ids: KeyedIds): Item {
  const { subscribeEmailChannel, groups, ...body } = page;
  return {
    ...body,
    ...(subscribeEmailChannel !== undefined
      ? { subscribeEmailChannelId: subscribeEmailChannel === null ? null : ids.channels.get(subscribeEmailChannel) }
      : {}),
    groups: groups.map((group) => ({
      name: group.name,
      collapsed: group.collapsed ?? false,
      items: group.items.map((ref) => refOf(ref, ids)),
    })),
  };
}

function maintenanceBody(window: ConfigMaintenance, ids: KeyedIds): Item {
  const { key: _key, scope, ...body } = window;
  return {
    ...body,
    scope: {
      all: scope.all ?? false,
      monitors: (scope.monitors ?? []).map((key) => ids.monitors.get(key)),
      groups: (scope.groups ?? []).map((key) => ids.monitors.get(key)),
      agents: (scope.agents ?? []).map((name) => ids.agents.get(name)),
    },
  };
}
