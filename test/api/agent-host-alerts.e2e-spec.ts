import request from 'supertest';
import { MESSAGES, type AgentReport, type AlertDto, type MessageCode } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 32, requirement 8: a protocol 2 agent whose load (per core), hottest sensor, busiest disk and busiest
 * interface cross their thresholds for ALERT_THRESHOLD_REPORTS reports opens one alert each (read at a loopback
 * webhook), further high reports send nothing more, and one calm report recovers each once.
 */
describe('host alert rules', () => {
  let app: TestApp;
  let admin: Session;
  let hook: FakeService;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    [app, hook] = await Promise.all([startTestApp({ env: { ALERT_THRESHOLD_REPORTS: '2' } }), startFakeService()]);
    admin = await registerFirstAdmin(app.url);
    const { body: channel } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({
        target_type: 'global-agent',
        enabled: true,
        on_offline: false,
        on_recovery: true,
        on_load_threshold: true,
        load_threshold: 150,
        on_temperature_threshold: true,
        temperature_threshold: 80,
        on_disk_io_threshold: true,
        disk_io_threshold: 90,
        on_bandwidth_threshold: true,
        bandwidth_threshold: 1000,
        channels: [channel.data.id],
      })
      .expect(200);
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
    await hook?.close();
  });

  const api = () => request(app.url);
  async function agent(hostname: string): Promise<{ id: number; socket: AgentSocket }> {
    const { agentId, credential } = await enrollAgent(app.url, admin, hostname);
    const socket = await connectAgent(app.url, credential, hostname);
    sockets.push(socket);
    return { id: agentId, socket };
  }
  /** Every notification the webhook received about `name`, a grouped one counted item by item. */
  const messages = (name: string): Array<{ event: string; text: string }> =>
    hook
      .to('/hook')
      .flatMap((req) => req.json.items ?? [req.json])
      .filter((message: { target?: { name?: string } }) => message.target?.name === name);
  const alertsOf = async (id: number): Promise<AlertDto[]> =>
    (await api().get(`/api/alerts?kind=agent&targetId=${id}&pageSize=100`).set(admin.auth).expect(200)).body.alerts;
  let clock = Date.now() - 60_000;
  const report = async (socket: AgentSocket, extra: Partial<AgentReport>) => {
    clock += 5000;
    expect(await socket.timeout(5000).emitWithAck('report', agentReport({ timestamp: clock, ...extra }))).toEqual({ ok: true });
  };

  // The test agents say they have 2 cores: load1 4 is 200 % of them.
  const calm: Partial<AgentReport> = {
    load: [0.5, 0.5, 0.5],
    sensors: [{ name: 'nvme Composite', celsius: 45 }],
    disk_io: [{ device: 'sda', read_rate: 10, write_rate: 10, busy: 5 }],
    interfaces: [{ name: 'eth0', rx_rate: 100, tx_rate: 50, rx_bytes: 1e9, tx_bytes: 5e8 }],
  };
  const busy: Partial<AgentReport> = {
    load: [4, 3, 2],
    sensors: [
      { name: 'coretemp Package id 0', celsius: 60 },
      { name: 'nvme Composite', celsius: 91 },
    ],
    disk_io: [
      { device: 'sda', read_rate: 10, write_rate: 10, busy: 5 },
      { device: 'nvme0n1', read_rate: 900, write_rate: 300, busy: 97 },
    ],
    interfaces: [
      { name: 'eth0', rx_rate: 100, tx_rate: 50, rx_bytes: 1e9, tx_bytes: 5e8 },
      { name: 'eth1', rx_rate: 200, tx_rate: 4_000, rx_bytes: 1e9, tx_bytes: 5e8 },
    ],
  };
  const HIGH = ['agent.bandwidth_high', 'agent.disk_io_high', 'agent.load_high', 'agent.temperature_high'];
  const RECOVERED = ['agent.bandwidth_recovery', 'agent.disk_io_recovery', 'agent.load_recovery', 'agent.temperature_recovery'];

  it('alerts once per threshold crossed for the configured reports, names the item, and recovers once', async () => {
    const { id, socket } = await agent('hot-host');
    await report(socket, calm);
    await report(socket, busy);
    await report(socket, busy);
    const events = () => messages('hot-host').map((m) => m.event);
    await waitFor(
      async () => events(),
      (seen) => seen.length >= 4,
      20_000,
    );
    expect(events().sort()).toEqual(HIGH);
    const text = (event: string) => messages('hot-host').find((m) => m.event === event)?.text;
    expect(text('agent.load_high')).toContain('Load on hot-host (hot-host) is 200% of its CPU cores, above the 150% threshold');
    expect(text('agent.temperature_high')).toContain('Sensor nvme Composite on hot-host (hot-host) reads 91 °C, above the 80 °C threshold');
    expect(text('agent.disk_io_high')).toContain('Disk nvme0n1 on hot-host (hot-host) is 97% busy');
    expect(text('agent.bandwidth_high')).toContain('Interface eth1 on hot-host (hot-host) carries 4000 KB/s');

    // Still high: the open episodes send nothing more; then one calm report closes each.
    await report(socket, busy);
    await report(socket, calm);
    await waitFor(
      async () => events(),
      (seen) => seen.length >= 8,
      20_000,
    );
    expect(events().slice(0, 4).sort()).toEqual(HIGH);
    expect(events().slice(4).sort()).toEqual(RECOVERED);
    const alerts = await alertsOf(id);
    expect(alerts.map((alert) => [alert.metric, alert.state]).sort()).toEqual([
      ['bandwidth', 'resolved'],
      ['diskIo', 'resolved'],
      ['load', 'resolved'],
      ['temperature', 'resolved'],
    ]);
  });

  it('judges only the sensors it believes: a reading the server refuses opens no alert', async () => {
    const { id, socket } = await agent('odd-sensor-host');
    const odd = {
      sensors: [
        { name: 'broken', celsius: 9_000 },
        { name: 'fine', celsius: 40 },
      ],
    };
    for (let i = 0; i < 3; i += 1) {
      clock += 5000;
      expect(await socket.timeout(5000).emitWithAck('report', agentReport({ timestamp: clock, ...odd }))).toEqual({
        ok: true,
        refused: [{ error: 'report.sensors[0].celsius must be from -60 to 200' }],
      });
    }
    // The insight is stored in the transaction that decides the alerts: once it shows the last report, they are decided.
    await waitFor(
      async () => (await api().get(`/api/agents/${id}/insight`).set(admin.auth).expect(200)).body.insight,
      (insight) => insight.reported_at === new Date(clock).toISOString(),
      20_000,
    );
    expect(await alertsOf(id)).toEqual([]);
    expect(messages('odd-sensor-host')).toEqual([]);
  });

  it.each([
    ['load_threshold', 0, 'notifications.hostThresholdInvalid'],
    ['load_threshold', 1001, 'notifications.hostThresholdInvalid'],
    ['temperature_threshold', 201, 'notifications.hostThresholdInvalid'],
    ['disk_io_threshold', 101, 'notifications.thresholdInvalid'],
    ['bandwidth_threshold', 20_000_001, 'notifications.hostThresholdInvalid'],
    ['bandwidth_threshold', 'fast', 'notifications.hostThresholdInvalid'],
  ])('refuses %s = %p with a named error', async (field, value, code) => {
    const { body } = await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-agent', enabled: true, channels: '[]', [field]: value })
      .expect(400);
    expect(body).toEqual({ success: false, code, message: MESSAGES[code as MessageCode] });
  });
});
