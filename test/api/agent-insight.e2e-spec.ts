import request from 'supertest';
import type { AgentContainerReport, AgentInsightDto } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const container = (name: string, overrides: Partial<AgentContainerReport> = {}): AgentContainerReport => ({
  id: `${Buffer.from(name).toString('hex')}000000000000`.slice(0, 12),
  name,
  image: 'nginx:1.27',
  state: 'running',
  health: 'healthy',
  cpu: 2.5,
  memory_used: 50 * 1024 ** 2,
  memory_limit: 512 * 1024 ** 2,
  net_rx_rate: 10,
  net_tx_rate: 5,
  block_read_rate: 0,
  block_write_rate: 1,
  ...overrides,
});

/**
 * Issue 32, requirement 7 and its bad input: an agent speaking protocol 2 reports containers, temperatures, per-disk
 * I/O and watched services; the server keeps the newest set for the agent's detail page. A bad item is refused alone
 * (the agent is told which, the rest kept, other agents unharmed), and a protocol 1 agent reports as before.
 */
describe('agent host insight (protocol 2)', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
  });

  const insightOf = async (id: number): Promise<AgentInsightDto> =>
    (await request(app.url).get(`/api/agents/${id}/insight`).set(member.auth).expect(200)).body.insight;
  async function agent(hostname: string, protocol?: number): Promise<{ id: number; socket: AgentSocket }> {
    const { agentId, credential } = await enrollAgent(app.url, admin, hostname);
    const socket = await connectAgent(app.url, credential, hostname, protocol);
    sockets.push(socket);
    return { id: agentId, socket };
  }

  it('keeps the newest containers, sensors, disk I/O and services of a protocol 2 agent', async () => {
    const { id, socket } = await agent('insight-host');
    expect(await insightOf(id)).toEqual({ reported_at: null, disk_io: null, sensors: null, containers: null, services: null });
    const parts = {
      disk_io: [{ device: 'nvme0n1', read_rate: 120.5, write_rate: 40, busy: 12.5 }],
      sensors: [{ name: 'coretemp Package id 0', celsius: 61, high: 84, critical: 100 }],
      containers: [container('web'), container('db', { state: 'exited', health: 'none', cpu: 0 })],
      services: [{ name: 'nginx.service', state: 'active' as const, sub_state: 'running' }],
    };
    const ack = await socket.timeout(5000).emitWithAck('report', agentReport(parts));
    expect(ack).toEqual({ ok: true });
    const seen = await waitFor(
      () => insightOf(id),
      (insight) => insight.reported_at !== null,
    );
    expect(seen).toEqual({ reported_at: expect.any(String), ...parts });

    // Each disk, interface and sensor has its own history.
    const devices = async (kind: string) =>
      (await request(app.url).get(`/api/agents/${id}/devices?kind=${kind}&range=1h`).set(member.auth).expect(200)).body.devices;
    const disk = await waitFor(
      () => devices('disk'),
      (d) => d.series.length === 1,
    );
    expect(disk).toEqual({
      range: '1h',
      step: 60,
      kind: 'disk',
      series: [{ kind: 'disk', name: 'nvme0n1', points: [{ time: expect.any(String), read: 120.5, write: 40, busy: 12.5 }] }],
    });
    expect((await devices('nic')).series).toEqual([{ kind: 'nic', name: 'eth0', points: [{ time: expect.any(String), rx: 128, tx: 64 }] }]);
    expect((await devices('temp')).series[0]).toMatchObject({ name: 'coretemp Package id 0', points: [{ celsius: 61, celsius_max: 61 }] });
    const refused = await request(app.url).get(`/api/agents/${id}/devices?kind=gpu`).set(member.auth).expect(400);
    expect(refused.body).toMatchObject({ success: false, code: 'agents.deviceKindInvalid' });

    // The next report replaces the set: a container gone is gone, an engine out of sight is null.
    await socket.timeout(5000).emitWithAck('report', agentReport({ ...parts, timestamp: Date.now() + 1000, containers: null }));
    await waitFor(
      () => insightOf(id),
      (insight) => insight.containers === null,
    );
  });

  it('refuses bad items one by one, names them to the agent, keeps the rest and harms no other agent', async () => {
    const [{ id, socket }, other] = await Promise.all([agent('odd-host'), agent('fine-host')]);
    const ack = await socket.timeout(5000).emitWithAck(
      'report',
      agentReport({
        containers: [container('good'), container('bad', { name: 'bad\u0000name' })],
        sensors: [
          { name: 'broken', celsius: 9000 },
          { name: 'fine', celsius: 40 },
        ],
      }),
    );
    expect(ack).toEqual({
      ok: true,
      refused: [
        { error: 'report.sensors[0].celsius must be from -60 to 200' },
        { error: 'report.containers[1].name must not contain control characters' },
      ],
    });
    await other.socket.timeout(5000).emitWithAck('report', agentReport({ containers: [container('neighbour')] }));
    const kept = await waitFor(
      () => insightOf(id),
      (insight) => insight.reported_at !== null,
    );
    expect(kept.containers?.map((c) => c.name)).toEqual(['good']);
    expect(kept.sensors?.map((s) => s.name)).toEqual(['fine']);
    expect(
      (
        await waitFor(
          () => insightOf(other.id),
          (insight) => insight.reported_at !== null,
        )
      ).containers?.map((c) => c.name),
    ).toEqual(['neighbour']);
    // Counted for the operator.
    const metrics = (await request(app.url).get('/api/metrics').set(admin.auth).expect(200)).text;
    expect(metrics).toMatch(/^vigil_agent_report_items_refused_total 2$/m);
  });

  it('serves a protocol 1 agent as before: its report is stored and it has no insight', async () => {
    const { id, socket } = await agent('old-host', 1);
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await waitFor(
      async () => (await request(app.url).get(`/api/agents/${id}`).set(member.auth).expect(200)).body.agent.cpu_usage,
      (cpu) => cpu === 37.5,
    );
    expect(await insightOf(id)).toEqual({ reported_at: null, disk_io: null, sensors: null, containers: null, services: null });
  });

  it('answers 404 for an unknown agent and 401 without a session', async () => {
    await request(app.url).get('/api/agents/999999/insight').set(member.auth).expect(404);
    await request(app.url).get('/api/agents/1/insight').expect(401);
  });
});
