import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AlertRecordsRepository } from '../notifications/alert-records.repository';
import { AlertSender, type TargetKind } from '../notifications/alert-sender';
import type { Localized } from '../notifications/templates';
import { formatTime } from '../notifications/messages';
import { agentCoverage, monitorCoverage } from './coverage';
import { MaintenanceRepository } from './maintenance.repository';
import type { MaintenanceRow } from './maintenance.types';

export type NoticeEvent = 'maintenance.started' | 'maintenance.ended';

const UNTIL_SWITCHED_OFF: Localized = { 'en-US': 'when switched off', 'zh-CN': '手动结束时' };
const EVERYTHING: Localized = { 'en-US': 'every monitor and agent', 'zh-CN': '全部监控和服务器' };

/** "3 monitors, 1 agent", in each language. */
function covers(monitors: number, agents: number): Localized {
  const en = [monitors && `${monitors} monitor${monitors === 1 ? '' : 's'}`, agents && `${agents} agent${agents === 1 ? '' : 's'}`];
  const zh = [monitors && `${monitors} 个监控`, agents && `${agents} 台服务器`];
  return { 'en-US': en.filter(Boolean).join(', ') || 'nothing', 'zh-CN': zh.filter(Boolean).join('、') || '无' };
}

/**
 * A window's start and end notices (`notify`): one message per occurrence edge to every channel that the settings of
 * the monitors and agents it covers name (muted ones left out), through the one path to the outbox (AlertSender),
 * in the transaction that starts or ends the span, so it is written once. Its key names the window, the span and
 * the edge: written twice, it is one row.
 */
@Injectable()
export class MaintenanceNotices {
  constructor(
    private readonly windows: MaintenanceRepository,
    private readonly sender: AlertSender,
    private readonly records: AlertRecordsRepository,
  ) {}

  async send(
    manager: EntityManager,
    row: MaintenanceRow,
    event: NoticeEvent,
    span: { start: Date; end: Date | null },
    at: Date,
  ): Promise<void> {
    const monitorIds = await this.windows.checkedMonitorIds(manager);
    const monitors = [...new Set((await monitorCoverage(manager, monitorIds, [row.id])).map((pair) => pair.monitor_id))];
    const agents = [...new Set((await agentCoverage(manager, null, [row.id])).map((pair) => pair.agent_id))];
    const channels = new Set([
      ...(await this.channelsOf(manager, 'monitor', monitors)),
      ...(await this.channelsOf(manager, 'agent', agents)),
    ]);
    if (!channels.size) return;
    const edge = event === 'maintenance.started' ? 'start' : 'end';
    await this.sender.send(manager, [
      {
        settings: { channels: [...channels].sort((a, b) => a - b) },
        event,
        key: `maintenance:${row.id}:${span.start.getTime()}:${edge}`,
        target: { kind: 'maintenance', id: row.id, name: row.title },
        vars: {
          name: row.title,
          start: formatTime(span.start),
          end: span.end ? formatTime(span.end) : UNTIL_SWITCHED_OFF,
          covers: row.all_targets ? EVERYTHING : covers(monitors.length, agents.length),
        },
        at,
      },
    ]);
  }

  /** The channels the settings of these targets send to, muted targets left out. */
  private async channelsOf(manager: EntityManager, kind: TargetKind, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const settings = await this.sender.settings(manager, kind, ids);
    const muted = await this.records.muted(manager, kind, ids);
    return ids.flatMap((id) => (muted.has(id) ? [] : (settings.for(id)?.channels ?? [])));
  }
}
