import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { AgentsChangedEvent, AlertDto, ClientToServerEvents, MonitorsChangedEvent, ServerToClientEvents } from '@vigil/proto';
import { enrollAgent } from '../factories/agents';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService, type ServiceRequest } from '../support/channel-e2e';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A "minute" of alert timing is 1 s here (ALERT_MINUTE_MS): reminders every second, a 4 s flapping window. */
const MINUTE_MS = 1000;
const GENIE_KEY = 'eb243592-faa2-4ba2-a551-1afdf565c889';

/**
 * Issue 29: what the messages say and when they go. A dependency's down and recovery name its dependents, a degraded
 * spell has its own pair of messages, a flapping monitor sends one message when it starts flapping and one when it
 * settles, alerts reach the `alerts` room live, a paused monitor's alert is held (no reminders), mute is pushed live,
 * and an acknowledgement reaches Opsgenie. Every check is a manual one against a loopback target; what was sent is
 * read at a loopback webhook and a fake Opsgenie.
 */
describe('alert messages', () => {
  let app: TestApp;
  let admin: Session;
  let hook: FakeService;
  let opsgenie: FakeService;
  let target: TargetServer;
  let hookChannel: number;
  const sockets: BrowserSocket[] = [];

  beforeAll(async () => {
    [hook, opsgenie, target] = await Promise.all([startFakeService(), startFakeService(), startTargetServer()]);
    opsgenie.answer = () => ({ status: 202, body: { result: 'Request will be processed', took: 0.1, requestId: 'r-1' } });
    app = await startTestApp({
      env: {
        ...USERS_REACH_LOOPBACK,
        OPSGENIE_API_URL: opsgenie.url,
        ALERT_MINUTE_MS: String(MINUTE_MS),
        ALERT_SWEEP_MS: '100',
        FLAPPING_CHANGES: '3',
        FLAPPING_WINDOW_MINUTES: '4',
      },
    });
    admin = await registerFirstAdmin(app.url);
    hookChannel = await channel('hook', 'webhook', { url: `${hook.url}/hook` });
    await settings({ target_type: 'global-monitor', on_degraded: true, channels: [hookChannel] });
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
    await Promise.all([hook?.close(), opsgenie?.close(), target?.close()]);
  }, 60_000);

  const api = () => request(app.url);

  async function channel(name: string, type: 'webhook' | 'opsgenie', config: Record<string, unknown>): Promise<number> {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name, type, language: 'en-US', config, groupWaitSeconds: 0 })
      .expect(201);
    return body.data.id;
  }

  async function settings(body: Record<string, unknown>): Promise<void> {
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ enabled: true, on_down: true, on_recovery: true, ...body })
      .expect(200);
  }

  /** A monitor of `/<name>` on the target, up after its first check, so later checks are the test's. */
  async function monitor(name: string, extra: Record<string, unknown> = {}): Promise<number> {
    target.respondFor(`/${name}`, 200);
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}/${name}`, interval: 3600, retries: 0, ...extra })
      .expect(201);
    await waitFor(
      async () => (await api().get(`/api/monitors/${body.monitor.id}`).set(admin.auth).expect(200)).body.monitor.status,
      (status) => status === 'up',
    );
    return body.monitor.id;
  }

  /** Answers `/<name>` with `status` (after `delayMs`) and checks the monitor once; its state after. */
  async function checkWith(id: number, name: string, status: number, delayMs = 0) {
    target.respondFor(`/${name}`, status, delayMs);
    return (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body.monitor;
  }

  /** What the webhook received about one target, in order. */
  const about = (name: string): ServiceRequest['json'][] =>
    hook
      .to('/hook')
      .map((req) => req.json)
      .filter((json) => json.target?.name === name);
  const eventsAbout = (name: string): string[] => about(name).map((json) => json.event);
  /** Every message written for a monitor's alerts (the outbox rows, written with the check), oldest first. */
  const messagesOf = async (id: number): Promise<string[]> => {
    const { body } = await api().get(`/api/alerts?kind=monitor&targetId=${id}&pageSize=100`).set(admin.auth).expect(200);
    return (body.alerts as AlertDto[])
      .flatMap((alert) => alert.messages)
      .sort((x, y) => x.created_at.localeCompare(y.created_at) || x.id - y.id)
      .map((m) => m.event);
  };

  async function browser(...rooms: string[]): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, {
      auth: { token: admin.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    for (const room of rooms) expect(await socket.timeout(5000).emitWithAck('subscribe', room as never)).toEqual({ ok: true });
    return socket;
  }

  it("names a dependency's dependents in its down and recovery messages, and pushes the alert live", async () => {
    const socket = await browser('alerts');
    const pushed: AlertDto[] = [];
    socket.on('alert.changed', ({ alert }) => pushed.push(alert));

    const router = await monitor('core-router');
    const dependents = ['shop-web', 'shop-api', 'mail'];
    const ids = await Promise.all(dependents.map((name) => monitor(name, { dependsOn: [{ type: 'monitor', id: router }] })));

    await checkWith(router, 'core-router', 503);
    for (const [i, name] of dependents.entries()) expect((await checkWith(ids[i], name, 503)).status).toBe('unreachable');
    const [down] = await waitFor(
      async () => about('core-router'),
      (list) => list.length >= 1,
    );
    expect(down).toMatchObject({ event: 'monitor.down', subject: '[Down] core-router — 3 dependents unreachable' });
    expect(down.text).toContain('Dependents (shown unreachable meanwhile, not alerted on their own) (3): mail, shop-api, shop-web');

    // Live: the opened alert reaches the room.
    const opened = await waitFor(
      async () => pushed.filter((a) => a.target_name === 'core-router'),
      (list) => list.some((a) => a.state === 'open'),
    );
    expect(opened[0]).toMatchObject({ target_kind: 'monitor', target_id: router, metric: 'status', state: 'open' });
    const alertId = opened[0].id;

    // Acknowledged, then resolved: each change pushed.
    await api().post(`/api/alerts/${alertId}/ack`).set(admin.auth).send({ note: 'rebooting it' }).expect(200);
    await waitFor(
      async () => pushed.filter((a) => a.id === alertId).map((a) => a.state),
      (states) => states.includes('acknowledged'),
    );
    expect(pushed.find((a) => a.id === alertId && a.state === 'acknowledged')).toMatchObject({ ack_note: 'rebooting it' });

    // The router comes back with its dependents: they are re-checked at once and come back without a word of their own.
    for (const name of dependents) target.respondFor(`/${name}`, 200);
    await checkWith(router, 'core-router', 200);
    const [, recovery] = await waitFor(
      async () => about('core-router'),
      (list) => list.length >= 2,
    );
    expect(recovery).toMatchObject({ event: 'monitor.recovery' });
    expect(recovery.subject).toMatch(/core-router — 3 dependents reachable again$/);
    expect(recovery.text).toContain('Dependents (3): mail, shop-api, shop-web');
    await waitFor(
      async () => pushed.filter((a) => a.id === alertId).map((a) => a.state),
      (states) => states.includes('resolved'),
    );
    await waitFor(
      async () => Promise.all(ids.map(async (id) => (await api().get(`/api/monitors/${id}`).set(admin.auth)).body.monitor.status)),
      (statuses) => statuses.every((s) => s === 'up'),
    );
    for (const name of dependents) expect(about(name)).toEqual([]);
  }, 60_000);

  it('sends a degraded spell its own message and its end another', async () => {
    const slow = await monitor('slow-api', { degradedAfterMs: 100 });
    expect((await checkWith(slow, 'slow-api', 200, 400)).status).toBe('degraded');
    await waitFor(
      async () => eventsAbout('slow-api'),
      (events) => events.length >= 1,
    );
    expect(about('slow-api')[0]).toMatchObject({ event: 'monitor.degraded', severity: 'alert', subject: '[Degraded] slow-api' });

    expect((await checkWith(slow, 'slow-api', 200)).status).toBe('up');
    await waitFor(
      async () => eventsAbout('slow-api'),
      (events) => events.length >= 2,
    );
    expect(about('slow-api')[1]).toMatchObject({ event: 'monitor.degraded_recovery', subject: '[No longer degraded] slow-api' });
    const { body } = await api()
      .get('/api/alerts?kind=monitor&targetId=' + slow)
      .set(admin.auth)
      .expect(200);
    expect(body.alerts).toEqual([expect.objectContaining({ metric: 'degraded', state: 'resolved' })]);
  }, 30_000);

  it('sends one message when a monitor starts flapping and one when it settles, none for each change between', async () => {
    const flaky = await monitor('flaky');
    // Created pending → up is one change; toggled until more than FLAPPING_CHANGES (3) fall within the 4 s window.
    let status = 200;
    await waitFor(
      async () => {
        status = status === 200 ? 500 : 200;
        return (await checkWith(flaky, 'flaky', status)).flapping as boolean;
      },
      (flapping) => flapping,
      20_000,
    );
    // The outbox rows of a check are written with it: what was decided so far, ending with the flapping message.
    const before = await messagesOf(flaky);
    expect(before.filter((e) => e === 'monitor.flapping')).toHaveLength(1);
    expect(before.at(-1)).toBe('monitor.flapping');

    // While flapping, changes send nothing: two more of them.
    for (const next of [status === 200 ? 500 : 200, status]) expect((await checkWith(flaky, 'flaky', next)).flapping).toBe(true);
    // A whole window without a change settles it, at the next check.
    await waitFor(
      async () => (await checkWith(flaky, 'flaky', 200)).flapping as boolean,
      (flapping) => !flapping,
      20_000,
    );
    expect(await messagesOf(flaky)).toEqual([...before, 'monitor.flapping_settled']);
    const delivered = await waitFor(
      async () => eventsAbout('flaky'),
      (events) => events.length === before.length + 1,
    );
    expect([...delivered].sort()).toEqual([...before, 'monitor.flapping_settled'].sort());
    expect(about('flaky').find((json) => json.event === 'monitor.flapping_settled').text).toContain('Status now: up');
    const { body } = await api().get(`/api/alerts?kind=monitor&targetId=${flaky}`).set(admin.auth).expect(200);
    expect(body.alerts.filter((a: AlertDto) => a.metric === 'flapping')).toEqual([expect.objectContaining({ state: 'resolved' })]);
  }, 60_000);

  it("holds a paused monitor's reminders while another's go on, and reminds again once it is resumed still down", async () => {
    const [held, other] = [await monitor('paused-box'), await monitor('busy-box')];
    for (const id of [held, other])
      await settings({ target_type: 'monitor', target_id: id, override_global: true, channels: [hookChannel], reminder_minutes: 1 });
    const reminders = (name: string) => eventsAbout(name).filter((event: string) => event === 'alert.reminder').length;
    const alertOf = async (id: number): Promise<AlertDto> =>
      (await api().get(`/api/alerts?kind=monitor&targetId=${id}`).set(admin.auth).expect(200)).body.alerts[0];
    await checkWith(held, 'paused-box', 503);
    await checkWith(other, 'busy-box', 503);
    await waitFor(
      async () => reminders('paused-box'),
      (count) => count >= 1,
    );

    await api().post(`/api/monitors/${held}/pause`).set(admin.auth).expect(200);
    // Two more of the other's reminders: any sweep that was under way at the pause has been delivered.
    const otherCount = reminders('busy-box');
    await waitFor(
      async () => reminders('busy-box'),
      (count) => count >= otherCount + 2,
      20_000,
    );
    const heldCount = reminders('paused-box');
    const sent = (await alertOf(held)).reminders_sent;
    // The sweep goes on (three more of the other's reminders) and passes the paused one by.
    await waitFor(
      async () => reminders('busy-box'),
      (count) => count >= otherCount + 5,
      20_000,
    );
    expect(reminders('paused-box')).toBe(heldCount);
    expect(await alertOf(held)).toMatchObject({ state: 'open', reminders_sent: sent });

    // Resumed and checked at once, still down: reminded again.
    await api().post(`/api/monitors/${held}/resume`).set(admin.auth).expect(200);
    await waitFor(
      async () => reminders('paused-box'),
      (count) => count > heldCount,
      10_000,
    );
    for (const id of [held, other]) await api().post(`/api/monitors/${id}/pause`).set(admin.auth).expect(200);
  }, 60_000);

  it('pushes mute and unmute live, as an edit of the monitor or agent', async () => {
    const socket = await browser('monitors', 'agents');
    const monitors: MonitorsChangedEvent[] = [];
    const agents: AgentsChangedEvent[] = [];
    socket.on('monitors.changed', (event) => monitors.push(event));
    socket.on('agents.changed', (event) => agents.push(event));
    const id = await monitor('muted-box');
    const { agentId } = await enrollAgent(app.url, admin, 'muted-host');
    const until = new Date(Date.now() + 3_600_000).toISOString();

    await api().post(`/api/monitors/${id}/mute`).set(admin.auth).send({ until }).expect(200);
    await api().post(`/api/agents/${agentId}/mute`).set(admin.auth).send({ until }).expect(200);
    await waitFor(
      async () => monitors.filter((e) => e.action === 'updated' && e.monitor.id === id).map((e) => e.monitor.muted_until),
      (values) => values.includes(until),
    );
    await waitFor(
      async () => agents.filter((e) => e.action === 'updated' && e.agent.id === agentId).map((e) => e.agent.muted_until),
      (values) => values.includes(until),
    );

    await api().post(`/api/monitors/${id}/mute`).set(admin.auth).send({ until: null }).expect(200);
    await api().post(`/api/agents/${agentId}/mute`).set(admin.auth).send({ until: null }).expect(200);
    await waitFor(
      async () => monitors.filter((e) => e.monitor.id === id).at(-1)?.monitor.muted_until,
      (value) => value === null,
    );
    await waitFor(
      async () => agents.filter((e) => e.agent.id === agentId).at(-1)?.agent.muted_until,
      (value) => value === null,
    );
  }, 30_000);

  it('carries an acknowledgement to Opsgenie, on the alert its down opened', async () => {
    const genie = await channel('genie', 'opsgenie', { apiKey: GENIE_KEY, priority: 'P2' });
    const db = await monitor('db-primary');
    await settings({ target_type: 'monitor', target_id: db, override_global: true, channels: [genie] });
    await checkWith(db, 'db-primary', 503);
    const [created] = await waitFor(
      async () => opsgenie.to('/v2/alerts'),
      (list) => list.length >= 1,
    );
    expect(created.json).toMatchObject({ message: '[Down] db-primary', priority: 'P2', alias: `vigil-monitor-${db}-status-1` });

    const { body } = await api().get(`/api/alerts?kind=monitor&targetId=${db}`).set(admin.auth).expect(200);
    await api().post(`/api/alerts/${body.alerts[0].id}/ack`).set(admin.auth).send({ note: 'failing over' }).expect(200);
    const ack = await waitFor(
      async () => opsgenie.to(`/v2/alerts/vigil-monitor-${db}-status-1/acknowledge`),
      (list) => list.length === 1,
    );
    expect(ack[0].path).toBe(`/v2/alerts/vigil-monitor-${db}-status-1/acknowledge?identifierType=alias`);
    expect(ack[0].headers.authorization).toBe(`GenieKey ${GENIE_KEY}`);
    expect(ack[0].json).toMatchObject({ source: 'Vigil', note: expect.stringContaining('failing over') });
    expect(ack[0].json.note).toContain('[Acknowledged] db-primary');
  }, 30_000);
});
