import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, MaintenanceChangedEvent, MaintenanceDto, ServerToClientEvents } from '@vigil/proto';
import { enrollAgent } from '../factories/agents';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { useTestRedis, type TestRedis } from '../support/redis';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The sweep every 100 ms; a "minute" of end-when-healthy is 500 ms. */
const ENV = { ...USERS_REACH_LOOPBACK, MAINTENANCE_SWEEP_MS: '100', ALERT_MINUTE_MS: '500' };
const MANUAL = { strategy: 'manual', timezone: 'UTC' };

/**
 * Issue 30, requirements 6, 7 and 12 (maintenance): a window covering now makes a failing monitor `maintenance` with
 * nothing sent to the loopback webhook, and its down notification comes when the window ends with the monitor still
 * failing; start and end notices; a window that ends itself once its monitors are healthy; bad input refused naming
 * the field; the calendar; live pushes; and two instances sharing a database and Redis starting and ending a window
 * once. Checks are manual ones against a loopback target.
 */
describe('maintenance windows', () => {
  let app: TestApp;
  let admin: Session;
  let hook: FakeService;
  let target: TargetServer;
  const sockets: BrowserSocket[] = [];

  beforeAll(async () => {
    [hook, target] = await Promise.all([startFakeService(), startTargetServer()]);
    app = await startTestApp({ env: ENV });
    admin = await registerFirstAdmin(app.url);
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    for (const target_type of ['global-monitor', 'global-agent'])
      await api()
        .post('/api/notifications/settings')
        .set(admin.auth)
        .send({ target_type, enabled: true, on_down: true, on_recovery: true, on_offline: true, channels: [body.data.id] })
        .expect(200);
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
    await Promise.all([hook?.close(), target?.close()]);
  }, 60_000);

  const api = () => request(app.url);
  const about = (name: string) =>
    hook
      .to('/hook')
      .map((req) => req.json)
      .filter((json) => json.target?.name === name);

  /** A monitor of `/<name>` on the target, up after its first check; later checks are the test's. */
  async function monitor(name: string, extra: Record<string, unknown> = {}): Promise<number> {
    target.respondFor(`/${name}`, 200);
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}/${name}`, interval: 3600, retries: 1, ...extra })
      .expect(201);
    await waitFor(
      async () => (await api().get(`/api/monitors/${body.monitor.id}`).set(admin.auth).expect(200)).body.monitor.status,
      (status) => status === 'up',
    );
    return body.monitor.id;
  }
  const statusOf = async (id: number) => (await api().get(`/api/monitors/${id}`).set(admin.auth).expect(200)).body.monitor.status;
  const check = async (id: number) => (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body;

  async function save(body: Record<string, unknown>, status = 201): Promise<MaintenanceDto> {
    const { body: answer } = await api().post('/api/maintenance').set(admin.auth).send(body).expect(status);
    return answer.maintenance;
  }

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

  it('holds a failing monitor in maintenance without a word, and sends its down alert when the window ends with it still failing', async () => {
    const socket = await browser('maintenance');
    const pushed: MaintenanceChangedEvent[] = [];
    socket.on('maintenance.changed', (event) => pushed.push(event));
    const payments = await monitor('payments');
    const bystander = await monitor('bystander');

    const window = await save({ ...MANUAL, title: 'Payments deploy', scope: { all: false, monitors: [payments], agents: [], groups: [] } });
    expect(window).toMatchObject({ phase: 'active', enabled: true, current: { end: null }, pages: [] });
    expect(await statusOf(payments)).toBe('maintenance');
    expect(await statusOf(bystander)).toBe('up');

    // Failing, twice (past its retry), in the window: still checked and recorded, shown as maintenance, nothing sent.
    target.respondFor('/payments', 503);
    for (let i = 0; i < 2; i++) {
      const { check: stored, monitor: after } = await check(payments);
      expect([stored.status, after.status]).toEqual(['maintenance', 'maintenance']);
      expect(stored.error).toMatch(/503/);
    }
    const { body: listed } = await api().get('/api/monitors?status=maintenance').set(admin.auth).expect(200);
    expect(listed.monitors.map((m: { id: number }) => m.id)).toEqual([payments]);
    expect(listed.counts.maintenance).toBe(1);
    const { body: covering } = await api().get(`/api/maintenance?monitorId=${payments}`).set(admin.auth).expect(200);
    expect(covering.maintenance.map((m: MaintenanceDto) => m.id)).toEqual([window.id]);
    await sleep(500);
    expect(about('payments')).toEqual([]);

    const { body: ended } = await api().post(`/api/maintenance/${window.id}/end`).set(admin.auth).expect(200);
    expect(ended).toMatchObject({ success: true, message: 'Maintenance window ended', maintenance: { phase: 'paused', enabled: false } });
    // Checked again at once: still failing, so down now, and the down alert goes out.
    await waitFor(
      () => statusOf(payments),
      (status) => status === 'down',
    );
    const [down] = await waitFor(
      async () => about('payments'),
      (list) => list.length >= 1,
    );
    expect(down).toMatchObject({ event: 'monitor.down', target: { kind: 'monitor', id: payments } });
    await api().post(`/api/maintenance/${window.id}/end`).set(admin.auth).expect(409);

    await waitFor(
      async () => pushed.map((e) => `${e.action}:${e.id}`),
      (seen) => ['created', 'started', 'ended'].every((action) => seen.includes(`${action}:${window.id}`)),
    );
  }, 60_000);

  it('sends a notice when each occurrence starts and ends, to the channels of what it covers', async () => {
    const search = await monitor('search');
    const start = Date.now() - 60_000;
    const window = await save({
      title: 'Index rebuild',
      strategy: 'single',
      startAt: new Date(start).toISOString(),
      endAt: new Date(Date.now() + 2_000).toISOString(),
      notify: true,
      scope: { all: false, monitors: [search], agents: [], groups: [] },
      pages: ['default'],
    });
    expect(window).toMatchObject({ phase: 'active', pages: ['default'] });
    const notices = await waitFor(
      async () => about('Index rebuild'),
      (list) => list.length >= 2,
      15_000,
    );
    expect(notices.map((n) => [n.event, n.severity, n.target.kind, n.target.id])).toEqual([
      ['maintenance.started', 'info', 'maintenance', window.id],
      ['maintenance.ended', 'info', 'maintenance', window.id],
    ]);
    expect(notices[0].subject).toBe('[Maintenance started] Index rebuild');
    expect(notices[0].text).toContain('Covers: 1 monitor');
    await waitFor(
      () => statusOf(search),
      (status) => status === 'up',
    );
    const { body } = await api().get(`/api/maintenance/${window.id}`).set(admin.auth).expect(200);
    expect(body.maintenance).toMatchObject({ phase: 'ended', current: null });
  }, 60_000);

  it('ends a window by itself once its monitors have been up for the given minutes, and not while one fails', async () => {
    const deploy = await monitor('deploy-api');
    const window = await save({
      ...MANUAL,
      title: 'Deploy',
      endWhenHealthyMinutes: 2,
      scope: { all: false, monitors: [deploy], agents: [], groups: [] },
    });
    // Failing: the window holds (two "minutes" are one second here).
    target.respondFor('/deploy-api', 503);
    await check(deploy);
    await sleep(1_500);
    expect((await api().get(`/api/maintenance/${window.id}`).set(admin.auth)).body.maintenance.phase).toBe('active');
    target.respondFor('/deploy-api', 200);
    await check(deploy);
    await waitFor(
      async () => (await api().get(`/api/maintenance/${window.id}`).set(admin.auth)).body.maintenance.phase,
      (phase) => phase === 'paused',
    );
    await waitFor(
      () => statusOf(deploy),
      (status) => status === 'up',
    );
  }, 60_000);

  it("shows a window on its status pages with its description made safe, and marks today's bar", async () => {
    const shop = await monitor('shop-front');
    const window = await save({
      ...MANUAL,
      title: 'Storage migration',
      description: 'Moving **storage** <script>alert(1)</script> [docs](javascript:alert(1))',
      pages: ['default'],
      scope: { all: false, monitors: [shop], agents: [], groups: [] },
    });
    const data = await waitFor(
      async () => (await api().get('/api/status-pages/default/data').expect(200)).body.data,
      (read) => read.maintenance.some((m: { id: number }) => m.id === window.id),
    );
    const shown = data.maintenance.find((m: { id: number }) => m.id === window.id);
    expect(shown).toMatchObject({ title: 'Storage migration', phase: 'active', end: null });
    expect(shown.description_html).toContain('<strong>storage</strong>');
    expect(shown.description_html).not.toMatch(/<script|href="javascript/i);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.marks).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'maintenance', id: window.id, date: today })]));
    await api().post(`/api/maintenance/${window.id}/end`).set(admin.auth).expect(200);
  }, 30_000);

  it('flags an agent in maintenance and lists it by that', async () => {
    const { agentId } = await enrollAgent(app.url, admin, 'maint-host');
    const window = await save({ ...MANUAL, title: 'Host patching', scope: { all: false, monitors: [], agents: [agentId], groups: [] } });
    expect((await api().get(`/api/agents/${agentId}`).set(admin.auth).expect(200)).body.agent.maintenance).toBe(true);
    const { body } = await api().get('/api/agents?status=maintenance').set(admin.auth).expect(200);
    expect(body.agents.map((a: { id: number }) => a.id)).toEqual([agentId]);
    expect(body.counts.maintenance).toBe(1);
    await api().delete(`/api/maintenance/${window.id}`).set(admin.auth).expect(200);
    expect((await api().get(`/api/agents/${agentId}`).set(admin.auth).expect(200)).body.agent.maintenance).toBe(false);
    await api().get(`/api/maintenance/${window.id}`).set(admin.auth).expect(404);
  }, 30_000);

  it('lists every occurrence of a range in the calendar', async () => {
    const any = await monitor('calendar-target');
    const window = await save({
      title: 'Weekly patch',
      strategy: 'weekly',
      timezone: 'Europe/Berlin',
      weekdays: [2],
      startTime: '02:00',
      endTime: '03:00',
      scope: { all: false, monitors: [any], agents: [], groups: [] },
    });
    expect(window.phase).toBe('scheduled');
    const from = new Date(Date.now() + 86_400_000);
    const to = new Date(from.getTime() + 28 * 86_400_000);
    const { body } = await api()
      .get(`/api/maintenance/calendar?from=${from.toISOString()}&to=${to.toISOString()}`)
      .set(admin.auth)
      .expect(200);
    const mine = body.occurrences.filter((o: { id: number }) => o.id === window.id);
    expect(mine).toHaveLength(4);
    for (const occurrence of mine) expect(new Date(occurrence.end).getTime() - new Date(occurrence.start).getTime()).toBe(3_600_000);
  }, 30_000);

  it('refuses bad input with a 400 naming the problem, and writes only for users and admins', async () => {
    const plain = await monitor('plain');
    const viewer = await createUser(app.url, admin, 'viewer');
    const scope = { all: false, monitors: [plain], agents: [], groups: [] };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ strategy: 'cron', cron: '61 * * * *', durationMinutes: 5 }, /^cron must be a valid five-field expression/],
      [{ strategy: 'manual', timezone: 'Mars/Olympus' }, /^Timezone must be an IANA time zone/],
      [{ strategy: 'single', startAt: '2026-06-02T00:00:00Z', endAt: '2026-06-01T00:00:00Z' }, /^endAt must be after startAt/],
      [{ strategy: 'weekly', weekdays: [1], startTime: '25:00', endTime: '02:00' }, /^startTime and endTime must be times of day as HH:MM/],
      [{ strategy: 'weekly', weekdays: [9], startTime: '01:00', endTime: '02:00' }, /^weekdays must list/],
      [{ strategy: 'monthly', daysOfMonth: [32], startTime: '01:00', endTime: '02:00' }, /^daysOfMonth must list/],
      [
        { strategy: 'interval', intervalDays: 0, startAt: '2026-01-01T00:00:00Z', startTime: '01:00', endTime: '02:00' },
        /^intervalDays must be/,
      ],
      [{ strategy: 'cron', cron: '0 2 * * *', durationMinutes: 0 }, /^durationMinutes must be/],
      [{ strategy: 'manual', scope: { ...scope, monitors: [999_999] } }, /^scope.monitors names a monitor that does not exist/],
      [{ strategy: 'manual', scope: { ...scope, agents: [999_999] } }, /^scope.agents names an agent that does not exist/],
      [{ strategy: 'manual', scope: { ...scope, groups: [plain] } }, /^scope.groups names a monitor that does not exist or is not a group/],
      [{ strategy: 'manual', pages: ['no-such-page'] }, /^pages names a status page that does not exist/],
      [{ strategy: 'manual', pages: Array.from({ length: 101 }, (_, i) => `p-${i}`) }, /^pages must be a list of at most 100/],
      [{ strategy: 'manual', scope: { ...scope, monitors: [] } }, /^scope must cover something/],
    ];
    for (const [patch, message] of cases) {
      const { body } = await api()
        .post('/api/maintenance')
        .set(admin.auth)
        .send({ title: 'Bad', scope, ...patch })
        .expect(400);
      expect([patch, body.success, body.message]).toEqual([patch, false, expect.stringMatching(message)]);
    }
    // A scope naming more than 1,000 monitors still fits this route's body limit (every monitor may be covered).
    const many = Array.from({ length: 5_000 }, (_, i) => 1_000_000 + i);
    const { body: large } = await api()
      .post('/api/maintenance')
      .set(admin.auth)
      .send({ title: 'All', strategy: 'manual', scope: { ...scope, monitors: many } })
      .expect(400);
    expect(large.code).toBe('maintenance.monitorsUnknown');
    const { body: range } = await api()
      .get('/api/maintenance/calendar?from=2026-01-01T00:00:00Z&to=2026-04-01T00:00:00Z')
      .set(admin.auth)
      .expect(400);
    expect(range.message).toMatch(/at most 62 days apart/);
    await api().get('/api/maintenance?phase=done').set(admin.auth).expect(400);
    await api()
      .post('/api/maintenance')
      .set(viewer.auth)
      .send({ title: 'No', ...MANUAL, scope })
      .expect(403);
    await api().get('/api/maintenance').set(viewer.auth).expect(200);
    await api().get('/api/maintenance').expect(401);
  }, 60_000);
});

describe('maintenance windows on two instances', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;
  let admin: Session;
  let hook: FakeService;
  let target: TargetServer;

  beforeAll(async () => {
    redis = await useTestRedis();
    [database, hook, target] = await Promise.all([createTestDatabase('url'), startFakeService(), startTargetServer()]);
    const env = { ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    [a, b] = await Promise.all([0, 1].map(() => startTestApp({ database, env })));
    admin = await registerFirstAdmin(a.url);
    const { body } = await request(a.url)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    await request(a.url)
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: [body.data.id] })
      .expect(200);
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    await Promise.all([a, b].map((app) => app?.stop()));
    await database?.drop();
    await Promise.all([hook?.close(), redis?.cleanup()]);
  }, 60_000);

  it('starts and ends a window once, whichever instance sweeps first, and both show it', async () => {
    target.respondFor('/shared', 200);
    const { body: created } = await request(a.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'shared', url: `${target.url}/shared`, interval: 3600, retries: 0 })
      .expect(201);
    const id = created.monitor.id;
    await waitFor(
      async () => (await request(b.url).get(`/api/monitors/${id}`).set(admin.auth)).body.monitor?.status,
      (status) => status === 'up',
    );
    // Starting in two seconds, for two seconds: neither instance is asked, both sweep.
    const { body } = await request(a.url)
      .post('/api/maintenance')
      .set(admin.auth)
      .send({
        title: 'Shared window',
        strategy: 'single',
        startAt: new Date(Date.now() + 2_000).toISOString(),
        endAt: new Date(Date.now() + 4_000).toISOString(),
        notify: true,
        scope: { all: true, monitors: [], agents: [], groups: [] },
      })
      .expect(201);
    expect(body.maintenance.phase).toBe('scheduled');
    await waitFor(
      async () => (await request(b.url).get(`/api/monitors/${id}`).set(admin.auth)).body.monitor.status,
      (status) => status === 'maintenance',
    );
    const notices = await waitFor(
      async () => hook.to('/hook').filter((req) => req.json.target?.kind === 'maintenance'),
      (list) => list.length >= 2,
      15_000,
    );
    await sleep(1_000);
    expect(
      hook
        .to('/hook')
        .filter((req) => req.json.target?.kind === 'maintenance')
        .map((req) => req.json.event),
    ).toEqual(['maintenance.started', 'maintenance.ended']);
    expect(notices[0].json.text).toContain('Covers: every monitor and agent');
    await waitFor(
      async () => (await request(a.url).get(`/api/monitors/${id}`).set(admin.auth)).body.monitor.status,
      (status) => status === 'up',
    );
    for (const app of [a, b]) {
      const { body: read } = await request(app.url).get(`/api/maintenance/${body.maintenance.id}`).set(admin.auth).expect(200);
      expect(read.maintenance.phase).toBe('ended');
    }
    // Up all along: nothing about the monitor itself was sent.
    expect(hook.to('/hook').filter((req) => req.json.target?.name === 'shared')).toEqual([]);
  }, 60_000);
});
