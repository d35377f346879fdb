import request from 'supertest';
import { io, type Socket } from 'socket.io-client';
import type {
  AgentsResponse,
  AgentStatusChangedEvent,
  ClientToServerEvents,
  MonitorDto,
  NotificationHistoryItem,
  ServerToClientEvents,
} from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent } from '../factories/agents';
import { registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 29, the state side: dependencies (a failing dependent of a down monitor is unreachable and alerts nothing of
 * its own; when the dependency recovers, a dependent still failing turns down at once), cycles refused, degraded
 * checks, the flapping flag. Results are driven by manual checks against a loopback target, never by waiting for the
 * scheduler's rhythm (every monitor checks hourly).
 */
describe('dependencies, unreachable, degraded and flapping', () => {
  let app: TestApp;
  let admin: Session;
  let target: TargetServer;
  let fake: FakeNotifier;

  beforeAll(async () => {
    [target, fake] = await Promise.all([startTargetServer(), startFakeNotifier()]);
    app = await startTestApp({
      env: { ...USERS_REACH_LOOPBACK, FLAPPING_CHANGES: '3', FLAPPING_WINDOW_MINUTES: '10', AGENT_GRACE_SECONDS: '1' },
    });
    admin = await registerFirstAdmin(app.url);
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', enabled: true, groupWaitSeconds: 0, config: JSON.stringify({ url: `${fake.url}/hook` }) })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: JSON.stringify([body.data.id]) })
      .expect(200);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([target?.close(), fake?.close()]);
  });

  const api = () => request(app.url);

  /** A monitor of `/<name>` on the target (answering after `delayMs`), once its first check left it `settled`. */
  async function monitor(name: string, extra: Record<string, unknown> = {}, settled = 'up', delayMs = 0): Promise<number> {
    target.respondFor(`/${name}`, 200, delayMs);
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}/${name}`, interval: 3600, retries: 0, ...extra })
      .expect(201);
    await waitFor(
      () => read(body.monitor.id),
      (m) => m.status === settled,
    );
    return body.monitor.id;
  }

  const read = async (id: number): Promise<MonitorDto> => (await api().get(`/api/monitors/${id}`).set(admin.auth).expect(200)).body.monitor;
  const check = async (id: number) => (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body;
  const alertsFor = async (id: number): Promise<NotificationHistoryItem[]> => {
    const { body } = await api().get('/api/notifications/history?target_kind=monitor').set(admin.auth).expect(200);
    return (body.items as NotificationHistoryItem[]).filter((item) => item.target_id === id);
  };

  it('keeps a dependent of a down monitor unreachable and silent, then down at once when the dependency is back', async () => {
    const router = await monitor('core-router');
    const web = await monitor('shop-web', { dependsOn: [{ type: 'monitor', id: router }] });
    expect((await read(web)).depends_on).toEqual([{ type: 'monitor', id: router }]);

    target.respondFor('/core-router', 500);
    target.respondFor('/shop-web', 500);
    await check(router);
    expect((await read(router)).status).toBe('down');
    const unreachable = await check(web);
    expect(unreachable.check.status).toBe('unreachable');
    const stored = await read(web);
    expect(stored.status).toBe('unreachable');
    expect(stored.checks[0].status).toBe('unreachable');
    // The dependency alerted; the dependent wrote nothing to the outbox (it is written with the transition).
    await waitFor(
      () => alertsFor(router),
      (items) => items.some((item) => item.event === 'monitor.down'),
    );
    expect(await alertsFor(web)).toEqual([]);
    const listed = (await api().get('/api/monitors?status=unreachable').set(admin.auth).expect(200)).body;
    expect(listed.monitors.map((m: MonitorDto) => m.id)).toEqual([web]);
    expect(listed.counts.unreachable).toBe(1);

    // The router recovers; the web still fails: it is re-checked at once (no manual check) and turns down, alerting.
    target.respondFor('/core-router', 200);
    await check(router);
    await waitFor(
      () => read(web),
      (m) => m.status === 'down',
    );
    await waitFor(
      () => alertsFor(web),
      (items) => items.some((item) => item.event === 'monitor.down'),
    );

    target.respondFor('/shop-web', 200);
    await check(web);
    expect((await read(web)).status).toBe('up');
    const stats = (await api().get(`/api/monitors/${web}/stats`).set(admin.auth).expect(200)).body.stats;
    expect(stats).toMatchObject({ unreachable: 1, degraded: 0 });
    expect(stats.series.reduce((sum: number, point: { unreachable: number }) => sum + point.unreachable, 0)).toBe(1);
  });

  it('re-checks an unreachable dependent at once when the dependency is back, up when it works again', async () => {
    const gateway = await monitor('gateway');
    const app1 = await monitor('app-one', { dependsOn: [{ type: 'monitor', id: gateway }] });
    target.respondFor('/gateway', 500);
    target.respondFor('/app-one', 500);
    await check(gateway);
    await check(app1);
    expect((await read(app1)).status).toBe('unreachable');
    target.respondFor('/gateway', 200);
    target.respondFor('/app-one', 200);
    await check(gateway);
    await waitFor(
      () => read(app1),
      (m) => m.status === 'up',
    );
    expect(await alertsFor(app1)).toEqual([]);
  });

  it('refuses missing ids, the monitor itself and cycles across monitors and agents, naming the cycle', async () => {
    const a = await monitor('cycle-a');
    const b = await monitor('cycle-b', { dependsOn: [{ type: 'monitor', id: a }] });
    const c = await monitor('cycle-c', { depends_on: [{ type: 'monitor', id: b }] });
    const refuse = async (id: number, dependsOn: unknown) =>
      (await api().put(`/api/monitors/${id}`).set(admin.auth).send({ dependsOn }).expect(400)).body;

    expect(await refuse(a, [{ type: 'monitor', id: c }])).toMatchObject({
      success: false,
      code: 'dependencies.cycle',
      message: 'dependsOn would make a cycle: cycle-a → cycle-c → cycle-b → cycle-a',
    });
    expect(await refuse(a, [{ type: 'monitor', id: a }])).toMatchObject({ code: 'dependencies.self' });
    expect(await refuse(a, [{ type: 'monitor', id: 999_999 }])).toMatchObject({ code: 'dependencies.notFound' });
    expect(await refuse(a, [{ type: 'agent', id: 999_999 }])).toMatchObject({ code: 'dependencies.notFound' });
    for (const bad of [
      [{ type: 'server', id: 1 }],
      [{ type: 'monitor', id: -1 }],
      [
        { type: 'monitor', id: b },
        { type: 'monitor', id: b },
      ],
      'x',
    ]) {
      expect(await refuse(a, bad)).toMatchObject({ code: 'dependencies.invalid' });
    }
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ type: 'monitor', id: i + 1 }));
    expect(await refuse(a, tooMany)).toMatchObject({ code: 'dependencies.invalid' });

    // Through an agent: the agent depends on c, then a may not depend on the agent.
    const { agentId } = await enrollAgent(app.url, admin, 'cycle-host');
    await api()
      .put(`/api/agents/${agentId}`)
      .set(admin.auth)
      .send({ name: 'cycle-host', dependsOn: [{ type: 'monitor', id: c }] })
      .expect(200);
    expect(await refuse(a, [{ type: 'agent', id: agentId }])).toMatchObject({
      code: 'dependencies.cycle',
      message: 'dependsOn would make a cycle: cycle-a → cycle-host → cycle-c → cycle-b → cycle-a',
    });
    const agentCycle = await api()
      .put(`/api/agents/${agentId}`)
      .set(admin.auth)
      .send({ name: 'cycle-host', dependsOn: [{ type: 'agent', id: agentId }] })
      .expect(400);
    expect(agentCycle.body).toMatchObject({ code: 'dependencies.self' });

    // Deleting a monitor takes it out of every list that named it.
    await api().delete(`/api/monitors/${b}`).set(admin.auth).expect(200);
    expect((await read(c)).depends_on).toEqual([]);
    const agent = (await api().get(`/api/agents/${agentId}`).set(admin.auth).expect(200)).body.agent;
    expect(agent.depends_on).toEqual([{ type: 'monitor', id: c }]);
    await api().delete(`/api/monitors/${c}`).set(admin.auth).expect(200);
    expect((await api().get(`/api/agents/${agentId}`).set(admin.auth).expect(200)).body.agent.depends_on).toEqual([]);
  });

  it('flags an offline agent unreachable while its dependency is down', async () => {
    const uplink = await monitor('uplink');
    const { agentId, credential } = await enrollAgent(app.url, admin, 'edge-host');
    await api()
      .put(`/api/agents/${agentId}`)
      .set(admin.auth)
      .send({ name: 'edge-host', depends_on: [{ type: 'monitor', id: uplink }] })
      .expect(200);
    const socket = await connectAgent(app.url, credential, 'edge-host');
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    const agent = () =>
      api()
        .get(`/api/agents/${agentId}`)
        .set(admin.auth)
        .expect(200)
        .then((r) => r.body.agent);
    await waitFor(agent, (a) => a.status === 'active');
    target.respondFor('/uplink', 500);
    await check(uplink);
    socket.disconnect();
    expect(await waitFor(agent, (a) => a.status === 'inactive')).toMatchObject({ unreachable: true });

    // Back online: no longer unreachable.
    const again = await connectAgent(app.url, credential, 'edge-host');
    expect(await again.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    expect(await waitFor(agent, (a) => a.status === 'active')).toMatchObject({ unreachable: false });
    again.disconnect();
  });

  it('counts and filters unreachable agents among the offline ones, on the list, the dashboard and live', async () => {
    const router = await monitor('router');
    const behind = await enrollAgent(app.url, admin, 'behind-router');
    const alone = await enrollAgent(app.url, admin, 'alone-host');
    await api()
      .put(`/api/agents/${behind.agentId}`)
      .set(admin.auth)
      .send({ name: 'behind-router', depends_on: [{ type: 'monitor', id: router }] })
      .expect(200);
    const watcher: Socket<ServerToClientEvents, ClientToServerEvents> = io(app.url, {
      auth: { token: admin.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const pushed: AgentStatusChangedEvent[] = [];
    watcher.on('agent.status_changed', (event) => pushed.push(event));
    expect(await watcher.timeout(5000).emitWithAck('subscribe', 'agents')).toEqual({ ok: true });
    const list = async (status = '') =>
      (
        await api()
          .get(`/api/agents${status && `?status=${status}`}`)
          .set(admin.auth)
          .expect(200)
      ).body as AgentsResponse;
    // Agents of earlier cases settle offline first, so the counts below move only by this case's two.
    const before = (await waitFor(list, (l) => l.counts.active + l.counts.connecting === 2, 30_000)).counts;
    const sockets = [];
    for (const [{ credential }, hostname] of [
      [behind, 'behind-router'],
      [alone, 'alone-host'],
    ] as const) {
      const socket = await connectAgent(app.url, credential, hostname);
      expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
      sockets.push(socket);
    }
    await waitFor(list, (l) => l.counts.active === 2);

    target.respondFor('/router', 500);
    await check(router);
    sockets.forEach((socket) => socket.disconnect());
    const after = await waitFor(list, (l) => l.counts.active + l.counts.connecting === 0, 30_000);
    // Both are offline (inactive, as the spec counts them); one of them is unreachable besides.
    expect(after.counts).toEqual({ ...before, connecting: 0, inactive: before.inactive + 2, unreachable: before.unreachable + 1 });
    expect((await list('unreachable')).agents.map((a) => a.id)).toContain(behind.agentId);
    expect((await list('unreachable')).agents.map((a) => a.id)).not.toContain(alone.agentId);
    expect((await list('inactive')).agents.map((a) => a.id)).toContain(alone.agentId);
    expect((await list('inactive')).agents.map((a) => a.id)).toContain(behind.agentId);
    const dashboard = (await api().get('/api/dashboard').set(admin.auth).expect(200)).body.dashboard;
    expect(dashboard.agents).toEqual(after.counts);
    await api().get('/api/agents?status=asleep').set(admin.auth).expect(400);

    // Pushes say which offline agent is unreachable, so live lists move it to the right count.
    const offline = await waitFor(
      async () => pushed.filter((e) => e.status === 'inactive' && [behind.agentId, alone.agentId].includes(e.agentId)),
      (events) => events.length === 2,
    );
    expect(offline.map((e) => [e.agentId, e.previous_unreachable, e.unreachable]).sort()).toEqual(
      [
        [behind.agentId, false, true],
        [alone.agentId, false, false],
      ].sort(),
    );
    const back = await connectAgent(app.url, behind.credential, 'behind-router');
    expect(await back.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    const returned = await waitFor(
      async () => pushed.find((e) => e.agentId === behind.agentId && e.previous === 'inactive'),
      (event) => event !== undefined,
    );
    expect(returned).toMatchObject({ previous_unreachable: true, unreachable: false });
    back.disconnect();
    watcher.disconnect();
  });

  it('marks a slow success degraded: counted as up in uptime, reported apart', async () => {
    const slow = await monitor('slow-api', { degradedAfterMs: 100 });
    target.respondFor('/slow-api', 200, 400);
    const { check: result } = await check(slow);
    expect(result.status).toBe('degraded');
    const stored = await read(slow);
    expect(stored).toMatchObject({ status: 'degraded', degraded_after_ms: 100 });
    const stats = (await api().get(`/api/monitors/${slow}/stats`).set(admin.auth).expect(200)).body.stats;
    expect(stats).toMatchObject({ uptime: 100, degraded: 1, unreachable: 0 });
    const listed = (await api().get('/api/monitors?status=degraded').set(admin.auth).expect(200)).body;
    expect(listed.monitors.map((m: MonitorDto) => m.id)).toEqual([slow]);
    expect(listed.counts.degraded).toBe(1);

    target.respondFor('/slow-api', 200);
    await check(slow);
    expect((await read(slow)).status).toBe('up');
    await api().put(`/api/monitors/${slow}`).set(admin.auth).send({ degradedAfterMs: 0 }).expect(400);
    await api().put(`/api/monitors/${slow}`).set(admin.auth).send({ degradedAfterMs: null }).expect(200);
    expect((await read(slow)).degraded_after_ms).toBeNull();
  });

  it('marks a soft assertion failure degraded, not down', async () => {
    const assertions = [{ source: 'responseTime', operator: 'lt', value: 20, soft: true }];
    const soft = await monitor('soft-api', { assertions }, 'degraded', 100);
    const { check: result } = await check(soft);
    expect(result).toMatchObject({ status: 'degraded', error: expect.stringContaining('responseTime') });
    expect((await read(soft)).assertions).toEqual(assertions);
    // A hard assertion failing still fails the check.
    await api()
      .put(`/api/monitors/${soft}`)
      .set(admin.auth)
      .send({ assertions: [{ ...assertions[0], soft: false }] })
      .expect(200);
    expect((await check(soft)).check.status).toBe('down');
  });

  it('flags a monitor that changes state more often than the flapping window allows', async () => {
    const flaky = await monitor('flaky');
    expect((await read(flaky)).flapping).toBe(false);
    // Created pending → up is one change; three more make four within the window (more than FLAPPING_CHANGES 3).
    for (const status of [500, 200, 500]) {
      target.respondFor('/flaky', status);
      await check(flaky);
    }
    expect(await read(flaky)).toMatchObject({ status: 'down', flapping: true });
  });
});
