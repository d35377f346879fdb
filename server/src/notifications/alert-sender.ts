import { Injectable } from '@nestjs/common';
import type { MonitorType } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import { NotificationDispatcher } from './dispatcher.service';
import { buildMessage, type MessageVars } from './messages';
import { NotificationsRepository } from './notifications.repository';
import { OutboxRepository, type OutboxItem } from './outbox.repository';
import { effectiveSettings, type TargetSettings } from './rules';
import type { NotificationEvent } from './templates';

export type TargetKind = 'monitor' | 'agent';

/** A notification to render for every channel of `settings`. */
export interface Send {
  settings: TargetSettings;
  event: NotificationEvent;
  /** Unique per target, episode and edge; the channel id is appended. */
  key: string;
  /** The alert episode the notification opens or closes (NotificationMessage.episode). */
  episode?: string;
  target: { kind: TargetKind; id: number; name: string };
  vars: MessageVars;
  at: Date;
  /** A monitor's events: its type, which picks the default text. */
  monitorType?: MonitorType;
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
    const enabled = await this.notifications.enabledChannels(manager, [...new Set(sends.flatMap((s) => s.settings.channels))]);
    const channels = new Map(enabled.map((channel) => [channel.id, channel]));
    const items: OutboxItem[] = sends.flatMap((send) =>
      send.settings.channels.flatMap((channelId) => {
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
            message: {
              ...buildMessage(
                send.event,
                channel.language,
                send.vars,
                send.target,
                send.at,
                send.monitorType,
                channel.templates[send.event],
              ),
              ...(send.episode ? { episode: send.episode } : {}),
            },
          },
        ];
      }),
    );
    if (await this.outbox.enqueue(manager, items)) this.dispatcher.nudge();
  }
}
