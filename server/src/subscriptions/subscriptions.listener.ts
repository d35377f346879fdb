import { Injectable } from '@nestjs/common';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { SubscriptionDeliveriesRepository, type NoticeScope } from './subscription-deliveries.repository';
import { SubscriptionDispatcher } from './subscription-dispatcher.service';
import { incidentNotice, maintenanceNotice, type NoticeDraft, type NoticePage } from './subscription-notices';

/**
 * Turns published incidents and maintenance windows into notices for the subscribers of the pages that show them.
 * Heard after commit on the instance that made the change only (each event is raised once, and maintenance starts
 * and ends are decided once across instances); the notices' keys keep a repeated event from sending twice.
 */
@Injectable()
export class SubscriptionsListener {
  constructor(
    private readonly deliveries: SubscriptionDeliveriesRepository,
    private readonly dispatcher: SubscriptionDispatcher,
  ) {}

  @OnEvent('incident.changed')
  async incidentChanged({ action, incident, pageIds }: EventMap['incident.changed']): Promise<void> {
    if (action === 'deleted' || !incident.published) return;
    const scope: NoticeScope = { all: false, monitors: incident.monitors, agents: incident.agents, groups: [] };
    await this.queue(pageIds, incident.pages, scope, (page, components) => incidentNotice(action, incident, page, components));
  }

  @OnEvent('maintenance.changed')
  async maintenanceChanged({ action, maintenance, pageIds }: EventMap['maintenance.changed']): Promise<void> {
    if (action === 'updated' || action === 'deleted') return;
    const now = new Date();
    await this.queue(pageIds, maintenance.pages, maintenance.scope, (page, components) =>
      maintenanceNotice(action, maintenance, page, components, now),
    );
  }

  /** The pages it is on now (of those it touched), one notice each, then a nudge to the dispatcher. */
  private async queue(
    pageIds: number[],
    slugs: string[],
    scope: NoticeScope,
    draft: (page: NoticePage, components: string[]) => NoticeDraft | null,
  ): Promise<void> {
    const pages = await this.deliveries.targets(pageIds, slugs, scope);
    const notices = pages.flatMap(({ id, slug, title, components }) => {
      const drafted = draft({ slug, title }, components);
      return drafted ? [{ pageId: id, ...drafted }] : [];
    });
    if ((await this.deliveries.add(notices)) > 0) this.dispatcher.nudge();
  }
}
