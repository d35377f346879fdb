import { Injectable, Logger } from '@nestjs/common';
import { DEFAULT_PAGE_SLUG } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { PageDirectory } from '../status-pages/page-directory';
import { PageProjections } from '../status-pages/page-projections.service';
import { RealtimeGateway } from './realtime.gateway';
import { pageRoom } from './rooms';

/**
 * The realtime listener's part for status pages: every instance first puts the change into the page projections it
 * holds (or drops them), then pushes to the visitors connected to it (`local`), so none of them reads a stale copy:
 * `status.page_item` for a component, `status.page_changed` when the page must be read again. A page that has a
 * password after a save loses its room's sockets: they join again with its cookie.
 */
@Injectable()
export class PagePushesListener {
  private readonly logger = new Logger(PagePushesListener.name);

  constructor(
    private readonly gateway: RealtimeGateway,
    private readonly projections: PageProjections,
    private readonly directory: PageDirectory,
  ) {}

  @OnEvent('status_page.component_changed', { everyInstance: true })
  async componentChanged(change: EventMap['status_page.component_changed']): Promise<void> {
    for (const event of await this.projections.apply(change))
      this.gateway.server.local.to(pageRoom(event.slug)).emit('status.page_item', event);
  }

  @OnEvent('status_page.changed', { everyInstance: true })
  async pageChanged({ pageId, slug, previousSlug }: EventMap['status_page.changed']): Promise<void> {
    this.projections.reloadDirectory();
    this.projections.invalidate([pageId]);
    const rooms = [slug, ...(previousSlug ? [previousSlug] : [])];
    this.tell(rooms);
    try {
      const page = await this.directory.bySlug(slug);
      // Deleted, renamed away, or locked: its visitors join again, and the gateway checks them then.
      if (previousSlug) this.gateway.server.local.in(pageRoom(previousSlug)).socketsLeave(pageRoom(previousSlug));
      if (!page || page.password_hash) this.gateway.server.local.in(pageRoom(slug)).socketsLeave(pageRoom(slug));
    } catch (error) {
      this.logger.error(`Could not re-check the room of status page ${slug}: ${(error as Error).message}`);
    }
  }

  @OnEvent('incident.changed', { everyInstance: true })
  @OnEvent('maintenance.changed', { everyInstance: true })
  async storiesChanged({ pageIds }: EventMap['incident.changed'] | EventMap['maintenance.changed']): Promise<void> {
    this.projections.invalidate(pageIds);
    await this.tellPages(pageIds);
  }

  /** A component renamed, paused or moved: the pages showing it are read again. */
  @OnEvent('monitor.updated', { everyInstance: true })
  async monitorUpdated({ monitor }: EventMap['monitor.updated']): Promise<void> {
    await this.componentEdited(`m${monitor.id}`, false);
  }

  @OnEvent('monitor.deleted', { everyInstance: true })
  async monitorDeleted({ monitor }: EventMap['monitor.deleted']): Promise<void> {
    this.projections.forgetMonitor(monitor.id);
    await this.componentEdited(`m${monitor.id}`, true);
  }

  @OnEvent('agent.updated', { everyInstance: true })
  async agentUpdated({ agent }: EventMap['agent.updated']): Promise<void> {
    await this.componentEdited(`a${agent.id}`, false);
  }

  @OnEvent('agent.deleted', { everyInstance: true })
  async agentDeleted({ agent }: EventMap['agent.deleted']): Promise<void> {
    await this.componentEdited(`a${agent.id}`, true);
  }

  /** The spec's `/status` configuration saved the default page. */
  @OnEvent('status.config_changed', { everyInstance: true })
  async defaultPageChanged(): Promise<void> {
    this.projections.reloadDirectory();
    const page = await this.directory.bySlug(DEFAULT_PAGE_SLUG);
    if (page) this.projections.invalidate([page.id]);
    this.tell([DEFAULT_PAGE_SLUG]);
  }

  /** This instance may have missed the others' changes: every page is read again. */
  @OnEvent('server_events.resumed')
  resumed(): void {
    this.tell(this.projections.reset());
  }

  private async componentEdited(key: string, deleted: boolean): Promise<void> {
    // The directory may have been read after a deletion cascaded: the projections held here name their own too.
    const pageIds = [...new Set([...(await this.directory.pagesOf(key)), ...this.projections.holding(key)])];
    // A deleted component leaves its pages (the rows cascade): which pages show what is read again too.
    if (deleted) this.projections.reloadDirectory();
    if (!pageIds.length) return;
    this.projections.invalidate(pageIds);
    await this.tellPages(pageIds);
  }

  private async tellPages(pageIds: number[]): Promise<void> {
    const slugs: string[] = [];
    for (const id of pageIds) {
      const page = await this.directory.byId(id);
      if (page) slugs.push(page.slug);
    }
    this.tell(slugs);
  }

  private tell(slugs: string[]): void {
    for (const slug of new Set(slugs)) this.gateway.server.local.to(pageRoom(slug)).emit('status.page_changed', { slug });
  }
}
