import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { MonitorLocationDto } from '@vigil/proto';
import { startDnsServer, type FakeDnsServer } from '../../server/src/monitors/checkers/fakes/dns-server.testing';
import { startTcpServer, type FakeTcpServer } from '../../server/src/monitors/checkers/fakes/tcp-server.testing';
import { connectAgent } from '../factories/agents';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

const BUNDLE = join(__dirname, '../../agent/dist/vigil-agent.mjs');
const GRACE_SECONDS = 3;
const INTERVAL = 10;

/**
 * Checks run by real agents (the built bundle, two processes) beside the server: results per location, the quorum
 * rules on three locations with a target that fails for one agent only, an agent going offline, and a forged result.
 */
describe('monitors checked from agents', () => {
  let app: TestApp;
  let admin: Session;
  let dir: string;
  let web: Server;
  let webUrl: string;
  let tcp: FakeTcpServer;
  let dns: FakeDnsServer;
  const agents = new Map<string, { id: number; child: ChildProcess; exited: Promise<unknown> }>();
  /** Whom the web target fails: requests whose user agent names this agent get 503. */
  const failFor = 'probe-b';

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: build it with npm run build`);
    web = createServer((req, res) => {
      const failing = (req.headers['user-agent'] ?? '').includes(`(agent ${failFor})`);
      res.writeHead(failing ? 503 : 200).end(failing ? 'down for you' : 'ok');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
    [app, tcp, dns] = await Promise.all([
      startTestApp({ env: { ...USERS_REACH_LOOPBACK, AGENT_GRACE_SECONDS: String(GRACE_SECONDS) } }),
      startTcpServer(),
      startDnsServer({ 'app.test': { A: ['192.0.2.10'] } }),
    ]);
    admin = await registerFirstAdmin(app.url);
    dir = await mkdtemp(join(tmpdir(), 'vigil-probes-'));
    await Promise.all(['probe-a', 'probe-b'].map((name) => startAgent(name)));
  });
  afterAll(async () => {
    for (const agent of agents.values()) {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
      await agent.exited;
    }
    await app?.destroy();
    await Promise.all([tcp?.close(), dns?.close(), new Promise((resolve) => web?.close(resolve))]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const api = () => request(app.url);

  async function startAgent(name: string): Promise<void> {
    const { body } = await api().post('/api/agents/token/generate').set(admin.auth).expect(200);
    const child = spawn(
      process.execPath,
      [BUNDLE, '--server', app.url, '--token', body.token, '--interval', '5', '--name', name, '--config', join(dir, `${name}.json`)],
      { env: { PATH: process.env.PATH, HOME: dir }, stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const [agent] = await waitFor(
      async () => (await api().get('/api/agents').set(admin.auth).expect(200)).body.agents.filter((a: { name: string }) => a.name === name),
      (list: Array<{ id: number; status: string }>) => list.length === 1 && list[0].status === 'active',
      20_000,
    );
    agents.set(name, { id: agent.id, child, exited });
  }

  const location = (name: string) => `agent:${agents.get(name)!.id}`;
  const create = async (body: Record<string, unknown>) =>
    (
      await api()
        .post('/api/monitors')
        .set(admin.auth)
        .send({ interval: INTERVAL, retries: 0, ...body })
        .expect(201)
    ).body.monitor;
  const readLocations = async (id: number): Promise<MonitorLocationDto[]> =>
    (await api().get(`/api/monitors/${id}/locations`).set(admin.auth).expect(200)).body.locations;
  const statusOf = (locations: MonitorLocationDto[], name: string) => locations.find((l) => l.name === name)?.status;
  const check = async (id: number) => (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body;

  it('runs assigned http, tcp and dns checks on the agents and shows each location', async () => {
    const all = ['server', location('probe-a'), location('probe-b')];
    const tcpMonitor = await create({ name: 'tcp from agents', type: 'tcp', hostname: '127.0.0.1', port: tcp.port, locations: all });
    const dnsMonitor = await create({
      name: 'dns from agents',
      type: 'dns',
      hostname: 'app.test',
      dnsRecordType: 'A',
      dnsServer: dns.address,
      assertions: [{ source: 'dnsAnswer', operator: 'eq', value: '192.0.2.10' }],
      locations: [location('probe-a')],
    });
    for (const monitor of [tcpMonitor, dnsMonitor]) {
      const locations = await waitFor(
        () => readLocations(monitor.id),
        (list) => list.filter((l) => l.agent_id !== null).every((l) => l.status === 'up'),
        30_000,
      );
      expect(locations.filter((l) => l.agent_id !== null).every((l) => l.response_time !== null && l.checked_at !== null)).toBe(true);
    }
    // The agents' questions reached the fake DNS server, not the server's (which does not check this monitor).
    expect(dns.queries).toContain('app.test A');
    // A changed answer fails the assertion on the agent, judged there with the same rules.
    dns.setZone({ 'app.test': { A: ['192.0.2.66'] } });
    const failed = await waitFor(
      () => readLocations(dnsMonitor.id),
      (list) => list[0].status === 'down',
      30_000,
    );
    expect(failed[0].error).toBe('dnsAnswer eq "192.0.2.10" failed: got ["192.0.2.66"]');
  });

  it('judges three locations by quorum: one failing agent is not down under majority, down under any', async () => {
    const monitor = await create({
      name: 'web from three places',
      url: webUrl,
      locations: ['server', location('probe-a'), location('probe-b')],
      quorum: 'majority',
    });
    await waitFor(
      () => readLocations(monitor.id),
      (list) => statusOf(list, 'probe-b') === 'down' && statusOf(list, 'probe-a') === 'up',
      30_000,
    );
    const majority = await check(monitor.id);
    expect(majority.monitor.status).toBe('degraded');
    expect(majority.check.error).toBe('1 of 3 locations fail: probe-b: Unexpected status 503 (expected 200)');

    await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ quorum: 'any' }).expect(200);
    const any = await check(monitor.id);
    expect(any.monitor.status).toBe('down');
    expect(any.check.error).toContain('probe-b');

    // probe-b goes away: its location turns unknown, and the two that remain are up.
    const b = agents.get('probe-b')!;
    b.child.kill('SIGKILL');
    await b.exited;
    await waitFor(
      () => readLocations(monitor.id),
      (list) => statusOf(list, 'probe-b') === 'unknown',
      30_000,
    );
    expect((await check(monitor.id)).monitor.status).toBe('up');
  });

  it("refuses results for a check the agent was not assigned and keeps others' locations untouched", async () => {
    const monitor = await create({
      name: 'assigned to a only',
      type: 'tcp',
      hostname: '127.0.0.1',
      port: tcp.port,
      locations: [location('probe-a')],
    });
    const { body } = await api().post('/api/agents/token/generate').set(admin.auth).expect(200);
    const enrolled = await api()
      .post('/api/agents/enroll')
      .send({
        token: body.token,
        hello: {
          hostname: 'forger',
          ip_addresses: [],
          os: 'x',
          platform: 'linux',
          kernel: 'x',
          arch: 'x64',
          cpu_model: 'x',
          cpu_cores: 1,
          agent_version: '0.1.0',
          interval: 5,
        },
      })
      .expect(200);
    const forger = await connectAgent(app.url, enrolled.body.credential, 'forger');
    try {
      const ack = await forger
        .timeout(5000)
        .emitWithAck('probe.results', [
          { monitor_id: monitor.id, checked_at: Date.now(), ok: false, status_code: null, response_time: null, error: 'forged' },
        ]);
      expect(ack).toMatchObject({ ok: true, refused: [{ error: expect.stringContaining('not assigned') }] });
    } finally {
      forger.disconnect();
    }
    const locations = await readLocations(monitor.id);
    expect(locations.map((l) => l.error)).not.toContain('forged');
  });
});
