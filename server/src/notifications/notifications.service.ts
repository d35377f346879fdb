import { HttpStatus, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  CHANNEL_GROUPING,
  MESSAGES,
  validateChannelConfig,
  type AgentNotificationSettings,
  type ChannelConfigProblem,
  type ChannelTestResponse,
  type MonitorNotificationSettings,
  type NotificationChannelDto,
  type NotificationSettingsDto,
  type NotificationsResponse,
} from '@vigil/proto';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { ApiException, badRequest, notFound } from '../common/api-exception';
import { envelope } from '../common/reply';
import { describeFailure } from './delivery';
import { NotificationDispatcher } from './dispatcher.service';
import { buildMessage } from './messages';
import { NotificationsRepository, type ChannelRow, type SettingsRow, type HistoryFilter } from './notifications.repository';
import { SETTINGS_DEFAULTS, settingsEntry, type ChannelDto, type SettingsDto } from './notifications.dto';
import { OutboxRepository } from './outbox.repository';
import { providerFor } from './providers';
import { channelMask, channelSnapshot, settingsSnapshot } from './notifications-audit';
import { maskSecrets, restoreSecrets } from './secrets';
import type { TargetSettings } from './rules';
import { defaultTemplates } from './templates';
import { TemplatesService } from './templates.service';

/** Channels, settings and history as the API shows them; secrets never leave masked. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly outbox: OutboxRepository,
    private readonly dispatcher: NotificationDispatcher,
    private readonly templates: TemplatesService,
    private readonly audit: AuditLog,
  ) {}

  /** Channels with their chosen templates, the default templates then the custom ones, and the settings. */
  async read(): Promise<NotificationsResponse['data']> {
    const [channels, settings, custom, choices] = await Promise.all([
      this.repository.channels(),
      this.repository.settings(),
      this.templates.custom(),
      this.templates.channelChoices(),
    ]);
    return {
      channels: channels.map((row) => ({ ...toChannelDto(row), templates: choices.get(row.id) ?? {} })),
      templates: [...defaultTemplates(), ...custom],
      settings: toSettingsDto(settings),
    };
  }

  async createChannel(body: ChannelDto): Promise<number> {
    const input = this.validated(body, null);
    return this.audit.transaction(async (db, record) => {
      const id = await this.repository.insertChannel(input, db);
      const changes = changesOf(null, channelSnapshot(input), channelMask(input.type));
      await record({ action: 'channel.created', target: { type: 'channel', id, name: input.name }, changes });
      return id;
    });
  }

  async updateChannel(id: number, body: ChannelDto): Promise<void> {
    const stored = await this.channelOrFail(id);
    const input = this.validated(body, stored);
    await this.audit.transaction(async (db, record) => {
      const before = await this.repository.channelForUpdate(id, db);
      if (!before || !(await this.repository.updateChannel(id, input, db))) throw notFound('notifications.channelNotFound');
      const changes = changesOf(channelSnapshot(before), channelSnapshot(input), channelMask(before.type, input.type));
      if (changes) await record({ action: 'channel.updated', target: { type: 'channel', id, name: input.name }, changes });
    });
  }

  async deleteChannel(id: number): Promise<void> {
    await this.audit.transaction(async (db, record) => {
      const removed = await this.repository.deleteChannel(id, db);
      if (!removed) throw notFound('notifications.channelNotFound');
      const changes = changesOf(channelSnapshot(removed), null, channelMask(removed.type));
      await record({ action: 'channel.deleted', target: { type: 'channel', id, name: removed.name }, changes });
    });
  }

  async saveSettings(body: SettingsDto): Promise<void> {
    const { targetType, targetId, settings } = settingsEntry(body);
    if (targetId !== null && !(await this.repository.targetExists(targetType as 'monitor' | 'agent', targetId))) {
      throw notFound('notifications.targetNotFound');
    }
    const stepChannels = settings.escalation.flatMap((step) => step.channels);
    const known = await this.repository.existingChannelIds([...settings.channels, ...stepChannels]);
    if (settings.channels.some((id) => !known.has(id))) throw badRequest('notifications.channelsUnknown');
    if (stepChannels.some((id) => !known.has(id))) {
      const code = 'notifications.escalationChannelsUnknown';
      throw new ApiException(HttpStatus.BAD_REQUEST, code, `escalation: ${MESSAGES[code]}`, undefined, 'escalation');
    }
    await this.audit.transaction(async (db, record) => {
      const before = await this.repository.settingsForUpdate(targetType, targetId, db);
      await this.repository.saveSettings(targetType, targetId, settings, db);
      // Open alerts are looked at again with the new reminder and escalation settings.
      await this.repository.rescheduleOpenAlerts(db);
      const changes = changesOf(before && settingsSnapshot(before), settingsSnapshot(settings));
      const target = { type: 'notification_settings' as const, id: targetId === null ? targetType : `${targetType}:${targetId}` };
      if (changes) await record({ action: 'notification_settings.saved', target, changes });
    });
  }

  /**
   * Sends a test message through a saved channel (`id`), optionally with the dialog's unsaved values (`body`), or
   * through an unsaved channel (`id` null, `body` given). The answer is the provider's; the attempt is kept in the history.
   */
  async test(id: number | null, body: ChannelDto | null): Promise<{ ok: boolean; response: ChannelTestResponse }> {
    const stored = id === null ? null : await this.channelOrFail(id);
    const channel = body ? this.validated(body, stored) : stored!;
    const provider = providerFor(channel.type);
    const valid = validateChannelConfig(channel.type, channel.config);
    if (!valid.ok) throw configProblem(valid);

    const message = buildMessage(
      'test',
      channel.language,
      { name: channel.name },
      { kind: 'test', id: null, name: channel.name },
      new Date(),
      undefined,
      stored ? await this.templates.chosenText(stored.id, 'test') : undefined,
    );
    const started = performance.now();
    const record = { ok: true, httpStatus: null as number | null, detail: '', durationMs: 0 };
    const deliveryId = randomUUID();
    try {
      const answer = await provider.send(message, valid.config, this.dispatcher.contextFor(channel.type, deliveryId));
      Object.assign(record, { httpStatus: answer.status, detail: answer.detail });
    } catch (error) {
      Object.assign(record, { ok: false, ...describeFailure(error) });
    }
    record.durationMs = Math.round(performance.now() - started);
    await this.outbox.recordTest({ id: stored?.id ?? null, name: channel.name, type: channel.type }, message, record, deliveryId);
    const data = { status: record.httpStatus, detail: record.detail };
    return record.ok
      ? { ok: true, response: envelope({ data }, 'notifications.testSent') }
      : { ok: false, response: { success: false, message: `${MESSAGES['notifications.testFailed']}: ${record.detail}`, data } };
  }

  history(filter: HistoryFilter) {
    return this.repository.history(filter);
  }

  private async channelOrFail(id: number): Promise<ChannelRow> {
    const channel = await this.repository.channel(id);
    if (!channel) throw notFound('notifications.channelNotFound');
    return channel;
  }

  /** The request with masked secrets put back (same type and destination only) and checked by its type's rules. */
  private validated(
    body: ChannelDto,
    stored: ChannelRow | null,
  ): Omit<ChannelRow, 'id' | 'key' | 'created_at' | 'updated_at'> & { key?: string } {
    const input = {
      key: body.key,
      name: body.name,
      type: body.type,
      enabled: body.enabled,
      language: body.language,
      config: body.config,
      // Absent keeps what the channel has (a new one: the defaults).
      group_wait_seconds: body.groupWaitSeconds ?? stored?.group_wait_seconds ?? CHANNEL_GROUPING.waitDefault,
      group_interval_seconds: body.groupIntervalSeconds ?? stored?.group_interval_seconds ?? CHANNEL_GROUPING.intervalDefault,
    };
    const restored = restoreSecrets(input.type, input.config, stored);
    if (!restored.ok) throw configProblem(restored);
    const valid = validateChannelConfig(input.type, restored.config);
    if (!valid.ok) throw configProblem(valid);
    return { ...input, config: valid.config };
  }
}

/**
 * A config refused by its spec: 400 with the field as `field`. A field's own message (the spec's "Bot Token is
 * required") already names it; a generic one (`notifications.field*`) is prefixed with the field's path.
 */
function configProblem(problem: ChannelConfigProblem): ApiException {
  const generic = problem.code.startsWith('notifications.field');
  const message = problem.field && generic ? `config.${problem.field}: ${MESSAGES[problem.code]}` : MESSAGES[problem.code];
  return new ApiException(HttpStatus.BAD_REQUEST, problem.code, message, undefined, problem.field ?? undefined);
}

function toChannelDto(row: ChannelRow): NotificationChannelDto {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    type: row.type,
    config: JSON.stringify(maskSecrets(row.type, row.config)),
    enabled: Boolean(row.enabled),
    language: row.language,
    group_wait_seconds: row.group_wait_seconds,
    group_interval_seconds: row.group_interval_seconds,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function monitorSettings(s: TargetSettings): MonitorNotificationSettings {
  return {
    enabled: Boolean(s.enabled),
    onDown: Boolean(s.on_down),
    onRecovery: Boolean(s.on_recovery),
    onCertificateExpiry: Boolean(s.on_certificate_expiry),
    onDegraded: Boolean(s.on_degraded),
    channels: s.channels.map(Number),
    reminderMinutes: s.reminder_minutes ?? null,
    escalation: s.escalation ?? [],
  };
}

function agentSettings(s: TargetSettings): AgentNotificationSettings {
  return {
    enabled: Boolean(s.enabled),
    onOffline: Boolean(s.on_offline),
    onRecovery: Boolean(s.on_recovery),
    onCpuThreshold: Boolean(s.on_cpu_threshold),
    cpuThreshold: Number(s.cpu_threshold),
    onMemoryThreshold: Boolean(s.on_memory_threshold),
    memoryThreshold: Number(s.memory_threshold),
    onDiskThreshold: Boolean(s.on_disk_threshold),
    diskThreshold: Number(s.disk_threshold),
    onLoadThreshold: Boolean(s.on_load_threshold),
    loadThreshold: Number(s.load_threshold),
    onTemperatureThreshold: Boolean(s.on_temperature_threshold),
    temperatureThreshold: Number(s.temperature_threshold),
    onDiskIoThreshold: Boolean(s.on_disk_io_threshold),
    diskIoThreshold: Number(s.disk_io_threshold),
    onBandwidthThreshold: Boolean(s.on_bandwidth_threshold),
    bandwidthThreshold: Number(s.bandwidth_threshold),
    onContainerDown: Boolean(s.on_container_down),
    onContainerUnhealthy: Boolean(s.on_container_unhealthy),
    onServiceFailed: Boolean(s.on_service_failed),
    channels: s.channels.map(Number),
    reminderMinutes: s.reminder_minutes ?? null,
    escalation: s.escalation ?? [],
  };
}

function toSettingsDto(rows: SettingsRow[]): NotificationSettingsDto {
  const global = (type: string) => rows.find((r) => r.target_type === type) ?? SETTINGS_DEFAULTS;
  const dto: NotificationSettingsDto = {
    monitors: monitorSettings(global('global-monitor')),
    agents: agentSettings(global('global-agent')),
    specificMonitors: {},
    specificAgents: {},
  };
  for (const row of rows) {
    if (row.target_type === 'monitor')
      dto.specificMonitors[row.target_id!] = { ...monitorSettings(row), overrideGlobal: Boolean(row.override_global) };
    if (row.target_type === 'agent')
      dto.specificAgents[row.target_id!] = { ...agentSettings(row), overrideGlobal: Boolean(row.override_global) };
  }
  return dto;
}
