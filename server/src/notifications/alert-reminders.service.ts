import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Localized } from '@vigil/proto';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { execute, queryRows } from '../database/rows';
import { AlertFeed } from './alert-feed.service';
import { AlertRecordsRepository, episodeKey, type AlertRow, type TargetKind } from './alert-records.repository';
import { AlertSender, type Send } from './alert-sender';
import { dueWork, IDLE_MINUTES, policyOf } from './escalation';
import { formatTime } from './messages';

/** Due alerts one sweep takes at most; the rest wait for the next. */
const BATCH = 200;

/** What the reminder calls the alert's problem, by target kind and metric. */
const PROBLEM: Record<string, Localized> = {
  'monitor:status': { 'en-US': 'down', 'zh-CN': '故障' },
  'agent:status': { 'en-US': 'offline', 'zh-CN': '离线' },
  'monitor:degraded': { 'en-US': 'degraded', 'zh-CN': '性能下降' },
  'agent:cpu': { 'en-US': 'above its CPU threshold', 'zh-CN': 'CPU 超过阈值' },
  'agent:memory': { 'en-US': 'above its memory threshold', 'zh-CN': '内存超过阈值' },
  'agent:disk': { 'en-US': 'above its disk threshold', 'zh-CN': '磁盘超过阈值' },
  'agent:load': { 'en-US': 'above its load threshold', 'zh-CN': '负载超过阈值' },
  'agent:temperature': { 'en-US': 'above its temperature threshold', 'zh-CN': '温度超过阈值' },
  'agent:diskIo': { 'en-US': 'above its disk I/O threshold', 'zh-CN': '磁盘 I/O 超过阈值' },
  'agent:bandwidth': { 'en-US': 'above its bandwidth threshold', 'zh-CN': '带宽超过阈值' },
};

/** The per-item alerts name their container or unit. */
const ITEM_PROBLEM: Partial<Record<string, (item: string) => Localized>> = {
  containerDown: (item) => ({ 'en-US': `container ${item} not running`, 'zh-CN': `容器 ${item} 未运行` }),
  containerUnhealthy: (item) => ({ 'en-US': `container ${item} unhealthy`, 'zh-CN': `容器 ${item} 不健康` }),
  serviceFailed: (item) => ({ 'en-US': `unit ${item} failed`, 'zh-CN': `服务单元 ${item} 已失败` }),
};

/**
 * Reminders and escalation: every `ALERT_SWEEP_MS`, takes the open, unacknowledged alerts that are due (rows another
 * instance holds are skipped, so each is handled once), sends a "still down" reminder every `reminder_minutes` and
 * each escalation step's channels once its minutes have passed, and records how far it got in the row. The state
 * lives in the database, so an acknowledgement on any instance stops them everywhere. Muted targets send nothing;
 * a paused monitor's alerts stay open and are held (not taken) until it is resumed and checked again, and so are the
 * alerts of a monitor or agent in maintenance until the window ends (decisions.md).
 */
@Injectable()
export class AlertReminders implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AlertReminders.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly records: AlertRecordsRepository,
    private readonly sender: AlertSender,
    private readonly feed: AlertFeed,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().finally(() => (this.running = null));
    }, this.config.notifications.alertSweepMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; alerts whose reminder or escalation went out are pushed live after the commit. */
  async sweep(now = new Date()): Promise<void> {
    try {
      const changed = await this.dataSource.transaction((manager) => this.handleDue(manager, now));
      await this.feed.changed(changed);
    } catch (error) {
      this.logger.warn(`Reminder sweep failed: ${(error as Error).message}`);
    }
  }

  private async handleDue(manager: EntityManager, now: Date): Promise<number[]> {
    const due = await queryRows<AlertRow>(
      manager,
      `SELECT id, target_kind, target_id, target_name, metric, item, episode, opened_at, reminders_sent, escalation_step FROM alerts
       WHERE closed_at IS NULL AND acknowledged_at IS NULL AND metric <> 'flapping' AND (due_at IS NULL OR due_at <= $1)
         -- A deleted monitor or agent is reminded of no more; a paused monitor's alert is held until it is resumed,
         -- and one in maintenance until the window ends.
         AND CASE target_kind
               WHEN 'monitor' THEN EXISTS (SELECT 1 FROM monitors m WHERE m.id = target_id AND m.active AND m.status <> 'maintenance')
               ELSE EXISTS (SELECT 1 FROM agents g WHERE g.id = target_id AND NOT g.maintenance) END
       ORDER BY due_at NULLS FIRST, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      [now],
    );
    const minute = this.config.notifications.alertMinuteMs;
    const sends: Send[] = [];
    const updates: Array<{ id: number; reminders_sent: number; escalation_step: number; due_at: string; notified: boolean }> = [];
    for (const kind of ['monitor', 'agent'] as TargetKind[]) {
      const alerts = due.filter((a) => a.target_kind === kind);
      if (!alerts.length) continue;
      const ids = [...new Set(alerts.map((a) => a.target_id))];
      const settings = await this.sender.settings(manager, kind, ids);
      const muted = await this.records.muted(manager, kind, ids);
      for (const alert of alerts) {
        const applies = settings.for(alert.target_id);
        // Nothing configured or muted: look again in a while (a settings change looks at once).
        const idle = new Date(now.getTime() + IDLE_MINUTES * minute);
        if (!applies || muted.has(alert.target_id)) {
          const recheck = muted.has(alert.target_id) ? new Date(now.getTime() + minute) : idle;
          updates.push({ ...counters(alert), due_at: recheck.toISOString(), notified: false });
          continue;
        }
        const work = dueWork(
          { openedAt: new Date(alert.opened_at), remindersSent: alert.reminders_sent, escalationStep: alert.escalation_step },
          policyOf(applies)!,
          now,
          minute,
        );
        const episode = episodeKey(alert);
        const minutes = Math.floor((now.getTime() - new Date(alert.opened_at).getTime()) / minute);
        const base = {
          settings: applies,
          episode,
          alertId: alert.id,
          target: { kind, id: alert.target_id, name: alert.target_name },
          vars: {
            name: alert.target_name,
            alert: ITEM_PROBLEM[alert.metric]?.(alert.item) ?? PROBLEM[`${kind}:${alert.metric}`],
            since: formatTime(new Date(alert.opened_at)),
            minutes,
          },
          at: now,
        };
        if (work.remind) sends.push({ ...base, event: 'alert.reminder', key: `${episode}:reminder:${work.remindersSent}` });
        for (const step of work.steps)
          sends.push({
            ...base,
            event: 'alert.escalation',
            key: `${episode}:escalation:${step.number}`,
            channels: step.channels,
            vars: { ...base.vars, step: step.number },
          });
        updates.push({
          id: alert.id,
          reminders_sent: work.remindersSent,
          escalation_step: work.escalationStep,
          due_at: (work.nextAt ?? idle).toISOString(),
          notified: work.remind || work.steps.length > 0,
        });
      }
    }
    if (updates.length)
      await execute(
        manager,
        `UPDATE alerts a SET reminders_sent = u.reminders_sent, escalation_step = u.escalation_step, due_at = u.due_at,
           last_notified_at = CASE WHEN u.notified THEN now() ELSE a.last_notified_at END
         FROM jsonb_to_recordset($1::jsonb) AS u(id int, reminders_sent int, escalation_step int, due_at timestamptz, notified boolean)
         WHERE a.id = u.id`,
        [JSON.stringify(updates)],
      );
    await this.sender.send(manager, sends);
    return updates.filter((u) => u.notified).map((u) => u.id);
  }
}

const counters = (alert: AlertRow) => ({ id: alert.id, reminders_sent: alert.reminders_sent, escalation_step: alert.escalation_step });
