import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, MonitorDto, MonitorStatusChangedEvent, ServerToClientEvents } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { freePort } from '../support/ports';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

describe('monitors API and check engine', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let target: TargetServer;

  beforeAll(async () => {
    [app, target] = await Promise.all([startTestApp({ env: USERS_REACH_LOOPBACK }), startTargetServer()]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);

  afterEach(() => target.respond(200));

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    const { body: response } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name: 'target', url: target.url, ...body })
      .expect(201);
    return response.monitor;
  }

  /** Creates a monitor and waits for the check that creation starts, so later steps are not raced by it. */
  async function createChecked(body: Record<string, unknown>): Promise<MonitorDto> {
    const monitor = await create(body);
    for (let i = 0; i < 100; i += 1) {
      const { body: read } = await api().get(`/api/monitors/${monitor.id}`).set(member.auth).expect(200);
      // The row and its checks are read by separate queries: wait until both show the stored check.
      if (read.monitor.checks.length > 0 && read.monitor.last_checked !== null) return read.monitor;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the check started on creation never arrived');
  }

  async function check(id: number) {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200);
    return body;
  }

  it('needs a signed-in user', async () => {
    await api().get('/api/monitors').expect(401);
    await api().post('/api/monitors').send({ name: 'x', url: target.url }).expect(401);
  });

  it.each([
    [{ url: 'http://127.0.0.1' }, 'Monitor name is required'],
    [{ name: 'x' }, 'URL is required'],
    [{ name: 'x', url: 'ftp://host' }, 'URL must start with http:// or https://'],
    [{ name: 'x', url: 'http://h', method: 'TRACE' }, 'Method must be one of GET, POST, PUT, PATCH, DELETE, HEAD'],
    [{ name: 'x', url: 'http://h', interval: 5 }, 'Interval must be a whole number of seconds, at least 10'],
    [{ name: 'x', url: 'http://h', interval: 'abc' }, 'Interval must be a whole number of seconds, at least 10'],
    [{ name: 'x', url: 'http://h', timeout: 0 }, 'Timeout must be at least 1 second and shorter than the interval'],
    [{ name: 'x', url: 'http://h', interval: 60, timeout: 60 }, 'Timeout must be at least 1 second and shorter than the interval'],
    [
      { name: 'x', url: 'http://h', expectedStatus: 6 },
      'Expected status must be 2 to 5 for a class, or an HTTP status code from 100 to 599',
    ],
    [{ name: 'x', url: 'http://h', headers: '{not json' }, 'Headers must be an object of names to text values, or that object as JSON'],
    [{ name: 'x', url: 'http://h', headers: { 'X-A': 5 } }, 'Headers must be an object of names to text values, or that object as JSON'],
    [{ name: 'x', url: 'http://h', retries: 11 }, 'Retries must be a whole number from 0 to 10'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const { body: response } = await api().post('/api/monitors').set(member.auth).send(body).expect(400);
    expect(response).toMatchObject({ success: false, message });
  });

  it('creates a monitor, checks it at once and reads every spec field', async () => {
    const monitor = await create({ name: 'home', method: 'get', headers: '{"X-Probe":"1"}' });
    expect(monitor).toMatchObject({
      name: 'home',
      method: 'GET',
      interval: 60,
      timeout: 30,
      expected_status: 200,
      headers: { 'X-Probe': '1' },
      active: true,
      retries: 1,
      retry_interval: 20,
    });
    let read: MonitorDto = monitor;
    for (let i = 0; i < 50 && read.status !== 'up'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      read = (await api().get(`/api/monitors/${monitor.id}`).set(member.auth).expect(200)).body.monitor;
    }
    expect(read.status).toBe('up');
    expect(read.uptime).toBe(100);
    expect(read.last_checked).not.toBeNull();
    expect(read.response_time).toEqual(expect.any(Number));
    expect(read.history[0]).toEqual({ status: 'up', timestamp: expect.any(String) });
    expect(read.checks[0]).toEqual({
      id: expect.any(Number),
      status: 'up',
      status_code: 200,
      response_time: expect.any(Number),
      error: null,
      checked_at: expect.any(String),
    });
  });

  it('moves up → pending → down on failures, and back up on one success', async () => {
    const monitor = await createChecked({ name: 'flaky', url: `${target.url}/flaky`, retries: 1 });
    expect((await check(monitor.id)).monitor.status).toBe('up');
    target.respond(500);
    const first = await check(monitor.id);
    expect(first.check).toMatchObject({ status: 'down', status_code: 500, error: 'Unexpected status 500 (expected 200)' });
    expect(first.monitor.status).toBe('pending');
    expect((await check(monitor.id)).monitor.status).toBe('down');
    expect((await check(monitor.id)).monitor.status).toBe('down');
    target.respond(200);
    expect((await check(monitor.id)).monitor.status).toBe('up');
  });

  it('runs a check-now asked during a running check right after it, never beside it', async () => {
    const monitor = await createChecked({ name: 'busy', url: `${target.url}/busy`, retries: 1 });
    const before = target.countFor('/busy');
    target.respondFor('/busy', 500, 1500);
    // Started now (a supertest request is sent when it is awaited).
    const first = check(monitor.id);
    for (let i = 0; i < 50 && target.countFor('/busy') === before; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await check(monitor.id);
    expect((await first).monitor.status).toBe('pending');
    // Two failures one after the other: down, and the second request reached the target only once the first was answered.
    expect(second.monitor.status).toBe('down');
    const [a, b] = target.received.filter((r) => r.path === '/busy').slice(-2);
    expect(target.countFor('/busy')).toBe(before + 2);
    expect(b.at - a.at).toBeGreaterThanOrEqual(1400);
  });

  it('accepts any 2xx when the expected status is the class 2', async () => {
    const monitor = await create({ url: `${target.url}/no-content`, expectedStatus: 2 });
    const result = await check(monitor.id);
    expect(result.check).toMatchObject({ status: 'up', status_code: 204 });
  });

  it('follows redirects up to 5 and fails past that', async () => {
    const ok = await create({ url: `${target.url}/redirect/3` });
    expect((await check(ok.id)).check).toMatchObject({ status: 'up', status_code: 200 });
    const tooMany = await create({ url: `${target.url}/redirect/7` });
    const result = await check(tooMany.id);
    expect(result.check.status).toBe('down');
    expect(result.check.error).toMatch(/redirect/i);
  });

  it('enforces the timeout with a clear error', async () => {
    const monitor = await create({ url: `${target.url}/slow`, timeout: 1 });
    target.respond(200, 2500);
    const result = await check(monitor.id);
    target.respond(200);
    expect(result.check).toMatchObject({ status: 'down', status_code: null, error: 'Timeout after 1 s' });
  });

  it('reports a refused connection, a DNS failure and a TLS failure clearly', async () => {
    const closedPort = await freePort();
    const refused = await create({ url: `http://127.0.0.1:${closedPort}/` });
    expect((await check(refused.id)).check.error).toBe('Connection refused');
    const dns = await create({ url: 'http://vigil-test-host.invalid/' });
    expect((await check(dns.id)).check.error).toBe('DNS lookup failed: host not found');
    // TLS spoken to a plain HTTP port fails the handshake.
    const tls = await create({ url: `https://127.0.0.1:${target.port}/` });
    expect((await check(tls.id)).check.error).toMatch(/^TLS error: /);
  });

  it('sends the configured method, headers and body (body only for POST, PUT, PATCH)', async () => {
    const post = await create({
      url: `${target.url}/echo`,
      method: 'POST',
      headers: { 'X-Token': 'abc', 'Content-Type': 'application/json' },
      body: '{"ping":true}',
    });
    await check(post.id);
    const received = target.received.filter((r) => r.path === '/echo').at(-1)!;
    expect(received).toMatchObject({ method: 'POST', body: '{"ping":true}' });
    expect(received.headers['x-token']).toBe('abc');

    const get = await create({ url: `${target.url}/echo-get`, method: 'GET', body: 'ignored' });
    await check(get.id);
    expect(target.received.filter((r) => r.path === '/echo-get').at(-1)).toMatchObject({ method: 'GET', body: '' });
  });

  it('pauses (no more checks) and resumes (checked at once)', async () => {
    const monitor = await create({ url: `${target.url}/paused` });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { body: paused } = await api().post(`/api/monitors/${monitor.id}/pause`).set(member.auth).expect(200);
    expect(paused.monitor.active).toBe(false);
    const before = target.countFor('/paused');
    const { body: list } = await api().get('/api/monitors?filter=paused').set(member.auth).expect(200);
    expect(list.monitors.map((m: MonitorDto) => m.id)).toContain(monitor.id);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(target.countFor('/paused')).toBe(before);
    await api().post(`/api/monitors/${monitor.id}/resume`).set(member.auth).expect(200);
    for (let i = 0; i < 30 && target.countFor('/paused') === before; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(target.countFor('/paused')).toBe(before + 1);
  });

  it('updates, reads stats and pages checks; unknown and invalid ids answer 404 and 400', async () => {
    const monitor = await create({ name: 'before' });
    const { body } = await api().put(`/api/monitors/${monitor.id}`).set(member.auth).send({ name: 'after', interval: 120 }).expect(200);
    expect(body.monitor).toMatchObject({ name: 'after', interval: 120 });
    await check(monitor.id);
    const { body: stats } = await api().get(`/api/monitors/${monitor.id}/stats?range=24h`).set(member.auth).expect(200);
    expect(stats.stats).toMatchObject({ range: '24h', uptime: expect.any(Number), checks: expect.any(Number) });
    expect(stats.stats.series.length).toBeGreaterThan(0);
    await api().get(`/api/monitors/${monitor.id}/stats?range=1y`).set(member.auth).expect(400);
    const { body: checks } = await api().get(`/api/monitors/${monitor.id}/checks?page=1&pageSize=1`).set(member.auth).expect(200);
    expect(checks).toMatchObject({ page: 1, pageSize: 1 });
    expect(checks.checks).toHaveLength(1);

    const missing = await api().get('/api/monitors/999999').set(member.auth).expect(404);
    expect(missing.body.message).toBe('Monitor does not exist');
    await api().put('/api/monitors/999999').set(member.auth).send({ name: 'x' }).expect(404);
    // Issue 16: a word under /api/monitors/ is a path that is not a route (404), no longer 'invalid id'.
    await api().delete('/api/monitors/abc').set(member.auth).expect(404);
    await api().delete('/api/monitors/0').set(member.auth).expect(400);
    await api().delete(`/api/monitors/${monitor.id}`).set(member.auth).expect(200);
    await api().get(`/api/monitors/${monitor.id}`).set(member.auth).expect(404);
  });

  it('lists every monitor with counts, or a page of them', async () => {
    const { body: all } = await api().get('/api/monitors').set(member.auth).expect(200);
    expect(all.monitors.length).toBe(all.total);
    expect(all.counts.total).toBe(all.total);
    const { body: page } = await api().get('/api/monitors?page=1&pageSize=2').set(member.auth).expect(200);
    expect(page.monitors).toHaveLength(2);
    expect(page.total).toBe(all.total);
  });

  it('exposes scheduler and storage figures to admins only', async () => {
    await api().get('/api/metrics').set(member.auth).expect(403);
    const { text } = await api().get('/api/metrics').set(admin.auth).expect(200);
    expect(Number(/vigil_checks_started_total (\d+)/.exec(text)?.[1])).toBeGreaterThan(0);
    expect(Number(/vigil_check_rows_written_total (\d+)/.exec(text)?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(/vigil_check_lateness_p99_ms \d/);
  });

  it('raises exactly one status change per transition, even when manual checks overlap', async () => {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(app.url, {
      auth: { token: member.token },
      transports: ['websocket'],
      forceNew: true,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const monitor = await createChecked({ url: `${target.url}/overlap`, retries: 0 });
      await socket.timeout(5000).emitWithAck('subscribe', `monitor:${monitor.id}`);
      expect(monitor.status).toBe('up');
      const changes: MonitorStatusChangedEvent[] = [];
      socket.on('monitor.status_changed', (event) => event.monitorId === monitor.id && changes.push(event));
      target.respond(503);
      await Promise.all(Array.from({ length: 6 }, () => check(monitor.id)));
      await new Promise((resolve) => setTimeout(resolve, 500));
      target.respond(200);
      expect(changes.map((c) => [c.previous, c.status])).toEqual([['up', 'down']]);
    } finally {
      socket.disconnect();
    }
  });
});

describe('monitor state across a restart', () => {
  it('keeps status and retry count, and resumes on the old rhythm', async () => {
    const [app, target] = await Promise.all([startTestApp({ env: USERS_REACH_LOOPBACK }), startTargetServer()]);
    try {
      const admin = await registerFirstAdmin(app.url);
      const { body } = await request(app.url)
        .post('/api/monitors')
        .set(admin.auth)
        .send({ name: 'r', url: target.url, retries: 3 })
        .expect(201);
      const id = body.monitor.id;
      await new Promise((resolve) => setTimeout(resolve, 500));
      target.respond(500);
      await request(app.url).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
      const { body: pending } = await request(app.url).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
      expect(pending.monitor.status).toBe('pending');

      await app.restart();
      const countAfterRestart = target.received.length;
      // Two more failures reach the 3 retries only if the count of 2 survived the restart.
      await request(app.url).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
      const { body: after } = await request(app.url).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
      expect(after.monitor.status).toBe('down');
      // Its retry is due ~20 s after the last failure and its regular check a minute after creation: nothing fires at boot.
      expect(target.received.length).toBe(countAfterRestart + 2);
    } finally {
      await app.destroy();
      await target.close();
    }
  });
});
