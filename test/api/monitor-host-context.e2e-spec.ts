import request from 'supertest';
import { MESSAGES, type AgentContainerReport, type HostContextDto } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const container = (name: string, state: AgentContainerReport['state']): AgentContainerReport => ({
  id: `${Buffer.from(name).toString('hex')}000000000000`.slice(0, 12),
  name,
  image: 'example/api:2',
  state,
  health: 'none',
  cpu: 0,
  memory_used: 0,
  memory_limit: 0,
  net_rx_rate: 0,
  net_tx_rate: 0,
  block_read_rate: 0,
  block_write_rate: 0,
});

/**
 * Issue 32, requirement 9: a monitor names the agent of the host it runs on (`hostAgentId`). When it goes down, its
 * alert (read at a loopback webhook) and `GET /api/monitors/{id}/host` carry the host's last figures and what is
 * wrong on it: CPU, memory, the fullest disk, a stopped container, a failed unit, the host's own alerts.
 */
describe('monitors that name their host agent', () => {
  let app: TestApp;
  let admin: Session;
  let hook: FakeService;
  let target: TargetServer;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    [hook, target] = await Promise.all([startFakeService(), startTargetServer()]);
    app = await startTestApp({ env: { ...USERS_REACH_LOOPBACK, ALERT_THRESHOLD_REPORTS: '1' } });
    admin = await registerFirstAdmin(app.url);
    const { body: channel } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    const channels = [channel.data.id];
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: false, channels })
      .expect(200);
    // The host's CPU alert opens at its first high report, so the monitor's alert can name it.
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-agent', enabled: true, on_offline: false, on_cpu_threshold: true, cpu_threshold: 90, channels })
      .expect(200);
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
    await Promise.all([hook?.close(), target?.close()]);
  });

  const api = () => request(app.url);
  async function agent(hostname: string): Promise<{ id: number; socket: AgentSocket }> {
    const { agentId, credential } = await enrollAgent(app.url, admin, hostname);
    const socket = await connectAgent(app.url, credential, hostname);
    sockets.push(socket);
    return { id: agentId, socket };
  }
  async function monitor(name: string, extra: Record<string, unknown> = {}) {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}/${name}`, interval: 3600, retries: 0, ...extra })
      .expect(201);
    await waitFor(
      async () => (await api().get(`/api/monitors/${body.monitor.id}`).set(admin.auth)).body.monitor.status,
      (status) => status === 'up',
    );
    return body.monitor;
  }
  const hostOf = (id: number) => api().get(`/api/monitors/${id}/host`).set(admin.auth);
  const downMessages = (name: string): Array<{ event: string; text: string }> =>
    hook
      .to('/hook')
      .flatMap((req) => req.json.items ?? [req.json])
      .filter(
        (message: { event: string; target?: { name?: string } }) => message.event === 'monitor.down' && message.target?.name === name,
      );

  it('carries the host figures and its failed service and stopped container in the down alert and on the detail read', async () => {
    const { id: agentId, socket } = await agent('db-host');
    const sent = Date.now();
    const report = agentReport({
      timestamp: sent,
      cpu: 97.2,
      memory_total: 8 * 1024 ** 3,
      memory_used: 7.5 * 1024 ** 3,
      disks: [
        { mount: '/', fs: 'ext4', total: 100 * 1024 ** 3, used: 40 * 1024 ** 3 },
        { mount: '/var/lib/postgresql', fs: 'xfs', total: 200 * 1024 ** 3, used: 198 * 1024 ** 3 },
      ],
      containers: [container('api', 'exited'), container('cache', 'running')],
      services: [
        { name: 'nginx.service', state: 'failed', sub_state: 'failed' },
        { name: 'cron.service', state: 'active', sub_state: 'running' },
      ],
    });
    expect(await socket.timeout(5000).emitWithAck('report', report)).toEqual({ ok: true });
    await waitFor(
      async () => (await api().get(`/api/agents/${agentId}/insight`).set(admin.auth).expect(200)).body.insight.reported_at,
      (at) => at === new Date(sent).toISOString(),
    );

    const created = await monitor('orders-db', { hostAgentId: agentId });
    expect(created.host_agent_id).toBe(agentId);
    target.respondFor('/orders-db', 500);
    await api().post(`/api/monitors/${created.id}/check`).set(admin.auth).expect(200);

    const [down] = await waitFor(
      async () => downMessages('orders-db'),
      (seen) => seen.length > 0,
      20_000,
    );
    expect(down.text).toContain('Host db-host: CPU 97.2%, memory 93.8%, disk /var/lib/postgresql 99%, load 0.5 0.4 0.3');
    expect(down.text).toMatch(/\nHost changes: container api exited; nginx\.service failed; CPU high (just now|\d+ min ago)$/);

    const { body } = await hostOf(created.id).expect(200);
    const host: HostContextDto = body.host;
    expect(body.success).toBe(true);
    expect(host).toMatchObject({
      agent: { id: agentId, name: 'db-host', status: 'active' },
      offline_since: null,
      reported_at: new Date(sent).toISOString(),
      figures: { cpu: 97.2, memory: 93.8, swap: null, disk: { mount: '/var/lib/postgresql', percent: 99 }, load: [0.5, 0.4, 0.3] },
      more_changes: 0,
    });
    expect(host.changes).toEqual([
      { kind: 'container', name: 'api', state: 'exited', health: 'none', since: null },
      { kind: 'service', name: 'nginx.service', state: 'failed', since: null },
      { kind: 'alert', metric: 'cpu', item: null, opened_at: expect.any(String), closed_at: null },
    ]);
  });

  it('refuses an agent that does not exist, on create and on edit', async () => {
    const refused = { success: false, code: 'monitors.hostAgentUnknown', message: MESSAGES['monitors.hostAgentUnknown'] };
    const create = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'nowhere', url: `${target.url}/nowhere`, hostAgentId: 999_999 })
      .expect(400);
    expect(create.body).toEqual(refused);
    const plain = await monitor('plain');
    const edit = await api().put(`/api/monitors/${plain.id}`).set(admin.auth).send({ hostAgentId: 999_999 }).expect(400);
    expect(edit.body).toEqual(refused);
    const typed = await api().put(`/api/monitors/${plain.id}`).set(admin.auth).send({ hostAgentId: 'web-1' }).expect(400);
    expect(typed.body.code).toBe('monitors.hostAgentInvalid');
    expect((await hostOf(plain.id).expect(404)).body.code).toBe('monitors.hostAgentNone');
    expect((await hostOf(999_999).expect(404)).body.code).toBe('monitors.notFound');
  });

  it('forgets the host when its agent is deleted, and when the edit sends null', async () => {
    const first = await agent('short-lived');
    const second = await agent('long-lived');
    const gone = await monitor('on-short-lived', { hostAgentId: first.id });
    const kept = await monitor('on-long-lived', { hostAgentId: second.id });

    first.socket.disconnect();
    await api().delete(`/api/agents/${first.id}`).set(admin.auth).expect(200);
    expect((await api().get(`/api/monitors/${gone.id}`).set(admin.auth).expect(200)).body.monitor.host_agent_id).toBeNull();
    expect((await hostOf(gone.id).expect(404)).body.code).toBe('monitors.hostAgentNone');

    const { body } = await api().put(`/api/monitors/${kept.id}`).set(admin.auth).send({ hostAgentId: null }).expect(200);
    expect(body.monitor.host_agent_id).toBeNull();
  });
});
