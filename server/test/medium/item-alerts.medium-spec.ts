import type { AgentContainerReport, AgentDto } from '@vigil/proto';
import type { AppConfig } from '../../src/config/config';
import { APP_CONFIG } from '../../src/config/config.module';
import { DomainEvents } from '../../src/events/domain-events.service';
import { registerListeners } from '../../src/events/event-listeners';
import type { EventMap } from '../../src/events/event-map';
import { AlertRecordsRepository } from '../../src/notifications/alert-records.repository';
import { AlertSender } from '../../src/notifications/alert-sender';
import { AlertStateRepository } from '../../src/notifications/alert-state.repository';
import { AlertsService } from '../../src/notifications/alerts.service';
import { SETTINGS_DEFAULTS } from '../../src/notifications/notifications.dto';
import { NotificationsRepository } from '../../src/notifications/notifications.repository';
import { OutboxRepository } from '../../src/notifications/outbox.repository';
import { mediumDatabase, MediumDatabase, newMediumService, undoThrough } from './medium';

const MIGRATION = 'ItemAlerts1765670000000';
/** A container name as long as the protocol allows: its keys must still fit the outbox's 255 characters. */
const LONG = `svc-${'x'.repeat(240)}`;

const container = (name: string, state: AgentContainerReport['state']) =>
  ({ id: 'abcdef012345', name, image: 'app:1', state, health: 'none', cpu: 0, memory_used: 0, memory_limit: 0 }) as AgentContainerReport;
const report = (agentId: number, containers: AgentContainerReport[]): EventMap['agent.report_stored'] => ({
  agent: { id: agentId, name: `box-${agentId}`, hostname: `box-${agentId}.lan`, ip_addresses: ['192.0.2.7'], os: 'Debian' } as AgentDto,
  point: { time: new Date().toISOString(), cpu: 1, cpu_max: 1, memory: null, disk: null, rx: 0, tx: 0, load1: null },
  interfaces: [],
  insight: { containers },
});

/**
 * Issue 32's per-item alerts on a real database: one `alert_state` row and one `alerts` episode per container (the
 * item in their keys), notifications keyed per item, and the migration's way down and up again.
 */
describe('container alerts, one episode per container', () => {
  let database: MediumDatabase;
  let events: DomainEvents;
  let notifications: NotificationsRepository;
  let close: () => Promise<void>;
  let channel: number;
  let window: number;

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(AlertsService, database, {
      real: [DomainEvents, AlertSender, AlertStateRepository, AlertRecordsRepository, NotificationsRepository, OutboxRepository],
    });
    ({ close } = service);
    events = service.get(DomainEvents);
    registerListeners(events, service.sut);
    window = service.get<AppConfig>(APP_CONFIG).notifications.thresholdReports;
    notifications = service.get(NotificationsRepository);
    channel = await notifications.insertChannel({
      name: 'Ops',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
      enabled: true,
      language: 'en-US',
    });
  });
  beforeEach(async () => {
    await database.dataSource.query(
      `DELETE FROM notification_outbox; DELETE FROM alert_state; DELETE FROM alerts; DELETE FROM notification_settings`,
    );
    await watch(true);
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  const watch = (on: boolean) =>
    notifications.saveSettings('global-agent', null, {
      ...SETTINGS_DEFAULTS,
      enabled: true,
      on_container_down: on,
      on_service_failed: on,
      channels: [channel],
    });
  const reports = async (times: number, ...payloads: Array<EventMap['agent.report_stored']>) => {
    for (let i = 0; i < times; i += 1)
      await events.transaction(database.dataSource, async (_manager, raise) => {
        for (const payload of payloads) raise('agent.report_stored', payload);
      });
  };
  const outbox = (): Promise<Array<{ event: string; dedup_key: string; subject: string }>> =>
    database.dataSource.query(`SELECT event, dedup_key, message->>'subject' AS subject FROM notification_outbox ORDER BY id`);
  const episodes = (): Promise<Array<{ item: string; episode: number; closed: boolean }>> =>
    database.dataSource.query(`SELECT item, episode, closed_at IS NOT NULL AS closed FROM alerts ORDER BY item`);
  const states = (): Promise<Array<{ item: string; open: boolean }>> =>
    database.dataSource.query(`SELECT item, open FROM alert_state WHERE metric = 'containerDown' ORDER BY item`);

  it('opens and closes one episode per container, each with its own messages', async () => {
    await reports(1, report(1, [container('web', 'running'), container('api', 'running')]));
    expect(await states()).toEqual([
      { item: 'api', open: false },
      { item: 'web', open: false },
    ]);
    await reports(window, report(1, [container('web', 'exited')]));
    expect(await episodes()).toEqual([
      { item: 'api', episode: 1, closed: false },
      { item: 'web', episode: 1, closed: false },
    ]);
    expect((await outbox()).map((row) => row.subject).sort()).toEqual(['[Container down] api on box-1', '[Container down] web on box-1']);

    await reports(1, report(1, [container('web', 'running')]));
    expect(await episodes()).toEqual([
      { item: 'api', episode: 1, closed: false },
      { item: 'web', episode: 1, closed: true },
    ]);
    expect((await outbox()).map((row) => row.event)).toEqual(['agent.container_down', 'agent.container_down', 'agent.container_recovery']);
    expect(new Set((await outbox()).map((row) => row.dedup_key)).size).toBe(3);
  });

  it('keeps the whole name in the episode and a digest of a long one in the keys', async () => {
    await reports(1, report(2, [container(LONG, 'running')]));
    await reports(window, report(2, [container(LONG, 'dead')]));
    expect(await episodes()).toEqual([{ item: LONG, episode: 1, closed: false }]);
    const [sent] = await outbox();
    expect(sent.dedup_key.length).toBeLessThanOrEqual(255);
    expect(sent.dedup_key).toMatch(/^agent:2:containerDown:[0-9a-f]{32}:1:open:\d+$/);
  });

  it('forgets the containers it watched when the rule is switched off, closing an open episode without a message', async () => {
    await reports(1, report(3, [container('web', 'running')]));
    await reports(window, report(3, []));
    await watch(false);
    await reports(1, report(3, []));
    expect(await states()).toEqual([]);
    expect(await episodes()).toEqual([{ item: 'web', episode: 1, closed: true }]);
    expect((await outbox()).map((row) => row.event)).toEqual(['agent.container_down']);
  });

  it('leaves no stale episode behind a unit dropped and listed again within one backlog', async () => {
    const units = (state: 'failed' | 'active' | null): EventMap['agent.report_stored'] => ({
      ...report(6, []),
      insight: { services: state ? [{ name: 'backup.service', state }] : [] },
    });
    await reports(window, units('failed'));
    await reports(1, units(null), units('active'));
    expect(await database.dataSource.query(`SELECT item FROM alert_state WHERE metric = 'serviceFailed'`)).toEqual([]);
    await reports(1, units('active'));
    expect((await outbox()).map((row) => row.event)).toEqual(['agent.service_failed']);
    expect(await episodes()).toEqual([{ item: 'backup.service', episode: 1, closed: true }]);
  });

  it('goes down dropping the per-item episodes and keys, and up again', async () => {
    await reports(1, report(4, [container('web', 'running')]));
    await reports(window, report(4, []));
    await database.dataSource.query(
      `INSERT INTO alerts (target_kind, target_id, target_name, metric, episode, opened_at) VALUES ('agent', 4, 'box-4', 'cpu', 1, now())`,
    );
    await undoThrough(database.dataSource, MIGRATION);
    try {
      expect(await database.dataSource.query(`SELECT metric FROM alerts WHERE target_id = 4`)).toEqual([{ metric: 'cpu' }]);
      const columns = await database.dataSource.query(
        `SELECT table_name FROM information_schema.columns WHERE column_name = 'item' AND table_name IN ('alerts', 'alert_state')`,
      );
      expect(columns).toEqual([]);
    } finally {
      await database.dataSource.runMigrations({ transaction: 'each' });
    }
    // The switch went with its column: on again, a container is watched as before.
    await watch(true);
    await reports(1, report(5, [container('web', 'running')]));
    expect(await states()).toEqual([{ item: 'web', open: false }]);
  });
});
