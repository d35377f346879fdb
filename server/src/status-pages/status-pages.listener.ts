import { Injectable } from '@nestjs/common';
import type { AgentDto } from '@vigil/proto';
import { percent } from '../agents/figures';
import { DomainEvents } from '../events/domain-events.service';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { publicTypeFields } from '../status/status.repository';
import { PageDirectory } from './page-directory';

/**
 * The instance that stored a check or took a report works out the component as the status pages show it and raises
 * `status_page.component_changed` once, only for components some page shows; every instance then puts it into the
 * pages it holds and pushes it (RealtimeListener → PageProjections.apply).
 */
@Injectable()
export class StatusPagesListener {
  constructor(
    private readonly directory: PageDirectory,
    private readonly events: DomainEvents,
  ) {}

  @OnEvent('monitor.checked')
  async monitorChecked({ monitor, check }: EventMap['monitor.checked']): Promise<void> {
    if (!(await this.directory.pagesOf(`m${monitor.id}`)).length) return;
    this.events.emit('status_page.component_changed', {
      monitor: {
        id: monitor.id,
        status: monitor.status,
        active: monitor.active,
        response_time: monitor.response_time,
        certificate_days: publicTypeFields(monitor, new Date(check.checked_at)).certificate_days ?? null,
        // As `monitor_hourly` counts it: successes (degraded ones too) are up; checks in maintenance do not count.
        check: check.status === 'maintenance' ? null : { ok: check.status === 'up' || check.status === 'degraded', at: check.checked_at },
      },
    });
  }

  @OnEvent('agent.reported')
  async agentReported({ agent }: EventMap['agent.reported']): Promise<void> {
    await this.agentChanged(agent);
  }

  @OnEvent('agent.status_changed')
  async agentStatusChanged({ agent }: EventMap['agent.status_changed']): Promise<void> {
    await this.agentChanged(agent);
  }

  private async agentChanged(agent: AgentDto): Promise<void> {
    if (!(await this.directory.pagesOf(`a${agent.id}`)).length) return;
    this.events.emit('status_page.component_changed', {
      agent: {
        id: agent.id,
        status: agent.status,
        unreachable: agent.unreachable,
        maintenance: agent.maintenance ?? false,
        hostname: agent.hostname,
        ip_address: agent.ip_address,
        cpu: agent.cpu_usage === null ? null : Math.round(agent.cpu_usage * 10) / 10,
        memory: percent(agent.memory_used, agent.memory_total),
        disk: percent(agent.disk_used, agent.disk_total),
      },
    });
  }
}
