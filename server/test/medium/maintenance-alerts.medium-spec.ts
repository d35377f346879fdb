import type { AgentDto, AgentStatus, MonitorDto, MonitorStatus } from '@vigil/proto';
import { DomainEvents } from '../../src/events/domain-events.service';
import { registerListeners } from '../../src/events/event-listeners';
import type { EventMap } from '../../src/events/event-map';
import { AlertRecordsRepository } from '../../src/notifications/alert-records.repository';
import { AlertSender } from '../../src/notifications/alert-sender';
import { AlertStateRepository } from '../../src/notifications/alert-state.repository';
import { AlertsService } from '../../src/notifications/alerts.service';
import { NotificationsRepository } from '../../src/notifications/notifications.repository';
import { OutboxRepository } from '../../src/notifications/outbox.repository';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const monitor = (id: number, previous: MonitorStatus, status: MonitorStatus): EventMap['monitor.status_changed'] => ({
  monitor: { id, name: `Shop ${id}`, url: `https://shop-${id}.example.com/`, expected_status: 200, status, type: 'http' } as MonitorDto,
  previous,
  status,
  check: {
    id: 1,
    status: status === 'maintenance' ? 'maintenance' : status === 'up' ? 'up' : 'down',
    status_code: null,
    response_time: null,
    error: status === 'up' ? null : 'ECONNREFUSED',
    checked_at: new Date().toISOString(),
  },
});

const agentDto = (id: number, status: AgentStatus, maintenance: boolean) =>
  ({
    id,
    name: `db-${id}`,
    hostname: `db-${id}`,
    ip_addresses: [],
    os: null,
    status,
    unreachable: false,
    maintenance,
  }) as unknown as AgentDto;

/**
 * What alerting does with maintenance (the transitions and flags come from the state machine and the sweep, faked
 * here as their events): a move into maintenance sends nothing, coming out of it still failing is a normal down
 * alert; an agent going offline in a window sends nothing, and the window's end sends its offline alert then.
 */
describe('alerts around maintenance windows', () => {
  let database: MediumDatabase;
  let events: DomainEvents;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(AlertsService, database, {
      real: [DomainEvents, AlertSender, AlertStateRepository, AlertRecordsRepository, NotificationsRepository, OutboxRepository],
    });
    close = service.close;
    events = service.get(DomainEvents);
    registerListeners(events, service.sut);
    const notifications = service.get(NotificationsRepository);
    const channel = await notifications.insertChannel({
      name: 'Ops',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
      enabled: true,
      language: 'en-US',
    });
    const settings = { enabled: true, on_down: true, on_recovery: true, on_offline: true, channels: [channel] };
    for (const type of ['global-monitor', 'global-agent'] as const)
      await notifications.saveSettings(type, null, {
        ...settings,
        on_certificate_expiry: false,
        on_cpu_threshold: false,
        cpu_threshold: 90,
        on_memory_threshold: false,
        memory_threshold: 90,
        on_disk_threshold: false,
        disk_threshold: 90,
        on_load_threshold: false,
        load_threshold: 100,
        on_temperature_threshold: false,
        temperature_threshold: 80,
        on_disk_io_threshold: false,
        disk_io_threshold: 90,
        on_bandwidth_threshold: false,
        bandwidth_threshold: 102_400,
        on_container_down: false,
        on_container_unhealthy: false,
        on_service_failed: false,
        override_global: false,
        on_degraded: false,
        reminder_minutes: null,
        escalation: [],
      });
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  const raise = <K extends 'monitor.status_changed' | 'agent.status_changed' | 'agent.maintenance_ended'>(name: K, payload: EventMap[K]) =>
    events.transaction(database.dataSource, async (_manager, raiseIn) => raiseIn(name, payload));
  const sent = async (target: string): Promise<string[]> =>
    (
      await database.dataSource.query(`SELECT event FROM notification_outbox WHERE target_kind || ':' || target_id = $1 ORDER BY id`, [
        target,
      ])
    ).map((row: { event: string }) => row.event);

  it('sends nothing when a monitor moves into maintenance, and the down alert when it comes out still failing', async () => {
    await raise('monitor.status_changed', monitor(1, 'up', 'maintenance'));
    await raise('monitor.status_changed', monitor(1, 'maintenance', 'maintenance'));
    expect(await sent('monitor:1')).toEqual([]);
    await raise('monitor.status_changed', monitor(1, 'maintenance', 'down'));
    expect(await sent('monitor:1')).toEqual(['monitor.down']);
  });

  it('comes out of maintenance up without a word when it was up before', async () => {
    await raise('monitor.status_changed', monitor(2, 'up', 'maintenance'));
    await raise('monitor.status_changed', monitor(2, 'maintenance', 'up'));
    expect(await sent('monitor:2')).toEqual([]);
  });

  it('holds an agent gone offline in a window, and alerts once when the window ends with it still offline', async () => {
    await raise('agent.status_changed', {
      agent: agentDto(3, 'inactive', true),
      previous: 'active',
      previousUnreachable: false,
      status: 'inactive',
      changedAt: new Date().toISOString(),
    });
    expect(await sent('agent:3')).toEqual([]);
    await raise('agent.maintenance_ended', { agent: agentDto(3, 'inactive', false), at: new Date().toISOString() });
    await raise('agent.maintenance_ended', { agent: agentDto(3, 'inactive', false), at: new Date().toISOString() });
    expect(await sent('agent:3')).toEqual(['agent.offline']);
  });

  it('sends nothing for an agent back online when its window ends', async () => {
    await raise('agent.maintenance_ended', { agent: agentDto(4, 'active', false), at: new Date().toISOString() });
    expect(await sent('agent:4')).toEqual([]);
  });
});
