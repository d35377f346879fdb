import { Injectable } from '@nestjs/common';
import { PAGE_SIZE_DEFAULT, type AlertDto, type AlertsResponse } from '@vigil/proto';
import { AgentsService } from '../agents/agents.service';
import { AuditLog } from '../audit/audit-log.service';
import { badRequest, conflict, notFound } from '../common/api-exception';
import type { AuthUser } from '../common/decorators';
import { DomainEvents } from '../events/domain-events.service';
import { MonitorsService } from '../monitors/monitors.service';
import { AlertFeed } from '../notifications/alert-feed.service';
import { AlertRecordsRepository, episodeKey, toAlertDto } from '../notifications/alert-records.repository';
import { AlertSender } from '../notifications/alert-sender';
import { formatTime } from '../notifications/messages';
import { AlertAckDto, AlertsQuery, MuteDto } from './alerts.dto';
import { MuteRepository } from './alerts.repository';

const YEAR_MS = 366 * 24 * 3_600_000;

/** The alerts list, acknowledgement and mute. */
@Injectable()
export class AlertsApiService {
  constructor(
    private readonly records: AlertRecordsRepository,
    private readonly feed: AlertFeed,
    private readonly sender: AlertSender,
    private readonly mutes: MuteRepository,
    private readonly audit: AuditLog,
    private readonly monitors: MonitorsService,
    private readonly agents: AgentsService,
    private readonly events: DomainEvents,
  ) {}

  async page(query: AlertsQuery): Promise<Omit<AlertsResponse, 'success'>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
    const { rows, total, counts } = await this.records.page({
      state: query.state ?? 'all',
      kind: query.kind,
      targetId: query.targetId,
      search: query.search,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    // One statement for the whole page's messages.
    const messages = await this.records.messages(rows.map((row) => row.id));
    return { alerts: rows.map((row) => toAlertDto(row, messages.get(row.id) ?? [])), total, page, pageSize, counts };
  }

  async get(id: number): Promise<AlertDto> {
    const [alert] = await this.feed.dtos([id]);
    if (!alert) throw notFound('alerts.notFound');
    return alert;
  }

  /**
   * The first acknowledgement stands (409 for a second one, or for a resolved alert): it stops reminders and
   * escalation on every instance (the sweep reads the row) and is carried to the incident services that were sent
   * the alert (PagerDuty, Opsgenie), in the transaction that records it.
   */
  async acknowledge(id: number, body: AlertAckDto, user: AuthUser): Promise<AlertDto> {
    await this.audit.transaction(async (db, record) => {
      const alert = await this.records.forUpdate(db, id);
      if (!alert) throw notFound('alerts.notFound');
      if (alert.acknowledged_at) throw conflict('alerts.alreadyAcknowledged');
      if (alert.closed_at) throw conflict('alerts.closed');
      const note = body.note ?? null;
      await this.records.acknowledge(db, id, user, note);
      await record({
        action: 'alert.acknowledged',
        target: { type: 'alert', id, name: alert.target_name },
        changes: { acknowledged: { before: false, after: true }, ...(note ? { note: { after: note } } : {}) },
      });
      const channels = await this.records.ackChannels(db, id);
      const episode = episodeKey(alert);
      await this.sender.send(
        db,
        channels.length
          ? [
              {
                settings: { channels: [] },
                channels: channels.map((c) => c.id),
                event: 'alert.acknowledged',
                key: `${episode}:ack`,
                episode,
                alertId: id,
                target: { kind: alert.target_kind, id: alert.target_id, name: alert.target_name },
                vars: {
                  name: alert.target_name,
                  alert: alert.metric,
                  since: formatTime(new Date(alert.opened_at)),
                  acknowledged_by: user.username,
                  note,
                },
                at: new Date(),
              },
            ]
          : [],
      );
    });
    await this.feed.changed([id]);
    return this.get(id);
  }

  /**
   * Until a time within a year (null: now); alerts are still recorded meanwhile, nothing is sent. Pushed live as an
   * edit of the monitor or agent (`muted_until` is on its DTO), on every instance.
   */
  async mute(kind: 'monitor' | 'agent', id: number, body: MuteDto): Promise<{ muted_until: string | null }> {
    const until = body.until === null ? null : new Date(body.until);
    if (until && (Number.isNaN(until.getTime()) || until.getTime() <= Date.now() || until.getTime() > Date.now() + YEAR_MS)) {
      throw badRequest('alerts.muteInvalid');
    }
    await this.audit.transaction(async (db, record) => {
      const done = await this.mutes.mute(db, kind, id, until);
      if (!done) throw notFound(kind === 'monitor' ? 'monitors.notFound' : 'agents.notFound');
      const before = done.before ? new Date(done.before).toISOString() : null;
      await record({
        action: kind === 'monitor' ? 'monitor.muted' : 'agent.muted',
        target: { type: kind, id, name: done.name },
        changes: { muted_until: { before, after: until?.toISOString() ?? null } },
      });
    });
    if (kind === 'monitor') await this.monitors.announceUpdated(id);
    else this.events.emit('agent.updated', { agent: await this.agents.get(id) });
    return { muted_until: until?.toISOString() ?? null };
  }
}
