import type { AgentDto, AgentMetricPoint, AgentStatus, MonitorDto, MonitorStatus } from '@vigil/proto';
import type { AppConfig } from '../../src/config/config';
import { APP_CONFIG } from '../../src/config/config.module';
import { DomainEvents } from '../../src/events/domain-events.service';
import { registerListeners } from '../../src/events/event-listeners';
import type { EventMap } from '../../src/events/event-map';
import { AlertRecordsRepository } from '../../src/notifications/alert-records.repository';
import { AlertSender } from '../../src/notifications/alert-sender';
import { AlertStateRepository } from '../../src/notifications/alert-state.repository';
import { AlertsService } from '../../src/notifications/alerts.service';
import { NotificationDispatcher } from '../../src/notifications/dispatcher.service';
import { NotificationsRepository } from '../../src/notifications/notifications.repository';
import { OutboxRepository } from '../../src/notifications/outbox.repository';
import type { TargetSettings } from '../../src/notifications/rules';
import { Fake, MediumDatabase, mediumDatabase, newMediumService } from './medium';

const settings = (channels: number[], overrides: Partial<TargetSettings> = {}): TargetSettings => ({
  enabled: true,
  on_down: true,
  on_recovery: true,
  on_certificate_expiry: true,
  on_offline: true,
  on_cpu_threshold: true,
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
  channels,
  override_global: false,
  on_degraded: false,
  reminder_minutes: null,
  escalation: [],
  ...overrides,
});

const monitor = (id: number, previous: MonitorStatus, status: MonitorStatus): EventMap['monitor.status_changed'] => ({
  monitor: { id, name: `Shop ${id}`, url: `https://shop-${id}.example.com/`, expected_status: 200, status, type: 'http' } as MonitorDto,
  previous,
  status,
  check: {
    id: 1,
    status: status === 'up' ? 'up' : 'down',
    status_code: status === 'up' ? 200 : null,
    response_time: 40,
    error: status === 'up' ? null : 'ECONNREFUSED',
    checked_at: new Date().toISOString(),
  },
});

const agentDto = (id: number, status: AgentStatus): AgentDto => ({
  id,
  name: `db-${id}`,
  hostname: `db-${id}.internal`,
  ip_address: '192.0.2.10',
  ip_addresses: ['192.0.2.10'],
  os: 'Debian GNU/Linux 12',
  version: '0.1.0',
  platform: 'linux',
  kernel: null,
  arch: 'x64',
  cpu_model: null,
  cpu_cores: 2,
  status,
  protocol: 'socket',
  interval: 5,
  cpu_usage: null,
  memory_total: null,
  memory_used: null,
  swap_total: null,
  swap_used: null,
  disk_total: null,
  disk_used: null,
  network_rx: null,
  network_tx: null,
  load1: null,
  load5: null,
  load15: null,
  host_uptime: null,
  disks: [],
  interfaces: [],
  registration_id: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
});

const agent = (id: number, previous: AgentStatus, status: AgentStatus): EventMap['agent.status_changed'] => ({
  agent: agentDto(id, status),
  previous,
  previousUnreachable: false,
  status,
  changedAt: new Date().toISOString(),
});
const reading = (id: number, cpu: number): EventMap['agent.report_stored'] => ({
  agent: agentDto(id, 'active'),
  point: {
    time: new Date().toISOString(),
    cpu,
    cpu_max: cpu,
    memory: null,
    disk: null,
    rx: 0,
    tx: 0,
    load1: null,
  } satisfies AgentMetricPoint,
  interfaces: [],
  insight: null,
});

describe(AlertsService.name, () => {
  let database: MediumDatabase;
  let events: DomainEvents;
  let alerts: AlertsService;
  let notifications: NotificationsRepository;
  let dispatcher: Fake<NotificationDispatcher>;
  let close: () => Promise<void>;
  let channels: { first: number; second: number; disabled: number };
  /** Reports above a threshold in a row that raise its alert (configuration). */
  let window: number;

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(AlertsService, database, {
      real: [DomainEvents, AlertSender, AlertStateRepository, AlertRecordsRepository, NotificationsRepository, OutboxRepository],
    });
    ({ close } = service);
    events = service.get(DomainEvents);
    alerts = service.sut;
    registerListeners(events, alerts);
    window = service.get<AppConfig>(APP_CONFIG).notifications.thresholdReports;
    notifications = service.get(NotificationsRepository);
    dispatcher = service.get(NotificationDispatcher) as unknown as Fake<NotificationDispatcher>;
    const channel = (name: string, enabled: boolean) =>
      notifications.insertChannel({ name, type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' }, enabled, language: 'en-US' });
    channels = { first: await channel('Ops', true), second: await channel('On call', true), disabled: await channel('Old', false) };
  });
  beforeEach(async () => {
    await database.dataSource.query(`DELETE FROM notification_outbox; DELETE FROM alert_state; DELETE FROM notification_settings`);
    dispatcher.nudge.mockClear();
    const all = [channels.first, channels.second, channels.disabled];
    await notifications.saveSettings('global-monitor', null, settings(all));
    await notifications.saveSettings('global-agent', null, settings(all));
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  /** Raises events as their writers do: inside the writing transaction, which the outbox hears in phase `transaction`. */
  const record = <K extends 'monitor.status_changed' | 'agent.status_changed' | 'agent.report_stored'>(
    name: K,
    payloads: Array<EventMap[K]>,
  ) =>
    events.transaction(database.dataSource, async (_manager, raise) => {
      for (const payload of payloads) raise(name, payload);
    });
  const recordMonitors = (...transitions: Array<EventMap['monitor.status_changed']>) => record('monitor.status_changed', transitions);
  const recordAgents = (...transitions: Array<EventMap['agent.status_changed']>) => record('agent.status_changed', transitions);
  const recordReadings = (...readings: Array<EventMap['agent.report_stored']>) => record('agent.report_stored', readings);

  const outbox = (): Promise<Array<{ event: string; channel_id: number; target: string; subject: string }>> =>
    database.dataSource.query(
      `SELECT event, channel_id, target_kind || ':' || target_id AS target, message->>'subject' AS subject
       FROM notification_outbox ORDER BY id`,
    );
  const episode = async (kind: string, id: number, metric = 'status') =>
    (
      await database.dataSource.query(
        `SELECT open, episode, notified FROM alert_state WHERE kind = $1 AND target_id = $2 AND metric = $3`,
        [kind, id, metric],
      )
    )[0];
  const sent = (event: string, target: string) =>
    [channels.first, channels.second].map((channel_id) => expect.objectContaining({ event, channel_id, target }));

  it('opens an episode when a monitor goes down and queues one message per enabled channel of its settings', async () => {
    await recordMonitors(monitor(1, 'up', 'down'));
    expect(await outbox()).toEqual(sent('monitor.down', 'monitor:1'));
    expect((await outbox())[0].subject).toContain('Shop 1');
    expect(await episode('monitor', 1)).toEqual({ open: true, episode: 1, notified: true });
    expect(dispatcher.nudge).toHaveBeenCalledTimes(1);
  });

  it('queues nothing more for further down results while the episode is open', async () => {
    await recordMonitors(monitor(2, 'pending', 'down'));
    await recordMonitors(monitor(2, 'pending', 'down'), monitor(2, 'up', 'down'));
    expect(await outbox()).toEqual(sent('monitor.down', 'monitor:2'));
    expect(await episode('monitor', 2)).toEqual({ open: true, episode: 1, notified: true });
    expect(dispatcher.nudge).toHaveBeenCalledTimes(1);
  });

  it('closes the episode on recovery with one recovery message per channel, and opens a new one on the next outage', async () => {
    await recordMonitors(monitor(3, 'up', 'down'));
    await recordMonitors(monitor(3, 'down', 'up'));
    expect(await episode('monitor', 3)).toEqual({ open: false, episode: 1, notified: false });
    await recordMonitors(monitor(3, 'up', 'down'));
    expect(await outbox()).toEqual([
      ...sent('monitor.down', 'monitor:3'),
      ...sent('monitor.recovery', 'monitor:3'),
      ...sent('monitor.down', 'monitor:3'),
    ]);
    expect(await episode('monitor', 3)).toEqual({ open: true, episode: 2, notified: true });
  });

  it('does not announce a recovery whose outage was not announced', async () => {
    await notifications.saveSettings('global-monitor', null, settings([channels.first], { on_down: false }));
    await recordMonitors(monitor(4, 'up', 'down'));
    expect(await episode('monitor', 4)).toEqual({ open: true, episode: 1, notified: false });
    await notifications.saveSettings('global-monitor', null, settings([channels.first]));
    await recordMonitors(monitor(4, 'down', 'pending'), monitor(4, 'pending', 'up'));
    expect(await outbox()).toEqual([]);
    expect(await episode('monitor', 4)).toEqual({ open: false, episode: 1, notified: false });
    expect(dispatcher.nudge).not.toHaveBeenCalled();
  });

  it('sends to the channels of a monitor whose own settings override the global ones', async () => {
    await notifications.saveSettings('monitor', 5, settings([channels.second], { override_global: true }));
    await recordMonitors(monitor(5, 'up', 'down'), monitor(6, 'up', 'down'));
    expect(await outbox()).toEqual([
      expect.objectContaining({ event: 'monitor.down', channel_id: channels.second, target: 'monitor:5' }),
      ...sent('monitor.down', 'monitor:6'),
    ]);
  });

  it('keeps neither the episode nor its messages when the recording transaction rolls back', async () => {
    // A listener after the outbox fails, once the outbox has written its rows in the transaction.
    const failing = new DomainEvents();
    registerListeners(failing, alerts);
    failing.on('monitor.status_changed', { phase: 'transaction', everyInstance: false }, () =>
      Promise.reject(new Error('the check results could not be stored')),
    );
    const failed = failing.transaction(database.dataSource, async (_manager, raise) =>
      raise('monitor.status_changed', monitor(7, 'up', 'down')),
    );
    await expect(failed).rejects.toThrow('could not be stored');
    expect(await outbox()).toEqual([]);
    expect(await episode('monitor', 7)).toBeUndefined();
    await recordMonitors(monitor(7, 'up', 'down'));
    expect(await outbox()).toEqual(sent('monitor.down', 'monitor:7'));
  });

  it('opens an episode when an agent goes offline and closes it once the agent reports again', async () => {
    await recordAgents(agent(8, 'active', 'inactive'));
    await recordAgents(agent(8, 'inactive', 'connecting'));
    expect(await episode('agent', 8)).toEqual({ open: true, episode: 1, notified: true });
    await recordAgents(agent(8, 'connecting', 'active'));
    expect(await outbox()).toEqual([...sent('agent.offline', 'agent:8'), ...sent('agent.recovery', 'agent:8')]);
    expect(await episode('agent', 8)).toEqual({ open: false, episode: 1, notified: false });
  });

  it('alerts once when CPU stays above its threshold for the configured number of reports, and once when it falls back', async () => {
    for (let i = 1; i < window; i += 1) await recordReadings(reading(9, 95));
    expect(await outbox()).toEqual([]);
    await recordReadings(reading(9, 96));
    await recordReadings(reading(9, 97), reading(9, 98));
    expect(await outbox()).toEqual(sent('agent.cpu_high', 'agent:9'));
    await recordReadings(reading(9, 40));
    await recordReadings(reading(9, 30));
    expect(await outbox()).toEqual([...sent('agent.cpu_high', 'agent:9'), ...sent('agent.cpu_recovery', 'agent:9')]);
    expect(await episode('agent', 9, 'cpu')).toEqual({ open: false, episode: 1, notified: false });
  });

  it('starts the count afresh when a report below the threshold breaks the streak', async () => {
    const high = Array.from({ length: window - 1 }, () => reading(10, 95));
    await recordReadings(...high, reading(10, 50), ...high);
    expect(await outbox()).toEqual([]);
    await recordReadings(reading(10, 95));
    expect(await outbox()).toEqual(sent('agent.cpu_high', 'agent:10'));
  });

  describe('host thresholds (issue 32)', () => {
    const hot = (id: number, celsius: number): EventMap['agent.report_stored'] => ({
      ...reading(id, 10),
      insight: {
        sensors: [
          { name: 'coretemp Package id 0', celsius: 50 },
          { name: 'nvme Composite', celsius },
        ],
      },
    });
    const hostSettings = (overrides: Partial<TargetSettings>) =>
      notifications.saveSettings('global-agent', null, settings([channels.first], { on_cpu_threshold: false, ...overrides }));
    const contents = async () =>
      (await database.dataSource.query(`SELECT message->>'text' AS content FROM notification_outbox ORDER BY id`)).map(
        (row: { content: string }) => row.content,
      );

    it('opens one temperature episode naming the hottest sensor, sends nothing more while it lasts, and recovers', async () => {
      await hostSettings({ on_temperature_threshold: true, temperature_threshold: 80 });
      for (let i = 1; i < window; i += 1) await recordReadings(hot(11, 85));
      expect(await outbox()).toEqual([]);
      await recordReadings(hot(11, 86));
      await recordReadings(hot(11, 90), hot(11, 91));
      expect(await outbox()).toEqual([expect.objectContaining({ event: 'agent.temperature_high', target: 'agent:11' })]);
      expect((await contents())[0]).toContain('Sensor nvme Composite on db-11 (db-11.internal) reads 86 °C, above the 80 °C');
      expect(await episode('agent', 11, 'temperature')).toEqual({ open: true, episode: 1, notified: true });

      await recordReadings(hot(11, 60));
      expect((await outbox()).map((row) => row.event)).toEqual(['agent.temperature_high', 'agent.temperature_recovery']);
      expect((await contents())[1]).toContain('back at or below 80 °C (hottest nvme Composite: 60 °C)');
      expect(await episode('agent', 11, 'temperature')).toEqual({ open: false, episode: 1, notified: false });
      const [row] = await database.dataSource.query(`SELECT metric, closed_at FROM alerts WHERE target_id = 11 AND target_kind = 'agent'`);
      expect(row).toEqual({ metric: 'temperature', closed_at: expect.any(Date) });
    });

    it('judges load per CPU core, bandwidth and disk I/O each as its own episode', async () => {
      await hostSettings({
        on_load_threshold: true,
        load_threshold: 150,
        on_bandwidth_threshold: true,
        bandwidth_threshold: 1_000,
        on_disk_io_threshold: true,
        disk_io_threshold: 90,
      });
      // Two cores: load1 4 is 200 % of them; eth1 sends 5,000 KB/s; sdb is 95 % busy.
      const busy: EventMap['agent.report_stored'] = {
        ...reading(12, 10),
        point: { ...reading(12, 10).point, load1: 4 },
        interfaces: [
          { name: 'eth0', rx_rate: 10, tx_rate: 10 },
          { name: 'eth1', rx_rate: 20, tx_rate: 5_000 },
        ],
        insight: { disk_io: [{ device: 'sdb', read_rate: 1, write_rate: 2, busy: 95 }] },
      };
      for (let i = 0; i < window + 2; i += 1) await recordReadings(busy);
      expect((await outbox()).map((row) => row.event).sort()).toEqual(['agent.bandwidth_high', 'agent.disk_io_high', 'agent.load_high']);
      const texts = await contents();
      expect(texts).toEqual(
        expect.arrayContaining([
          expect.stringContaining('Load on db-12 (db-12.internal) is 200% of its CPU cores'),
          expect.stringContaining('Interface eth1 on db-12 (db-12.internal) carries 5000 KB/s'),
          expect.stringContaining('Disk sdb on db-12 (db-12.internal) is 95% busy'),
        ]),
      );
    });

    it('sends nothing for a host threshold that is switched off', async () => {
      await hostSettings({ on_temperature_threshold: false, temperature_threshold: 80 });
      for (let i = 0; i < window + 1; i += 1) await recordReadings(hot(13, 99));
      expect(await outbox()).toEqual([]);
      expect(await episode('agent', 13, 'temperature')).toBeUndefined();
    });
  });
});
