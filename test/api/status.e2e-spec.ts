import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, StatusItemEvent } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('status page, badge, wall and dashboard', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let target: TargetServer;
  const sockets: BrowserSocket[] = [];

  beforeAll(async () => {
    [app, target] = await Promise.all([
      startTestApp({ env: { ...USERS_REACH_LOOPBACK, STATUS_ASSET_ORIGINS: 'https://example.com' } }),
      startTargetServer(),
    ]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    target.respond(200);
  });
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);

  async function monitor(name: string, extra: Record<string, unknown> = {}): Promise<number> {
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({
        name,
        url: `${target.url}/${name}?secret=s3cr3t-${name}`,
        headers: { Authorization: 'Bearer hidden-header' },
        retries: 0,
        ...extra,
      })
      .expect(201);
    return body.monitor.id;
  }

  async function agent(hostname: string): Promise<number> {
    const { body: token } = await api().post('/api/agents/token/generate').set(member.auth).expect(200);
    const { body } = await api()
      .post('/api/agents/enroll')
      .send({ token: token.token, hello: { hostname, ip_addresses: ['198.51.100.7'], os: 'Linux', platform: 'linux', agent_version: '1' } })
      .expect(200);
    return body.agent_id;
  }

  async function socket(auth: Record<string, string>, room: string): Promise<BrowserSocket> {
    const s: BrowserSocket = io(app.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(s);
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    const joined = await s.timeout(5000).emitWithAck('subscribe', room as never);
    expect(joined).toEqual({ ok: true });
    return s;
  }

  const check = (id: number) => api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200);

  it('configures the page (signed-in only) and serves only the selected items to anyone, without secrets', async () => {
    const shown = await monitor('shown');
    const hidden = await monitor('hidden');
    const shownAgent = await agent('shown-host');
    await agent('hidden-host');
    await check(shown);

    await api().get('/api/status/config').expect(401);
    await api().post('/api/status/config').send({ title: 'x', monitors: [], agents: [] }).expect(401);
    const empty = await api().get('/api/status/config').set(member.auth).expect(200);
    expect(empty.body.config.monitors.every((m: { selected: boolean }) => m.selected === false)).toBe(true);

    const bad = await api().post('/api/status/config').set(member.auth).send({ title: ' ', monitors: [], agents: [] }).expect(400);
    expect(bad.body.message).toBe('Title is required');
    const badLogo = await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({ title: 'T', logoUrl: 'javascript:alert(1)', monitors: [], agents: [] })
      .expect(400);
    expect(badLogo.body.message).toBe('Logo URL must be an http(s) address, a path on this server or a data: image');
    await api().post('/api/status/config').set(member.auth).send({ title: 'T', monitors: 'all', agents: [] }).expect(400);

    const saved = await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({
        title: 'Acme status',
        description: 'All our services',
        logoUrl: 'https://example.com/logo.png',
        customCss: 'h1{color:red}',
        monitors: [shown, 0, -1, 'NaN', 999999],
        agents: [shownAgent],
      })
      .expect(200);
    expect(saved.body).toEqual({ success: true, message: 'Status page configuration saved' });
    const { body: config } = await api().get('/api/status/config').set(member.auth).expect(200);
    expect(config.config).toMatchObject({
      title: 'Acme status',
      description: 'All our services',
      logoUrl: 'https://example.com/logo.png',
      customCss: 'h1{color:red}',
      showResources: true,
    });
    expect(config.config.monitors.filter((m: { selected: boolean }) => m.selected).map((m: { id: number }) => m.id)).toEqual([shown]);
    expect(config.config.agents.filter((a: { selected: boolean }) => a.selected).map((a: { id: number }) => a.id)).toEqual([shownAgent]);

    const { body, text } = await api().get('/api/status/data').expect(200);
    expect(body.data).toMatchObject({
      title: 'Acme status',
      description: 'All our services',
      customCss: '.vigil-status-page h1 {\n  color:red\n}',
      overall: 'degraded',
    });
    expect(body.data.monitors).toEqual([
      expect.objectContaining({
        id: shown,
        name: 'shown',
        status: 'up',
        uptime: 100,
        response_time: expect.any(Number),
        history: expect.arrayContaining([expect.objectContaining({ status: 'up' })]),
      }),
    ]);
    expect(body.data.agents).toEqual([
      expect.objectContaining({
        id: shownAgent,
        name: 'shown-host',
        status: 'connecting',
        hostname: 'shown-host',
        ip_address: '198.51.100.7',
      }),
    ]);
    for (const secret of ['s3cr3t', 'hidden-header', target.url, 'hidden-host', `"id":${hidden}`, 'credential', 'token', 'url']) {
      expect(text).not.toContain(secret);
    }
  });

  it('derives the overall status and pushes a monitor going down to anonymous visitors', async () => {
    const a = await monitor('overall-a');
    const b = await monitor('overall-b');
    await Promise.all([check(a), check(b)]);
    await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({ title: 'Live', monitors: [a, b], agents: [] })
      .expect(200);
    expect((await api().get('/api/status/data').expect(200)).body.data.overall).toBe('operational');

    const visitor = await socket({}, 'status');
    const pushed = new Promise<StatusItemEvent>((resolve) =>
      visitor.on('status.item', (event) => event.monitor?.id === a && event.monitor.status === 'down' && resolve(event)),
    );
    target.respond(500);
    const changedAt = Date.now();
    await api().post(`/api/monitors/${a}/check`).set(member.auth);
    const event = await pushed;
    expect(Date.now() - changedAt).toBeLessThan(2000);
    expect(event.overall).toBe('outage');
    expect(JSON.stringify(event)).not.toContain(target.url);
    expect((await api().get('/api/status/data').expect(200)).body.data.overall).toBe('outage');

    // A paused monitor says nothing about health: it stays on the page, marked, and out of the overall status.
    await api().post(`/api/monitors/${a}/pause`).set(member.auth).expect(200);
    const { body } = await api().get('/api/status/data').expect(200);
    expect(body.data.overall).toBe('operational');
    expect(body.data.monitors.find((m: { id: number }) => m.id === a)).toMatchObject({ active: false });
  });

  it('serves an SVG badge for monitors on the page only', async () => {
    const shown = await monitor('badge<&>');
    const hidden = await monitor('badge-hidden');
    await check(shown);
    await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({ title: 'Badges', monitors: [shown], agents: [] })
      .expect(200);
    const res = await api().get(`/api/status/badge/${shown}.svg`).expect(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = res.body.toString();
    expect(svg).toContain('badge&#60;&#38;&#62;');
    expect(svg).toContain('up 100.00%');
    await api().get(`/api/status/badge/${hidden}.svg`).expect(404);
    await api().get('/api/status/badge/abc.svg').expect(404);
  });

  it('opens the wall with a revocable display key that grants nothing else', async () => {
    await api().post('/api/wall/keys').set(member.auth).send({ name: 'NOC' }).expect(403);
    await api().post('/api/wall/keys').set(admin.auth).send({ name: ' ' }).expect(400);
    const { body: created } = await api().post('/api/wall/keys').set(admin.auth).send({ name: 'NOC screen' }).expect(201);
    expect(created).toMatchObject({ success: true, key: { name: 'NOC screen' }, secret: expect.stringMatching(/^vgd_/) });
    const { body: keys } = await api().get('/api/wall/keys').set(admin.auth).expect(200);
    expect(JSON.stringify(keys)).not.toContain(created.secret);

    await api().get('/api/wall/data').expect(401);
    await api().get('/api/wall/data?key=vgd_wrong').expect(401);
    const { body: wall, text } = await api().get(`/api/wall/data?key=${created.secret}`).expect(200);
    expect(wall.data.monitors.length).toBeGreaterThan(0);
    // Problems first, paused monitors last.
    const ranks = wall.data.monitors.map((m: { status: string; active: boolean }) =>
      !m.active ? 3 : m.status === 'down' ? 0 : m.status === 'pending' ? 1 : 2,
    );
    expect(ranks).toContain(3);
    expect(ranks).toEqual([...ranks].sort());
    expect(text).not.toContain('s3cr3t');
    await api().get('/api/wall/data').set('X-Display-Key', created.secret).expect(200);
    await api().get('/api/wall/data').set(member.auth).expect(200);
    // The key is not a session.
    await api().get('/api/monitors').set('Authorization', `Bearer ${created.secret}`).expect(401);

    const screen = await socket({ displayKey: created.secret }, 'wall');
    expect(await screen.timeout(5000).emitWithAck('subscribe', 'monitors' as never)).toMatchObject({ ok: false });
    expect(await screen.timeout(5000).emitWithAck('subscribe', 'monitor:1' as never)).toMatchObject({ ok: false });
    const change = new Promise<string>((resolve) =>
      screen.on('wall.change', (event) => event.name === 'wall-watched' && event.status === 'down' && resolve(event.status)),
    );
    const id = await monitor('wall-watched');
    target.respond(500);
    await api().post(`/api/monitors/${id}/check`).set(member.auth);
    expect(await change).toBe('down');

    const dropped = new Promise<void>((resolve) => screen.on('disconnect', () => resolve()));
    await api().delete(`/api/wall/keys/${created.key.id}`).set(admin.auth).expect(200);
    await dropped;
    await api().get(`/api/wall/data?key=${created.secret}`).expect(401);
    await api().delete(`/api/wall/keys/${created.key.id}`).set(admin.auth).expect(404);
  });

  it('summarises the dashboard: counts, uptime, response time and the feed of changes', async () => {
    await api().get('/api/dashboard').expect(401);
    const { body } = await api().get('/api/dashboard').set(member.auth).expect(200);
    expect(body.dashboard.monitors.total).toBeGreaterThan(0);
    expect(body.dashboard.agents.total).toBeGreaterThan(0);
    expect(body.dashboard.uptime).toEqual(expect.any(Number));
    expect(body.dashboard.avg_response_time).toEqual(expect.any(Number));
    expect(body.dashboard.recent_changes.length).toBeGreaterThan(0);
    expect(body.dashboard.recent_changes[0]).toMatchObject({ kind: 'monitor', status: expect.any(String), previous: expect.any(String) });
  });
});
