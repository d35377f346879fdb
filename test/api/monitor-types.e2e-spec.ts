import { Client } from 'pg';
import request from 'supertest';
import { MESSAGES, SECRET_MASK, type MonitorDto } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { embeddedConnection } from '../support/embedded-cluster';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * What every monitor type shares on the API: per-type bodies and reads, the masked connection string, push monitors
 * (Uptime Kuma's push URLs), `POST /api/monitors/test` and the paths under /api/monitors/ that are not routes.
 */
describe('monitor types API', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let target: TargetServer;
  let db: Client;

  beforeAll(async () => {
    // 127.0.0.2 is loopback too: refusing it shows the test check obeys OUTBOUND_DENY while the target stays reachable.
    [app, target] = await Promise.all([
      startTestApp({ env: { ...USERS_REACH_LOOPBACK, OUTBOUND_DENY: '127.0.0.2/32' } }),
      startTargetServer(),
    ]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    db = new Client(app.database.url ? { connectionString: app.database.url } : embeddedConnection(app.database.dataDir));
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    const { body: response } = await api().post('/api/monitors').set(member.auth).send(body).expect(201);
    return response.monitor;
  }
  const read = async (id: number): Promise<MonitorDto> =>
    (await api().get(`/api/monitors/${id}`).set(member.auth).expect(200)).body.monitor;

  describe('types', () => {
    it('reads an http monitor created as before with the type fields', async () => {
      const monitor = await create({ name: 'site', url: target.url, expected_status: 2 });
      expect(monitor).toMatchObject({
        type: 'http',
        // Reads show the URL as the WHATWG parser writes it, as before monitor types.
        url: `${target.url}/`,
        expected_status: 2,
        max_redirects: 5,
        ignore_tls: false,
        assertions: [],
        cert_expiry_days: [14],
        push_token: null,
        connection_string: null,
        certificate: null,
      });
    });

    it('keeps a readable target for types without a url, and filters the list by type', async () => {
      const tcp = await create({ name: 'tcp', type: 'tcp', hostname: '127.0.0.1', port: target.port });
      expect(tcp).toMatchObject({ type: 'tcp', url: `tcp://127.0.0.1:${target.port}`, hostname: '127.0.0.1', port: target.port });
      const dns = await create({ name: 'dns', type: 'dns', hostname: 'example.com', dnsRecordType: 'mx', dnsServer: '127.0.0.1:5353' });
      expect(dns).toMatchObject({ url: 'dns://example.com?type=MX', dns_record_type: 'MX', dns_server: '127.0.0.1:5353' });
      const { body } = await api().get('/api/monitors?type=tcp').set(member.auth).expect(200);
      expect(body.monitors.map((m: MonitorDto) => m.type)).toEqual(['tcp']);
      const search = await api().get('/api/monitors?search=example.com').set(member.auth).expect(200);
      expect(search.body.monitors.map((m: MonitorDto) => m.id)).toContain(dns.id);
    });

    it.each([
      [{ name: 'x', type: 'tcp', hostname: 'db' }, 'monitors.portInvalid'],
      [{ name: 'x', type: 'ping' }, 'monitors.hostnameRequired'],
      [{ name: 'x', type: 'websocket', url: 'http://h' }, 'monitors.websocketUrlInvalid'],
      [{ name: 'x', type: 'mysql', connectionString: 'postgres://db/x' }, 'monitors.connectionStringInvalid'],
      [{ name: 'x', type: 'postgres', connectionString: 'postgres://db/x?sslrootcert=/etc/passwd' }, 'monitors.connectionStringUnusable'],
      [{ name: 'x', type: 'redis', connectionString: 'redis://127.0.0.1/cache' }, 'monitors.connectionStringUnusable'],
      [{ name: 'x', type: 'redis', connectionString: 'redis://127.0.0.1', query: 'FLUSHALL' }, 'monitors.redisCommandNotAllowed'],
      [{ name: 'x', type: 'dns', hostname: 'h', dnsServer: 'a b' }, 'monitors.dnsServerInvalid'],
      [
        { name: 'x', url: 'http://h', assertions: [{ source: 'status', operator: 'matches', value: '(' }] },
        'monitors.assertionPatternInvalid',
      ],
      [{ name: 'x', type: 'quic' }, 'monitors.typeInvalid'],
    ] as const)('refuses %j with 400 and its message', async (body, code) => {
      const { body: response } = await api().post('/api/monitors').set(member.auth).send(body).expect(400);
      expect(response).toEqual({ success: false, message: MESSAGES[code], code });
    });

    it('judges an edited redis command against the stored type', async () => {
      const monitor = await create({ name: 'cache', type: 'redis', connectionString: 'redis://127.0.0.1:6379', query: 'GET k' });
      const { body } = await api().put(`/api/monitors/${monitor.id}`).set(member.auth).send({ query: 'SET k v' }).expect(400);
      expect(body).toEqual({
        success: false,
        message: MESSAGES['monitors.redisCommandNotAllowed'],
        code: 'monitors.redisCommandNotAllowed',
      });
      await api().put(`/api/monitors/${monitor.id}`).set(member.auth).send({ query: 'LLEN jobs' }).expect(200);
    });

    it('needs the new type’s fields to change type, then rebuilds the target', async () => {
      const monitor = await create({ name: 'changing', url: target.url });
      const refused = await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ type: 'tcp', hostname: '127.0.0.1' })
        .expect(400);
      expect(refused.body.code).toBe('monitors.portInvalid');
      const { body } = await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ type: 'tcp', hostname: '127.0.0.1', port: target.port })
        .expect(200);
      expect(body.monitor).toMatchObject({ type: 'tcp', url: `tcp://127.0.0.1:${target.port}`, headers: {} });
    });

    it('masks the connection string in every read and keeps it when the mask comes back, for the same server only', async () => {
      // A port nothing listens on: the machine's 5432 may be Vigil's own database, which no monitor may name.
      const monitor = await create({ name: 'db', type: 'postgres', connectionString: 'postgres://app:s3cret-pw@127.0.0.1:5999/app' });
      expect(monitor).toMatchObject({ url: 'postgres://127.0.0.1:5999', hostname: '127.0.0.1', port: 5999 });
      expect(monitor.connection_string).toBe(`postgres://${SECRET_MASK}@127.0.0.1:5999/app`);
      const list = await api().get('/api/monitors').set(member.auth).expect(200);
      expect(JSON.stringify(list.body)).not.toContain('s3cret-pw');
      expect(JSON.stringify(await read(monitor.id))).not.toContain('s3cret-pw');

      await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ connectionString: monitor.connection_string, query: 'SELECT 2' })
        .expect(200);
      const { rows } = await db.query(`SELECT settings->>'connectionString' AS connection_string FROM monitors WHERE id = $1`, [
        monitor.id,
      ]);
      expect(rows[0].connection_string).toBe('postgres://app:s3cret-pw@127.0.0.1:5999/app');

      const moved = await api()
        .put(`/api/monitors/${monitor.id}`)
        .set(member.auth)
        .send({ connectionString: `postgres://${SECRET_MASK}@192.0.2.1:5432/app` })
        .expect(400);
      expect(moved.body.code).toBe('monitors.connectionStringReenter');
    });
  });

  describe('push monitors', () => {
    let monitor: MonitorDto;
    const push = (query = '', token = monitor.push_token!) => api().get(`/api/push/${token}${query}`);
    const latest = async () => (await read(monitor.id)).checks[0];

    beforeAll(async () => {
      monitor = await create({ name: 'cron', type: 'push', retries: 0 });
    });

    it('gives the monitor a url-safe token and a readable target', () => {
      expect(monitor).toMatchObject({ type: 'push', url: 'push://heartbeat' });
      expect(monitor.push_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    });

    it('marks the monitor up on a push, as Uptime Kuma answers it', async () => {
      const { body } = await push('?status=up&msg=OK&ping=').expect(200);
      expect(body).toEqual({ success: true, message: MESSAGES['push.recorded'], ok: true });
      expect(await read(monitor.id)).toMatchObject({ status: 'up' });
      expect(await latest()).toMatchObject({ status: 'up', error: null, response_time: null });
    });

    it('records status=down with its message and ping, then recovers on the next push (POST too)', async () => {
      await push('?status=down&msg=disk%20full&ping=12.4').expect(200);
      expect(await read(monitor.id)).toMatchObject({ status: 'down' });
      expect(await latest()).toMatchObject({ status: 'down', error: 'disk full', response_time: 12 });
      await api().post(`/api/push/${monitor.push_token}`).expect(200);
      expect(await read(monitor.id)).toMatchObject({ status: 'up' });
    });

    it('goes down when no push came within the interval, and up with the next push', async () => {
      await db.query(`UPDATE monitors SET push_awaited_since = now() - interval '2 minutes' WHERE id = $1`, [monitor.id]);
      const { body } = await api().post(`/api/monitors/${monitor.id}/check`).set(member.auth).expect(200);
      expect(body.check).toMatchObject({ status: 'down', error: 'No push received within 60 s' });
      expect(body.monitor.status).toBe('down');
      await push().expect(200);
      expect(await read(monitor.id)).toMatchObject({ status: 'up' });
      // A push that is not overdue leaves nothing to check by hand.
      const early = await api().post(`/api/monitors/${monitor.id}/check`).set(member.auth).expect(400);
      expect(early.body.code).toBe('monitors.pushNoCheck');
    });

    it('keeps the push URL of a monitor moved from Uptime Kuma, and refuses a token taken', async () => {
      const token = 'KumaToken0123456789abcdefghijKLM';
      const moved = await create({ name: 'from kuma', type: 'push', pushToken: token, retries: 0 });
      expect(moved.push_token).toBe(token);
      await api().get(`/api/push/${token}?status=up&msg=OK&ping=`).expect(200);
      expect(await read(moved.id)).toMatchObject({ status: 'up' });
      const taken = await api().post('/api/monitors').set(member.auth).send({ name: 'twin', type: 'push', pushToken: token }).expect(409);
      expect(taken.body.code).toBe('monitors.pushTokenTaken');
    });

    it.each(['?status=sideways', '?ping=-1', '?ping=abc'])('refuses the query %s with 400', async (query) => {
      const { body } = await push(query).expect(400);
      expect(body.success).toBe(false);
    });

    it('answers a push with the API’s security headers and a request id, whatever the case of its path', async () => {
      const lane = await create({ name: 'lane', type: 'push', retries: 0 });
      const answer = await api().get(`/API/Push/${lane.push_token}/`).expect(200);
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'SAMEORIGIN',
        'content-security-policy': "frame-ancestors 'self'",
        'content-type': 'application/json; charset=utf-8',
      });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(await read(lane.id)).toMatchObject({ status: 'up' });
      const refused = await api().get(`/api/push/${lane.push_token}?status=sideways`).expect(400);
      expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(refused.body).toEqual({ success: false, message: MESSAGES['push.statusInvalid'], code: 'push.statusInvalid' });
    });

    it.each([
      ['DELETE', ''],
      ['GET', '/deeper'],
      ['GET', '/'],
    ])('leaves %s /api/push/{token}%s to the API, which knows no such route (404)', async (method, tail) => {
      const token = method === 'GET' && tail === '/' ? '' : monitor.push_token!;
      const { body } = await api()[method === 'DELETE' ? 'delete' : 'get'](`/api/push/${token}${tail}`).expect(404);
      expect(body).toMatchObject({ success: false, code: 'request.notFound' });
    });

    it('answers an unknown token 404 without telling more', async () => {
      const { body } = await push('', 'not-a-token-of-any-monitor-0000000').expect(404);
      expect(body).toEqual({ success: false, message: MESSAGES['push.notFound'], code: 'push.notFound' });
      await push('', 'x'.repeat(65)).expect(404);
    });

    it('refuses pushes while paused, saying so, and takes them again once resumed', async () => {
      await api().post(`/api/monitors/${monitor.id}/pause`).set(member.auth).expect(200);
      const before = (await read(monitor.id)).checks.length;
      const { body } = await push().expect(404);
      expect(body.message).toBe(MESSAGES['push.paused']);
      expect((await read(monitor.id)).checks.length).toBe(before);
      await api().post(`/api/monitors/${monitor.id}/resume`).set(member.auth).expect(200);
      await push().expect(200);
    });

    it('never shows the token on the status page, the wall or the dashboard', async () => {
      await api()
        .post('/api/status/config')
        .set(member.auth)
        .send({ title: 'S', monitors: [monitor.id], agents: [] })
        .expect(200);
      const pages = await Promise.all([
        api().get('/api/status/data').expect(200),
        api().get('/api/wall/data').set(member.auth).expect(200),
        api().get('/api/dashboard').set(member.auth).expect(200),
      ]);
      expect(JSON.stringify(pages[0].body)).toContain('cron');
      for (const page of pages) expect(JSON.stringify(page.body)).not.toContain(monitor.push_token);
    });

    it('limits pushes per token', async () => {
      let status = 200;
      for (let i = 0; i < 40 && status !== 429; i += 1) status = (await push()).status;
      expect(status).toBe(429);
    });

    it('refuses an address that guesses tokens, after a few misses and before any lookup', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 30 && statuses.at(-1) !== 429; i += 1) {
        statuses.push((await api().get(`/api/push/guess${String(i).padStart(24, '0')}`)).status);
      }
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);
      expect(statuses.length).toBeGreaterThan(15);
    });
  });

  describe('POST /api/monitors/test', () => {
    const test = (body: Record<string, unknown>) => api().post('/api/monitors/test').set(member.auth).send(body);

    it('runs one check with each assertion’s outcome and stores nothing', async () => {
      const before = (await api().get('/api/monitors').set(member.auth).expect(200)).body.total;
      const seen = target.countFor('/tested');
      const { body } = await test({
        name: 'try',
        url: `${target.url}/tested`,
        assertions: [
          { source: 'status', operator: 'eq', value: 200 },
          { source: 'responseTime', operator: 'lt', value: 30_000 },
        ],
      }).expect(200);
      expect(body).toMatchObject({
        success: true,
        message: MESSAGES['monitors.testCompleted'],
        result: { ok: true, status_code: 200, error: null, certificate: null },
      });
      expect(body.result.assertions).toEqual([
        { assertion: { source: 'status', operator: 'eq', value: 200 }, ok: true, actual: '200', error: null },
        expect.objectContaining({ ok: true }),
      ]);
      expect(target.countFor('/tested')).toBe(seen + 1);
      expect((await api().get('/api/monitors').set(member.auth).expect(200)).body.total).toBe(before);
    });

    it('fails on a failing assertion, naming it and the value seen', async () => {
      const { body } = await test({ name: 'try', url: target.url, assertions: [{ source: 'status', operator: 'eq', value: 201 }] }).expect(
        200,
      );
      expect(body.result).toMatchObject({ ok: false, error: 'status eq 201 failed: got 200' });
      expect(body.result.assertions[0]).toMatchObject({ ok: false, actual: '200' });
    });

    it('obeys OUTBOUND_DENY like every check', async () => {
      const { body } = await test({ name: 'try', url: `http://127.0.0.2:${target.port}/` }).expect(400);
      expect(body).toMatchObject({ success: false, code: 'monitors.targetDenied' });
      expect(body.message).toContain('Address 127.0.0.2 is refused by OUTBOUND_DENY');
    });

    it('validates the body as create does and needs a signed-in user', async () => {
      await api().post('/api/monitors/test').send({ name: 'x', url: target.url }).expect(401);
      expect((await test({ name: 'x', type: 'tcp', hostname: 'h' }).expect(400)).body.code).toBe('monitors.portInvalid');
      expect((await test({ name: 'x', type: 'push' }).expect(400)).body.code).toBe('monitors.pushNoCheck');
    });

    it('is rate limited per user', async () => {
      let status = 200;
      // A refused address answers at once, so the loop measures the limit, not the network.
      for (let i = 0; i < 30 && status !== 429; i += 1) status = (await test({ name: 'x', url: 'http://127.0.0.2/' })).status;
      expect(status).toBe(429);
    });
  });

  describe('paths under /api/monitors/ that are not routes', () => {
    it.each([
      ['get', '/api/monitors/test'],
      ['get', '/api/monitors/abc'],
      ['put', '/api/monitors/search'],
      ['delete', '/api/monitors/abc'],
      ['post', '/api/monitors/abc/check'],
    ] as const)('%s %s answers 404', async (method, path) => {
      const { body } = await api()[method](path).set(member.auth).expect(404);
      expect(body).toMatchObject({ success: false, message: MESSAGES['request.notFound'] });
    });

    it.each(['0', '-1', '1.5'])("still answers the malformed id %s with 400 'invalid id'", async (id) => {
      const { body } = await api().get(`/api/monitors/${id}`).set(member.auth).expect(400);
      expect(body.message).toBe('invalid id');
    });
  });

  it('schedules a monitor of another type and runs its checks through the state machine', async () => {
    const monitor = await create({ name: 'pipeline', type: 'tcp', hostname: '127.0.0.1', port: target.port, retries: 0 });
    const checked = await waitFor(
      () => read(monitor.id),
      (m) => m.checks.length > 0 && m.last_checked !== null,
    );
    // No retries: the monitor takes its first check's status at once.
    expect(checked.status).toBe(checked.checks[0].status);
  });
});
