import { Injectable } from '@nestjs/common';
import {
  CHANNEL_GROUPING,
  type ChannelLanguage,
  type ChannelType,
  type DeliveryAttemptDto,
  type DeliveryStatus,
  type DnsRecordType,
  type MonitorType,
  type NotificationHistoryItem,
  type NotificationHistoryMonitor,
  type NotificationTargetKind,
  type SettingsTargetType,
} from '@vigil/proto';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { conflict } from '../common/api-exception';
import { maskUrl } from '../common/secret-values';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';
import type { CustomText } from './messages';
import type { NotificationMessage } from './providers';
import type { TargetSettings } from './rules';
import type { NotificationEvent } from './templates';

export interface ChannelRow {
  id: number;
  /** Stable name in configuration documents; made from the name by trigger when not given. */
  key: string;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  enabled: boolean;
  language: ChannelLanguage;
  group_wait_seconds: number;
  group_interval_seconds: number;
  created_at: Date;
  updated_at: Date;
}

/** A channel as it is saved; the grouping windows default to CHANNEL_GROUPING's when absent. */
export type ChannelInput = Omit<ChannelRow, 'id' | 'key' | 'created_at' | 'updated_at' | 'group_wait_seconds' | 'group_interval_seconds'> &
  Partial<Pick<ChannelRow, 'key'>> &
  Partial<Pick<ChannelRow, 'group_wait_seconds' | 'group_interval_seconds'>>;

export interface SettingsRow extends TargetSettings {
  target_type: SettingsTargetType;
  target_id: number | null;
}

/** A channel as the alert rules need it to render and address a message. */
export interface AlertChannelRow {
  id: number;
  name: string;
  type: ChannelType;
  language: ChannelLanguage;
  /** The custom template the channel chose per event (read with the channel, in the same statement). */
  templates: Partial<Record<NotificationEvent, CustomText>>;
}

export interface HistoryFilter {
  status?: DeliveryStatus;
  targetKind?: NotificationTargetKind;
  targetId?: number;
  channelId?: number;
  limit: number;
  offset: number;
}

const CHANNEL_COLUMNS =
  'id, key, name, type, config, enabled, language, group_wait_seconds, group_interval_seconds, created_at, updated_at';
export const SETTINGS_COLUMNS = `target_type, target_id, enabled, on_down, on_recovery, on_offline, on_cpu_threshold,
  cpu_threshold, on_memory_threshold, memory_threshold, on_disk_threshold, disk_threshold, channels, override_global,
  on_certificate_expiry, on_degraded, reminder_minutes, escalation, on_load_threshold, load_threshold,
  on_temperature_threshold, temperature_threshold, on_disk_io_threshold, disk_io_threshold, on_bandwidth_threshold,
  bandwidth_threshold, on_container_down, on_container_unhealthy, on_service_failed`;

/** Channels, per-target settings and the delivery history, in SQL. */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  channels(): Promise<ChannelRow[]> {
    return queryRows<ChannelRow>(this.dataSource, `SELECT ${CHANNEL_COLUMNS} FROM notification_channels ORDER BY id`);
  }

  channel(id: number): Promise<ChannelRow | null> {
    return queryRow<ChannelRow>(this.dataSource, `SELECT ${CHANNEL_COLUMNS} FROM notification_channels WHERE id = $1`, [id]);
  }

  /** The channel locked until the transaction `db` ends: what an audited change compares against. */
  channelForUpdate(id: number, db: Sql): Promise<ChannelRow | null> {
    return queryRow<ChannelRow>(db, `SELECT ${CHANNEL_COLUMNS} FROM notification_channels WHERE id = $1 FOR UPDATE`, [id]);
  }

  async insertChannel(channel: ChannelInput, db: Sql = this.dataSource): Promise<number> {
    const row = await queryRow<{ id: number }>(
      db,
      `INSERT INTO notification_channels (name, type, config, enabled, language, group_wait_seconds, group_interval_seconds, key)
       VALUES ($1, $2, $3, $4, $5, coalesce($6, ${CHANNEL_GROUPING.waitDefault}), coalesce($7, ${CHANNEL_GROUPING.intervalDefault}), $8) RETURNING id`,
      [
        channel.name,
        channel.type,
        JSON.stringify(channel.config),
        channel.enabled,
        channel.language,
        channel.group_wait_seconds ?? null,
        channel.group_interval_seconds ?? null,
        channel.key ?? null,
      ],
    ).catch(refuseTakenKey);
    return row!.id;
  }

  async updateChannel(
    id: number,
    channel: Omit<ChannelRow, 'id' | 'key' | 'created_at' | 'updated_at'> & Partial<Pick<ChannelRow, 'key'>>,
    db: Sql = this.dataSource,
  ): Promise<boolean> {
    const updated = await execute(
      db,
      `UPDATE notification_channels SET name = $2, type = $3, config = $4, enabled = $5, language = $6, group_wait_seconds = $7,
         group_interval_seconds = $8, key = coalesce($9, key), updated_at = now()
       WHERE id = $1 RETURNING id`,
      [
        id,
        channel.name,
        channel.type,
        JSON.stringify(channel.config),
        channel.enabled,
        channel.language,
        channel.group_wait_seconds,
        channel.group_interval_seconds,
        channel.key ?? null,
      ],
    ).catch(refuseTakenKey);
    return updated > 0;
  }

  /**
   * Removes the channel and its id from every settings entry; its history stays, under its name. In `db`'s
   * transaction when given. The removed channel, or null when there was none.
   */
  async deleteChannel(id: number, db?: EntityManager): Promise<ChannelRow | null> {
    const remove = async (manager: EntityManager): Promise<ChannelRow | null> => {
      const removed = await queryRow<ChannelRow>(manager, `DELETE FROM notification_channels WHERE id = $1 RETURNING ${CHANNEL_COLUMNS}`, [
        id,
      ]);
      if (!removed) return null;
      await execute(
        manager,
        `UPDATE notification_settings
         SET channels = (SELECT coalesce(jsonb_agg(c), '[]'::jsonb) FROM jsonb_array_elements(channels) c WHERE c <> to_jsonb($1::int))
         WHERE channels @> to_jsonb(ARRAY[$1::int])`,
        [id],
      );
      // Still-pending messages to it can no longer be delivered.
      await execute(
        manager,
        `UPDATE notification_outbox SET status = 'failed', last_error = 'Channel deleted', locked_until = NULL
         WHERE channel_id IS NULL AND status = 'pending'`,
      );
      return removed;
    };
    return db ? remove(db) : this.dataSource.transaction(remove);
  }

  async existingChannelIds(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await queryRows<{ id: number }>(this.dataSource, `SELECT id FROM notification_channels WHERE id = ANY($1::int[])`, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /** The enabled channels among `ids` with their custom templates per event, read inside the alert's transaction. */
  async enabledChannels(db: Sql, ids: number[]): Promise<AlertChannelRow[]> {
    if (!ids.length) return [];
    return queryRows<AlertChannelRow>(
      db,
      `SELECT c.id, c.name, c.type, c.language,
              coalesce((SELECT jsonb_object_agg(ct.event, jsonb_build_object('subject', t.subject, 'content', t.content, 'language', t.language))
                        FROM notification_channel_templates ct JOIN notification_templates t ON t.id = ct.template_id
                        WHERE ct.channel_id = c.id), '{}') AS templates
       FROM notification_channels c WHERE c.enabled AND c.id = ANY($1::int[])`,
      [ids],
    );
  }

  /** The global entry of `kind` and the specific entries of the targets `ids`, read inside the alert's transaction. */
  targetSettings(db: Sql, kind: 'monitor' | 'agent', ids: number[]): Promise<SettingsRow[]> {
    return queryRows<SettingsRow>(
      db,
      `SELECT ${SETTINGS_COLUMNS} FROM notification_settings WHERE target_type = $1 OR (target_type = $2 AND target_id = ANY($3::int[]))`,
      [`global-${kind}`, kind, ids],
    );
  }

  /** The global entries and the specific ones whose monitor or agent still exists. */
  settings(): Promise<SettingsRow[]> {
    return queryRows<SettingsRow>(
      this.dataSource,
      `SELECT ${SETTINGS_COLUMNS} FROM notification_settings s
       WHERE s.target_type IN ('global-monitor', 'global-agent')
          OR (s.target_type = 'monitor' AND EXISTS (SELECT 1 FROM monitors m WHERE m.id = s.target_id))
          OR (s.target_type = 'agent' AND EXISTS (SELECT 1 FROM agents a WHERE a.id = s.target_id))
       ORDER BY s.target_type, s.target_id`,
    );
  }

  async targetExists(kind: 'monitor' | 'agent', id: number): Promise<boolean> {
    const table = kind === 'monitor' ? 'monitors' : 'agents';
    return Boolean(await queryRow(this.dataSource, `SELECT 1 FROM ${table} WHERE id = $1`, [id]));
  }

  /** One settings entry locked until the transaction `db` ends, or null when it was never saved. */
  settingsForUpdate(targetType: SettingsTargetType, targetId: number | null, db: Sql): Promise<SettingsRow | null> {
    return queryRow<SettingsRow>(
      db,
      `SELECT ${SETTINGS_COLUMNS} FROM notification_settings WHERE target_type = $1 AND coalesce(target_id, 0) = coalesce($2::int, 0) FOR UPDATE`,
      [targetType, targetId],
    );
  }

  async saveSettings(targetType: SettingsTargetType, targetId: number | null, s: TargetSettings, db: Sql = this.dataSource): Promise<void> {
    await execute(
      db,
      `INSERT INTO notification_settings AS n (${SETTINGS_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29)
       ON CONFLICT (target_type, coalesce(target_id, 0)) DO UPDATE SET
         enabled = excluded.enabled, on_down = excluded.on_down, on_recovery = excluded.on_recovery,
         on_offline = excluded.on_offline, on_cpu_threshold = excluded.on_cpu_threshold, cpu_threshold = excluded.cpu_threshold,
         on_memory_threshold = excluded.on_memory_threshold, memory_threshold = excluded.memory_threshold,
         on_disk_threshold = excluded.on_disk_threshold, disk_threshold = excluded.disk_threshold,
         channels = excluded.channels, override_global = excluded.override_global,
         on_certificate_expiry = excluded.on_certificate_expiry, on_degraded = excluded.on_degraded,
         reminder_minutes = excluded.reminder_minutes, escalation = excluded.escalation,
         on_load_threshold = excluded.on_load_threshold, load_threshold = excluded.load_threshold,
         on_temperature_threshold = excluded.on_temperature_threshold, temperature_threshold = excluded.temperature_threshold,
         on_disk_io_threshold = excluded.on_disk_io_threshold, disk_io_threshold = excluded.disk_io_threshold,
         on_bandwidth_threshold = excluded.on_bandwidth_threshold, bandwidth_threshold = excluded.bandwidth_threshold,
         on_container_down = excluded.on_container_down, on_container_unhealthy = excluded.on_container_unhealthy,
         on_service_failed = excluded.on_service_failed, updated_at = now()`,
      [
        targetType,
        targetId,
        s.enabled,
        s.on_down,
        s.on_recovery,
        s.on_offline,
        s.on_cpu_threshold,
        s.cpu_threshold,
        s.on_memory_threshold,
        s.memory_threshold,
        s.on_disk_threshold,
        s.disk_threshold,
        JSON.stringify(s.channels),
        s.override_global,
        s.on_certificate_expiry,
        s.on_degraded ?? false,
        s.reminder_minutes ?? null,
        JSON.stringify(s.escalation ?? []),
        s.on_load_threshold,
        s.load_threshold,
        s.on_temperature_threshold,
        s.temperature_threshold,
        s.on_disk_io_threshold,
        s.disk_io_threshold,
        s.on_bandwidth_threshold,
        s.bandwidth_threshold,
        s.on_container_down ?? false,
        s.on_container_unhealthy ?? false,
        s.on_service_failed ?? false,
      ],
    );
  }

  /** Open alerts are looked at by the next reminder sweep (after their settings changed). */
  async rescheduleOpenAlerts(db: Sql): Promise<void> {
    await execute(db, `UPDATE alerts SET due_at = NULL WHERE closed_at IS NULL AND acknowledged_at IS NULL AND due_at IS NOT NULL`);
  }

  /** Newest first, each with its attempts; the count is over the whole filter. */
  async history(filter: HistoryFilter): Promise<{ items: NotificationHistoryItem[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.status) add('o.status = ?', filter.status);
    if (filter.targetKind) add('o.target_kind = ?', filter.targetKind);
    if (filter.targetId) add('o.target_id = ?', filter.targetId);
    if (filter.channelId) add('o.channel_id = ?', filter.channelId);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM notification_outbox o ${clause}`,
      params,
    );
    const rows = await queryRows<HistoryRow>(
      this.dataSource,
      `SELECT o.id::int, o.event, o.message, o.target_kind, o.target_id, o.target_name, o.channel_id,
              coalesce(c.name, o.channel_name) AS channel_name, o.channel_type, o.status, o.attempts, o.next_attempt_at,
              o.last_error, o.created_at, o.sent_at, o.alert_id, m.type AS monitor_type, m.hostname AS monitor_hostname,
              m.port AS monitor_port, m.settings->>'dnsRecordType' AS monitor_dns_record_type, m.url AS monitor_url,
              coalesce((SELECT json_agg(json_build_object('attempt', t.attempt, 'ok', t.ok, 'http_status', t.http_status,
                        'detail', t.detail, 'duration_ms', t.duration_ms, 'at', t.at) ORDER BY t.attempt, t.id)
                        FROM notification_attempts t WHERE t.outbox_id = o.id), '[]') AS tries
       FROM notification_outbox o LEFT JOIN notification_channels c ON c.id = o.channel_id
       LEFT JOIN monitors m ON o.target_kind = 'monitor' AND m.id = o.target_id
       ${clause} ORDER BY o.created_at DESC, o.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { items: rows.map(toHistoryItem), total };
  }

  /** Keeps the history bounded: delivered and failed notifications older than `days`. */
  pruneHistory(days: number): Promise<number> {
    return execute(
      this.dataSource,
      `DELETE FROM notification_outbox WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1) RETURNING id`,
      [days],
    );
  }
}

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** One history row as the query above selects it; `tries` is built by json_agg, so its times are text. */
interface HistoryRow {
  id: number;
  event: string;
  message: NotificationMessage;
  target_kind: NotificationTargetKind;
  target_id: number | null;
  target_name: string;
  channel_id: number | null;
  channel_name: string;
  channel_type: ChannelType;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  tries: Array<Omit<DeliveryAttemptDto, 'at'> & { at: string }>;
  alert_id: number | null;
  /** Null unless the entry is a monitor's and the monitor still exists. */
  monitor_type: MonitorType | null;
  monitor_hostname: string | null;
  monitor_port: number | null;
  monitor_dns_record_type: DnsRecordType | null;
  monitor_url: string | null;
}

function toHistoryItem(row: HistoryRow): NotificationHistoryItem {
  return {
    id: Number(row.id),
    event: row.event,
    severity: row.message?.severity ?? 'info',
    subject: row.message?.subject ?? '',
    text: row.message?.text ?? '',
    target_kind: row.target_kind,
    target_id: row.target_id,
    target_name: row.target_name,
    monitor: historyMonitor(row),
    alert_id: row.alert_id,
    channel_id: row.channel_id,
    channel_name: row.channel_name,
    channel_type: row.channel_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    last_error: row.last_error,
    created_at: iso(row.created_at)!,
    sent_at: iso(row.sent_at),
    tries: row.tries.map((t) => ({
      attempt: t.attempt,
      ok: t.ok,
      http_status: t.http_status,
      detail: t.detail,
      duration_ms: t.duration_ms,
      at: new Date(t.at).toISOString(),
    })),
  };
}

/** The entry's monitor as its reads show the target: the URL's credentials masked, as `toMonitorDto` does. */
function historyMonitor(row: HistoryRow): NotificationHistoryMonitor | null {
  if (!row.monitor_type) return null;
  return {
    type: row.monitor_type,
    hostname: row.monitor_hostname,
    port: row.monitor_port,
    dns_record_type: row.monitor_dns_record_type,
    url: row.monitor_url ? maskUrl(row.monitor_url) : '',
  };
}

/** A key another channel has: 409, not a failure of ours. */
function refuseTakenKey(error: unknown): never {
  const failure = error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : null;
  if (failure?.code === '23505' && failure.constraint === 'notification_channels_key_unique')
    throw conflict('notifications.channelKeyTaken');
  throw error;
}
