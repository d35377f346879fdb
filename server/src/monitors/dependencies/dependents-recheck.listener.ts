import { Injectable, Logger } from '@nestjs/common';
import type { AgentStatus, DependencyRef, MonitorStatus } from '@vigil/proto';
import { DataSource } from 'typeorm';
import type { EventMap } from '../../events/event-map';
import { OnEvent } from '../../events/on-event.decorator';
import { CheckScheduler } from '../check-scheduler.service';
import { toScheduled } from '../monitor.mapper';
import { MonitorsRepository } from '../monitors.repository';
import { DependenciesRepository } from './dependencies.repository';

const monitorDown = (status: MonitorStatus) => status === 'down' || status === 'unreachable';
const agentDown = (status: AgentStatus) => status === 'inactive';

/**
 * When a dependency goes down or comes back, its failing dependents are checked at once instead of at their next
 * slot: a pending one becomes unreachable before its retries run out, an unreachable one that still fails turns down
 * (and alerts) within seconds of the recovery, one that works again turns up. Each of those transitions re-checks its
 * own dependents, so a chain settles link by link. After commit, on the instance that stored the transition.
 */
@Injectable()
export class DependentsRecheck {
  private readonly logger = new Logger(DependentsRecheck.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly dependencies: DependenciesRepository,
    private readonly monitors: MonitorsRepository,
    private readonly scheduler: CheckScheduler,
  ) {}

  @OnEvent('monitor.status_changed')
  async monitorChanged({ monitor, previous, status }: EventMap['monitor.status_changed']): Promise<void> {
    if (monitorDown(previous) === monitorDown(status)) return;
    await this.recheck({ type: 'monitor', id: monitor.id }, monitorDown(status));
  }

  @OnEvent('agent.status_changed')
  async agentChanged({ agent, previous, status }: EventMap['agent.status_changed']): Promise<void> {
    if (agentDown(previous) === agentDown(status)) return;
    await this.recheck({ type: 'agent', id: agent.id }, agentDown(status));
  }

  /** Went down: its pending dependents; came back: its unreachable ones. Paused ones are left alone. */
  private async recheck(dependency: DependencyRef, down: boolean): Promise<void> {
    try {
      const waiting: MonitorStatus = down ? 'pending' : 'unreachable';
      const dependents = await this.dependencies.dependentsOf(this.dataSource, dependency, 1);
      for (const dependent of dependents) {
        if (dependent.ref.type !== 'monitor' || !dependent.active || dependent.status !== waiting) continue;
        const row = await this.monitors.findById(dependent.ref.id);
        if (row?.active) await this.scheduler.schedule(toScheduled(row), { checkNow: true });
      }
    } catch (error) {
      this.logger.error(`Re-checking the dependents of ${dependency.type} ${dependency.id} failed: ${(error as Error).message}`);
    }
  }
}
