import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, PublicAgent, PublicMonitor, ServerToClientEvents, StatusData } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { createUser, login, registerFirstAdmin, Session } from '../factories/users';
import { useTestRedis, type TestRedis } from '../support/redis';
import { startTargetServer, TargetServer } from '../support/target-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Push = { [K in keyof ServerToClientEvents]: { name: K; args: Parameters<ServerToClientEvents[K]> } }[keyof ServerToClientEvents];

/** The bound: what A changed, B reads and pushes within a second. */
const WITHIN_MS = 1000;

/**
 * Two instances on one PostgreSQL and one Redis. Every change is made through A; every read goes to B, whose memory
 * (status snapshot, socket data, agent sockets) must follow without a restart or reconnect.
 */
describe('scale-out: what instance A changes, instance B reads and pushes within a second', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  /** Stopped halfway, so a monitor of it goes down. */
  let target: TargetServer;
  let a: TestApp;
  let b: TestApp;
  let admin: Session;
  let agentSocket: AgentSocket;
  /** An admin's socket on B in the status, monitors and agents rooms, and everything it received. */
  let watcher: BrowserSocket;
  const pushes: Push[] = [];
  const sockets: Array<BrowserSocket | AgentSocket> = [];
  let downId: number;
  let pausedId: number;
  let agentId: number;

  const api = (app: TestApp) => request(app.url);
  const statusOnB = async (): Promise<StatusData> => (await api(b).get('/api/status/data').expect(200)).body.data;
  const monitorOf = (data: StatusData, id: number): PublicMonitor | undefined => data.monitors.find((m) => m.id === id);
  const agentOf = (data: StatusData, id: number): PublicAgent | undefined => data.agents.find((m) => m.id === id);
  const pushed = <K extends Push['name']>(name: K) => pushes.filter((p): p is Extract<Push, { name: K }> => p.name === name);

  async function browser(app: TestApp, token: string, rooms: string[]): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    for (const room of rooms) expect(await socket.timeout(5000).emitWithAck('subscribe', room as never)).toEqual({ ok: true });
    return socket;
  }

  beforeAll(async () => {
    redis = await useTestRedis();
    [database, target] = await Promise.all([createTestDatabase('url'), startTargetServer()]);
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    [a, b] = await Promise.all([0, 1].map(() => startTestApp({ database, env })));
    admin = await registerFirstAdmin(a.url);

    const monitor = async (name: string) =>
      (
        await api(a)
          .post('/api/monitors')
          .set(admin.auth)
          .send({ name, url: `${target.url}/${name}`, interval: 3600, retries: 0 })
          .expect(201)
      ).body.monitor.id as number;
    [downId, pausedId] = [await monitor('goes-down'), await monitor('gets-paused')];
    const enrolled = await enrollAgent(a.url, admin, 'host-on-b');
    agentId = enrolled.agentId;
    agentSocket = await connectAgent(b.url, enrolled.credential, 'host-on-b');
    sockets.push(agentSocket);
    expect(await agentSocket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await api(a)
      .post('/api/status/config')
      .set(admin.auth)
      .send({ title: 'Before', monitors: [downId, pausedId], agents: [agentId] })
      .expect(200);

    // B serves the page once everything is up, so it holds a snapshot that A's changes must reach.
    await waitFor(statusOnB, (data) => monitorOf(data, downId)?.status === 'up' && agentOf(data, agentId)?.status === 'active');
    watcher = await browser(b, admin.token, ['status', 'monitors', 'agents']);
    watcher.onAny((name: Push['name'], ...args: unknown[]) => pushes.push({ name, args } as Push));
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await target?.close();
    await Promise.all([a, b].map((app) => app?.stop()));
    await database?.drop();
    await redis?.cleanup();
  }, 60_000);

  it('shows a status title saved on A', async () => {
    expect((await statusOnB()).title).toBe('Before');
    await api(a)
      .post('/api/status/config')
      .set(admin.auth)
      .send({ title: 'After', monitors: [downId, pausedId], agents: [agentId] })
      .expect(200);
    await waitFor(statusOnB, (data) => data.title === 'After', WITHIN_MS);
    await waitFor(
      async () => pushed('status.changed').length,
      (n) => n >= 1,
      WITHIN_MS,
    );
  });

  it('shows a monitor paused on A as paused', async () => {
    await api(a).post(`/api/monitors/${pausedId}/pause`).set(admin.auth).expect(200);
    await waitFor(
      async () => (await api(b).get(`/api/monitors/${pausedId}`).set(admin.auth)).body.monitor.active,
      (x) => x === false,
      WITHIN_MS,
    );
    await waitFor(statusOnB, (data) => monitorOf(data, pausedId)?.active === false, WITHIN_MS);
    await waitFor(
      async () => pushed('monitors.changed').map((p) => p.args[0]),
      (events) => events.some((e) => e.monitor.id === pausedId && e.monitor.active === false),
      WITHIN_MS,
    );
  });

  it('shows a monitor that went down in A’s check as down, with the banner no longer operational', async () => {
    await target.close();
    await api(a).post(`/api/monitors/${downId}/check`).set(admin.auth).expect(200);
    await waitFor(
      async () => (await api(a).get(`/api/monitors/${downId}`).set(admin.auth)).body.monitor.status,
      (s) => s === 'down',
    );
    // From here A has stored the transition: B's reads and pushes follow within the bound.
    await waitFor(
      async () => (await api(b).get(`/api/monitors/${downId}`).set(admin.auth)).body.monitor.status,
      (s) => s === 'down',
      WITHIN_MS,
    );
    const data = await waitFor(statusOnB, (d) => monitorOf(d, downId)?.status === 'down', WITHIN_MS);
    expect(data.overall).not.toBe('operational');
    await waitFor(
      async () => pushes.length,
      () =>
        pushed('monitor.status_changed').some((p) => p.args[0].monitorId === downId && p.args[0].status === 'down') &&
        pushed('status.item').some((p) => p.args[0].monitor?.id === downId && p.args[0].monitor.status === 'down'),
      WITHIN_MS,
    );
  });

  it('uses an agent’s new name on B, where the agent is connected, in reads, pushes and its next report', async () => {
    await api(a).put(`/api/agents/${agentId}`).set(admin.auth).send({ name: 'renamed-on-a' }).expect(200);
    await waitFor(
      async () => (await api(b).get(`/api/agents/${agentId}`).set(admin.auth)).body.agent.name,
      (n) => n === 'renamed-on-a',
      WITHIN_MS,
    );
    await waitFor(statusOnB, (data) => agentOf(data, agentId)?.name === 'renamed-on-a', WITHIN_MS);
    await waitFor(
      async () => pushed('agents.changed').map((p) => p.args[0]),
      (events) => events.some((e) => e.agent.id === agentId && e.agent.name === 'renamed-on-a'),
      WITHIN_MS,
    );

    // B holds the agent's socket: its next report must not bring the old name back.
    const before = pushed('agent.reported').length;
    expect(await agentSocket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    const [report] = (
      await waitFor(
        async () => pushed('agent.reported').slice(before),
        (p) => p.length >= 1,
        WITHIN_MS,
      )
    ).map((p) => p.args[0]);
    expect(report.agent.name).toBe('renamed-on-a');
    await waitFor(
      async () => pushed('status.item').filter((p) => p.args[0].agent?.id === agentId),
      (items) => items.length > 0 && items.at(-1)!.args[0].agent!.name === 'renamed-on-a',
      WITHIN_MS,
    );
    expect(agentOf(await statusOnB(), agentId)?.name).toBe('renamed-on-a');
  });

  it('refuses a demoted admin’s old token on B and drops their socket there; a new sign-in on B is a user', async () => {
    const other = await createUser(a.url, admin, 'admin');
    const username = other.user.username;
    const theirs = await browser(b, other.token, []);
    const dropped = new Promise<string>((resolve) => theirs.on('auth.error', (event) => resolve(event.code)));
    expect((await api(b).get('/api/auth/me').set(other.auth).expect(200)).body.user.role).toBe('admin');

    await api(a).put(`/api/users/${other.user.id}`).set(admin.auth).send({ role: 'user' }).expect(200);
    await waitFor(
      async () => (await api(b).get('/api/auth/me').set(other.auth)).status,
      (s) => s === 401,
      WITHIN_MS,
    );
    expect(await Promise.race([dropped, new Promise((resolve) => setTimeout(() => resolve('no auth.error'), WITHIN_MS))])).toBe(
      'auth.tokenInvalid',
    );
    const again = await login(b.url, username, other.password);
    expect((await api(b).get('/api/auth/me').set(again.auth).expect(200)).body.user.role).toBe('user');
  });
});
