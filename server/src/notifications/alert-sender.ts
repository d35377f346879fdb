import { Injectable } from '@nestjs/common';
import type { MonitorType } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import { NotificationDispatcher } from './dispatcher.service';
import { buildMessage, type MessageVars } from './messages';
import { NotificationsRepository, type AlertChannelRow } from './notifications.repository';
import { OutboxRepository, type OutboxItem } from './outbox.repository';
import type { Dependent } from './alert-records.repository';
import { dependentsLine, dependentsSubject } from './dependents';
import { withHost } from './host-block';
import type { NotificationMessage } from './providers';
import { effectiveSettings, type TargetSettings } from './rules';
import type { NotificationEvent } from './templates';

export type TargetKind = 'monitor' | 'agent';

/** A notification to render for every channel of `settings`. */
export interface Send {
  settings: Pick<TargetSettings, 'channels'>;
  event: NotificationEvent;
  /** Unique per target, episode and edge; the channel id is appended. */
  key: string;
  /** The alert episode the notification opens or closes (NotificationMessage.episode). */
  episode?: string;
  /** `maintenance`: a window's notice, sent to the channels of what it covers. */
  target: { kind: TargetKind | 'maintenance'; id: number; name: string };
  vars: MessageVars;
  at: Date;
  /** A monitor's events: its type, which picks the default text. */
  monitorType?: MonitorType;
  /** The `alerts` row the notification belongs to (linked in the outbox). */
  alertId?: number;
  /** A dependency's down and recovery: what depends on it, named in the message (see `withDependents`). */
  dependents?: Dependent[];
  /** Only to these channels (an escalation step's), instead of the settings' channels. */
  channels?: number[];
}

/** The global settings of a kind and the specific entries of some of its targets. */
export class TargetSettingsSet {
  constructor(
    readonly global: TargetSettings | undefined,
    readonly specific: Map<number, TargetSettings>,
  ) {}

  /** What applies to target `id` (see `effectiveSettings`); null: nothing to send. */
  for(id: number): TargetSettings | null {
    return effectiveSettings(this.global, this.specific.get(id));
  }
}

/**
 * The last step of every alert rule, inside the transaction that records the event: reads the settings that apply,
 * renders each notification for each enabled channel (its custom template for the event, else the default in its
 * language), writes the outbox rows (a deduplication key already written is skipped) and wakes the dispatcher.
 */
@Injectable()
export class AlertSender {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly outbox: OutboxRepository,
    private readonly dispatcher: NotificationDispatcher,
  ) {}

  async settings(manager: EntityManager, kind: TargetKind, ids: number[]): Promise<TargetSettingsSet> {
    const specific = new Map<number, TargetSettings>();
    let global: TargetSettings | undefined;
    for (const row of await this.notifications.targetSettings(manager, kind, ids)) {
      if (row.target_id === null) global = row;
      else specific.set(row.target_id, row);
    }
    return new TargetSettingsSet(global, specific);
  }

  async send(manager: EntityManager, sends: Send[]): Promise<void> {
    if (!sends.length) return;
    const enabled = await this.notifications.enabledChannels(manager, [...new Set(sends.flatMap(channelsOf))]);
    const channels = new Map(enabled.map((channel) => [channel.id, channel]));
    const items: OutboxItem[] = sends.flatMap((send) =>
      channelsOf(send).flatMap((channelId) => {
        const channel = channels.get(channelId);
        if (!channel) return [];
        return [
          {
            dedup_key: `${send.key}:${channelId}`,
            channel_id: channelId,
            channel_name: channel.name,
            channel_type: channel.type,
            event: send.event,
            target_kind: send.target.kind,
            target_id: send.target.id,
            target_name: send.target.name,
            alert_id: send.alertId ?? null,
            message: {
              ...messageFor(send, channel),
              ...(send.episode ? { episode: send.episode } : {}),
            },
          },
        ];
      }),
    );
    if (await this.outbox.enqueue(manager, items)) this.dispatcher.nudge();
  }
}

const channelsOf = (send: Send) => send.channels ?? send.settings.channels;

/** What `send` says on `channel`: the event's text (its custom template or the default), then who depends and the host. */
function messageFor(send: Send, channel: AlertChannelRow): NotificationMessage {
  const custom = channel.templates[send.event];
  const vars = { ...send.vars, ...(send.dependents?.length ? { dependents: dependentsLine(send, channel.language) } : {}) };
  const message = buildMessage(send.event, channel.language, vars, send.target, send.at, send.monitorType, custom);
  const withNames = withDependents(message, send, channel.language, custom?.content);
  return withHost(withNames, send.vars, custom?.language ?? channel.language, custom?.content);
}

/**
 * A dependency's down or recovery names its dependents: the subject gains their count and the text a line naming
 * them, unless a custom text places `{{dependents}}` itself.
 */
function withDependents(message: NotificationMessage, send: Send, language: 'zh-CN' | 'en-US', custom?: string): NotificationMessage {
  if (!send.dependents?.length || custom?.includes('dependents')) return message;
  const recovering = message.severity === 'recovery';
  return {
    ...message,
    subject: `${message.subject} ${dependentsSubject(send.dependents.length, recovering, language)}`,
    text: `${message.text}\n${dependentsLine(send, language)}`,
  };
}
