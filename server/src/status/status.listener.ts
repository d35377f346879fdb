import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AgentStatus, MonitorStatus, StatusChange, SUMMARY_HISTORY_SLOTS } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { publicAgent, StatusRepository } from './status.repository';
import { StatusService } from './status.service';

const STATUS_ROOM = 'status';
const WALL_ROOM = 'wall';
/** Rows kept in the feed of status changes. */
const FEED_KEEP = 1_000;

/**
 * Turns monitor and agent events into the public projections: patches the status page snapshot and pushes the
 * changed item to the `status` room (only selected items, never a URL or secret), pushes transitions to the `wall`
 * room, and records transitions for the dashboard's and wall's feed.
 */
@Injectable()
export class StatusListener {
  private readonly logger = new Logger(StatusListener.name);
  private recorded = 0;

  constructor(
    private readonly service: StatusService,
    private readonly repository: StatusRepository,
    private readonly gateway: RealtimeGateway,
  ) {}

  @OnEvent('monitor.checked')
  monitorChecked({ monitor, check, uptime }: EventMap['monitor.checked']): void {
    const data = this.service.current();
    const item = data?.monitors.find((m) => m.id === monitor.id);
    if (!data || !item) return;
    item.status = monitor.status;
    item.active = monitor.active;
    item.response_time = monitor.response_time;
    item.uptime = uptime;
    item.last_checked = check.checked_at;
    item.history = [...item.history, { status: check.status, timestamp: check.checked_at }].slice(-SUMMARY_HISTORY_SLOTS);
    this.service.touch(data);
    this.gateway.server.to(STATUS_ROOM).emit('status.item', { monitor: item, overall: data.overall, updated_at: data.updated_at });
  }

  @OnEvent('agent.reported')
  agentReported({ agent }: EventMap['agent.reported']): void {
    this.patchAgent(agent);
  }

  @OnEvent('monitor.status_changed', { async: true, promisify: true })
  async monitorStatusChanged({ monitor, previous, status }: EventMap['monitor.status_changed']): Promise<void> {
    await this.record({ kind: 'monitor', id: monitor.id, name: monitor.name, previous, status });
  }

  @OnEvent('agent.status_changed', { async: true, promisify: true })
  async agentStatusChanged({ agent, previous, status }: EventMap['agent.status_changed']): Promise<void> {
    this.patchAgent(agent);
    await this.record({ kind: 'agent', id: agent.id, name: agent.name, previous, status });
  }

  /** Anything that changes which items exist or what they are called: the status page and walls read again. */
  @OnEvent('monitor.created')
  @OnEvent('monitor.updated')
  @OnEvent('monitor.deleted')
  @OnEvent('agent.created')
  @OnEvent('agent.updated')
  @OnEvent('agent.deleted')
  @OnEvent('status.config_changed')
  itemsChanged(): void {
    this.service.invalidate();
    this.gateway.server.to(STATUS_ROOM).emit('status.changed');
    this.gateway.server.to(WALL_ROOM).emit('wall.changed');
  }

  private patchAgent(agent: EventMap['agent.reported']['agent']): void {
    const data = this.service.current();
    const index = data?.agents.findIndex((a) => a.id === agent.id) ?? -1;
    if (!data || index < 0) return;
    const item = publicAgent(agent, data.showResources);
    data.agents[index] = item;
    this.service.touch(data);
    this.gateway.server.to(STATUS_ROOM).emit('status.item', { agent: item, overall: data.overall, updated_at: data.updated_at });
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
