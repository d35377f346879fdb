import { Injectable, Logger } from '@nestjs/common';
import { ADMINS_ROOM, AgentsChangedEvent, MonitorsChangedEvent, UsersChangedEvent } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { RealtimeGateway } from './realtime.gateway';

/** The one place domain events become browser pushes. */
@Injectable()
export class RealtimeListener {
  private readonly logger = new Logger(RealtimeListener.name);

  constructor(private readonly gateway: RealtimeGateway) {}

  @OnEvent('user.created')
  userCreated({ user }: EventMap['user.created']): void {
    this.pushUserChange({ action: 'created', user });
  }

  @OnEvent('user.updated')
  userUpdated({ user }: EventMap['user.updated']): void {
    this.pushUserChange({ action: 'updated', user });
  }

  @OnEvent('user.deleted')
  userDeleted({ user }: EventMap['user.deleted']): void {
    this.pushUserChange({ action: 'deleted', user });
  }

  /** Every instance re-checks the sockets it holds: only it can change the user kept in their data. */
  @OnEvent('user.updated', { everyInstance: true })
  @OnEvent('user.deleted', { everyInstance: true })
  async revalidate({ user }: EventMap['user.updated']): Promise<void> {
    try {
      await this.gateway.revalidateUser(user.id);
    } catch (error) {
      this.logger.error(`Could not re-check the sockets of user ${user.id}: ${(error as Error).message}`);
    }
  }

  @OnEvent('monitor.created')
  monitorCreated({ monitor }: EventMap['monitor.created']): void {
    this.pushMonitorChange({ action: 'created', monitor });
  }

  @OnEvent('monitor.updated')
  monitorUpdated({ monitor }: EventMap['monitor.updated']): void {
    this.pushMonitorChange({ action: 'updated', monitor });
  }

  @OnEvent('monitor.deleted')
  monitorDeleted({ monitor }: EventMap['monitor.deleted']): void {
    this.pushMonitorChange({ action: 'deleted', monitor });
  }

  @OnEvent('monitor.checked')
  monitorChecked({ monitor, check, uptime }: EventMap['monitor.checked']): void {
    this.gateway.server.to(monitorRooms(monitor.id)).emit('monitor.checked', {
      monitorId: monitor.id,
      check,
      status: monitor.status,
      response_time: monitor.response_time,
      uptime,
      last_checked: monitor.last_checked ?? check.checked_at,
    });
  }

  @OnEvent('monitor.location_checked')
  monitorLocation({ monitor_id, location }: EventMap['monitor.location_checked']): void {
    this.gateway.server.to(monitorRooms(monitor_id)).emit('monitor.location', { monitor_id, location });
  }

  @OnEvent('monitor.status_changed')
  monitorStatusChanged({ monitor, previous, status, check }: EventMap['monitor.status_changed']): void {
    this.gateway.server.to(monitorRooms(monitor.id)).emit('monitor.status_changed', {
      monitorId: monitor.id,
      name: monitor.name,
      previous,
      status,
      check,
      changed_at: check.checked_at,
    });
  }

  private pushMonitorChange(event: MonitorsChangedEvent): void {
    this.gateway.server.to(monitorRooms(event.monitor.id)).emit('monitors.changed', event);
  }

  @OnEvent('agent.created')
  agentCreated({ agent }: EventMap['agent.created']): void {
    this.pushAgentChange({ action: 'created', agent });
  }

  @OnEvent('agent.updated')
  agentUpdated({ agent }: EventMap['agent.updated']): void {
    this.pushAgentChange({ action: 'updated', agent });
  }

  @OnEvent('agent.deleted')
  agentDeleted({ agent }: EventMap['agent.deleted']): void {
    this.pushAgentChange({ action: 'deleted', agent });
  }

  @OnEvent('agent.reported')
  agentReported({ agent, point }: EventMap['agent.reported']): void {
    this.gateway.server.to(agentRooms(agent.id)).emit('agent.reported', { agentId: agent.id, agent, point });
  }

  @OnEvent('agent.status_changed')
  agentStatusChanged({ agent, previous, previousUnreachable, status, changedAt }: EventMap['agent.status_changed']): void {
    this.gateway.server.to(agentRooms(agent.id)).emit('agent.status_changed', {
      agentId: agent.id,
      name: agent.name,
      previous,
      status,
      previous_unreachable: previousUnreachable,
      unreachable: agent.unreachable,
      changed_at: changedAt,
    });
  }

  @OnEvent('alert.changed')
  alertChanged({ alert }: EventMap['alert.changed']): void {
    this.gateway.server.to('alerts').emit('alert.changed', { alert });
  }

  /** Operators see every incident change (the pages it is on are told by PagePushesListener). */
  @OnEvent('incident.changed')
  incidentChanged({ action, incident }: EventMap['incident.changed']): void {
    this.gateway.server.to('incidents').emit('incident.changed', { action, id: incident.id });
  }

  /** Operators see every window saved, deleted, started or ended (the pages showing it are told by PagePushesListener). */
  @OnEvent('maintenance.changed')
  maintenanceChanged({ action, maintenance }: EventMap['maintenance.changed']): void {
    this.gateway.server.to('maintenance').emit('maintenance.changed', { action, id: maintenance.id });
  }

  @OnEvent('display_key.revoked')
  async displayKeyRevoked({ id }: EventMap['display_key.revoked']): Promise<void> {
    try {
      await this.gateway.dropDisplay(id);
    } catch (error) {
      this.logger.error(`Could not drop the wall screens of display key ${id}: ${(error as Error).message}`);
    }
  }

  private pushAgentChange(event: AgentsChangedEvent): void {
    this.gateway.server.to(agentRooms(event.agent.id)).emit('agents.changed', event);
  }

  private pushUserChange(event: UsersChangedEvent): void {
    this.gateway.server.to(ADMINS_ROOM).emit('users.changed', event);
  }
}

/** Monitor pushes go to the list room and the monitor's own room; a socket in both gets each push once. */
function monitorRooms(id: number): string[] {
  return ['monitors', `monitor:${id}`];
}

function agentRooms(id: number): string[] {
  return ['agents', `agent:${id}`];
}
