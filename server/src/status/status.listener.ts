import { Injectable, Logger } from '@nestjs/common';
import { AgentStatus, MonitorStatus, StatusChange } from '@vigil/proto';
import { DomainEvents } from '../events/domain-events.service';
import type { EventMap, StatusItemChange } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { StatusRepository } from './status.repository';
import { StatusService } from './status.service';

const STATUS_ROOM = 'status';
const WALL_ROOM = 'wall';
/** Rows kept in the feed of status changes. */
const FEED_KEEP = 1_000;

/**
 * Turns monitor and agent events into the public projections. The instance that stored a check or took a report
 * works out the changed status page item and raises `status.item_changed`; every instance applies it to its snapshot
 * and pushes it to the visitors connected to it (`status` room: only selected items, never a URL or secret). Changes
 * of what is on the page drop every instance's snapshot and tell its visitors and walls to read again, only after it
 * did, so none reads a stale copy. Transitions are recorded once, by the instance that raised them, for the
 * dashboard's and wall's feed, and pushed to every wall through the socket.io adapter.
 */
@Injectable()
export class StatusListener {
  private readonly logger = new Logger(StatusListener.name);
  private recorded = 0;

  constructor(
    private readonly service: StatusService,
    private readonly repository: StatusRepository,
    private readonly gateway: RealtimeGateway,
    private readonly events: DomainEvents,
  ) {}

  @OnEvent('monitor.checked')
  async monitorChecked({ monitor, check, uptime }: EventMap['monitor.checked']): Promise<void> {
    this.raise(await this.service.patchMonitor(monitor, check, uptime));
  }

  @OnEvent('agent.reported')
  async agentReported({ agent }: EventMap['agent.reported']): Promise<void> {
    this.raise(await this.service.patchAgent(agent));
  }

  @OnEvent('monitor.status_changed')
  async monitorStatusChanged({ monitor, previous, status }: EventMap['monitor.status_changed']): Promise<void> {
    await this.record({ kind: 'monitor', id: monitor.id, name: monitor.name, previous, status });
  }

  @OnEvent('agent.status_changed')
  async agentStatusChanged({ agent, previous, status }: EventMap['agent.status_changed']): Promise<void> {
    this.raise(await this.service.patchAgent(agent));
    await this.record({ kind: 'agent', id: agent.id, name: agent.name, previous, status });
  }

  /**
   * A location's result reaches the walls only when it starts or stops failing, as the monitor's counts read then
   * (10,000 location checks a minute must not become 10,000 pushes). The event carries the location's status before
   * it, as stored, so whichever instance stored a result judges the flip alike.
   */
  @OnEvent('monitor.location_checked')
  async locationChecked({ monitor_id, location, previous }: EventMap['monitor.location_checked']): Promise<void> {
    if ((previous === 'down') === (location.status === 'down')) return;
    const counts = await this.service.wallLocations(monitor_id);
    if (counts) this.gateway.server.to(WALL_ROOM).emit('wall.locations', counts);
  }

  /** Here too when this instance raised it: putting the same item again changes nothing, and the push goes out. */
  @OnEvent('status.item_changed', { everyInstance: true })
  async itemChanged(change: EventMap['status.item_changed']): Promise<void> {
    const data = await this.service.apply(change);
    this.gateway.server.local.to(STATUS_ROOM).emit('status.item', { ...change, overall: data.overall, updated_at: data.updated_at });
  }

  /**
   * Anything that changes which items exist or what they are called, or a break in the link to the other instances
   * (their changes may have been missed): the status page and walls read again.
   */
  @OnEvent('monitor.created', { everyInstance: true })
  @OnEvent('monitor.updated', { everyInstance: true })
  @OnEvent('monitor.deleted', { everyInstance: true })
  @OnEvent('agent.created', { everyInstance: true })
  @OnEvent('agent.updated', { everyInstance: true })
  @OnEvent('agent.deleted', { everyInstance: true })
  @OnEvent('status.config_changed', { everyInstance: true })
  @OnEvent('server_events.resumed')
  itemsChanged(): void {
    this.service.invalidate();
    this.gateway.server.local.to(STATUS_ROOM).emit('status.changed');
    this.gateway.server.local.to(WALL_ROOM).emit('wall.changed');
  }

  private raise(change: StatusItemChange | null): void {
    if (change) this.events.emit('status.item_changed', change);
  }

  private async record(change: {
    kind: 'monitor' | 'agent';
    id: number;
    name: string;
    previous: MonitorStatus | AgentStatus;
    status: MonitorStatus | AgentStatus;
  }): Promise<void> {
    try {
      const stored: StatusChange = await this.repository.recordChange(change);
      this.gateway.server.to(WALL_ROOM).emit('wall.change', stored);
      this.recorded += 1;
      if (this.recorded % 100 === 0) await this.repository.pruneChanges(FEED_KEEP);
    } catch (error) {
      this.logger.error(`Recording a status change failed: ${(error as Error).message}`);
    }
  }
}
