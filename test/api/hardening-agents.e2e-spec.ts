import request from 'supertest';
import { Client } from 'pg';
import { io } from 'socket.io-client';
import { AGENT_PROTOCOL_VERSION, type AgentAck, type AgentDto, type AgentReport } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 14, findings 1 and 4: one agent must not be able to poison the storage every agent shares, nor flood the
 * server. Run against the real server process, on the embedded database or TEST_DATABASE_URL's PostgreSQL.
 */

const EIB = 2 ** 60;
/** The report that overflowed the bigint disk sum and made the whole shared batch fail. */
const poisoned = () =>
  agentReport({ disks: Array.from({ length: 64 }, (_, i) => ({ mount: `/d${i}`, fs: 'ext4', total: EIB, used: EIB })) });

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xugou = require('../fixtures/xugou-agent.json');
const xugouStatus = (token: string, hostname: string, extra: Record<string, unknown> = {}) => ({
  ...xugou.status[0],
  token,
  hostname,
  timestamp: new Date().toISOString(),
  report_interval_seconds: 60,
  ...extra,
});

const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);

/** Answers `emit` with its ack, or with null when none came in time (the socket was dropped). */
function answer(socket: AgentSocket, event: 'report' | 'backlog', payload: AgentReport | AgentReport[]): Promise<AgentAck | null> {
  return (socket.timeout(5_000) as unknown as { emitWithAck: (e: string, p: unknown) => Promise<AgentAck> })
    .emitWithAck(event, payload)
    .catch(() => null);
}

describe('hardening: agent reports', () => {
  let app: TestApp;
  let admin: Session;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { AGENT_GRACE_SECONDS: '2' } });
    admin = await registerFirstAdmin(app.url);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const api = () => request(app.url);
  const getAgent = async (id: number): Promise<AgentDto> => (await api().get(`/api/agents/${id}`).set(admin.auth).expect(200)).body.agent;
  const agentByHost = async (hostname: string): Promise<AgentDto> =>
    (await api().get(`/api/agents?search=${hostname}`).set(admin.auth).expect(200)).body.agents[0];
  async function agent(hostname: string): Promise<{ id: number; socket: AgentSocket }> {
    const { agentId, credential } = await enrollAgent(app.url, admin, hostname);
    const socket = await connectAgent(app.url, credential, hostname);
    sockets.push(socket);
    return { id: agentId, socket };
  }
  async function newToken(): Promise<string> {
    return (await api().post('/api/agents/token/generate').set(admin.auth).expect(200)).body.token;
  }

  it('refuses 64 disks of 2^60 bytes over the socket and over POST /api/agents/status, and a healthy agent keeps its data', async () => {
    const healthy = await agent('healthy-1');
    const attacker = await agent('poison-1');
    // A registration token enrols one host (issue 27): one each.
    const [token, poisonToken] = [await newToken(), await newToken()];
    await api().post('/api/agents/status').send(xugouStatus(token, 'xugou-healthy-1')).expect(200);
    await api().post('/api/agents/status').send(xugouStatus(poisonToken, 'xugou-poison-1')).expect(200);

    // All in the same storage window.
    const [refused, accepted, refusedHttp, acceptedHttp] = await Promise.all([
      answer(attacker.socket, 'report', poisoned()),
      answer(healthy.socket, 'report', agentReport({ cpu: 42 })),
      api()
        .post('/api/agents/status')
        .send(xugouStatus(poisonToken, 'xugou-poison-1', { disks: Array(64).fill({ mount_point: '/', total: EIB, used: EIB }) })),
      api()
        .post('/api/agents/status')
        .send(xugouStatus(token, 'xugou-healthy-1', { cpu: { usage: 43, cores: 2 } })),
    ]);
    expect(refused).toEqual({
      ok: false,
      code: 'agent.messageInvalid',
      message: `Invalid agent message: report.disks must add up to at most ${EIB} bytes in total`,
    });
    expect(accepted).toEqual({ ok: true });
    expect(refusedHttp.status).toBe(400);
    expect(refusedHttp.body).toEqual({
      success: false,
      code: 'agent.messageInvalid',
      message: `Invalid agent message: body.disks must add up to at most ${EIB} bytes in total`,
    });
    expect(acceptedHttp.status).toBe(200);

    const stored = await waitFor(
      () => getAgent(healthy.id),
      (a) => a.cpu_usage === 42,
    );
    expect(stored.status).toBe('active');
    const xugouHealthy = await waitFor(
      () => agentByHost('xugou-healthy-1'),
      (a) => a.cpu_usage === 43,
    );
    expect(xugouHealthy.status).toBe('active');
    const { body } = await api().get(`/api/agents/${healthy.id}/metrics?range=1h`).set(admin.auth).expect(200);
    expect(body.metrics.points.length).toBeGreaterThan(0);
    // Nothing of the refused reports was kept.
    expect((await getAgent(attacker.id)).disk_total).toBeNull();
    expect((await agentByHost('xugou-poison-1')).disk_total).toBe(52589998080 + 129718272);
    const metrics = (await api().get('/api/metrics').set(admin.auth).expect(200)).text;
    expect(metric(metrics, 'vigil_agent_report_batches_failed_total')).toBe(0);
  });

  it('refuses one credential flooding reports beyond its rate, counts it, stays responsive, and leaves a normal agent alone', async () => {
    const normal = await agent('normal-1');
    const flooder = await agent('flood-1');
    const before = metric((await api().get('/api/metrics').set(admin.auth).expect(200)).text, 'vigil_agent_messages_rate_limited_total');

    const flood = Promise.all(Array.from({ length: 300 }, () => answer(flooder.socket, 'report', agentReport())));
    const health: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const started = Date.now();
      await api().get('/api/health').expect(200);
      health.push(Date.now() - started);
    }
    const answers = await flood;
    const ok = answers.filter((a) => a?.ok).length;
    const limited = answers.filter((a): a is Extract<AgentAck, { ok: false }> => a !== null && !a.ok);
    // The live burst (20, the hello took one) and at most one refill in the meantime.
    expect(ok).toBeGreaterThanOrEqual(15);
    expect(ok).toBeLessThanOrEqual(21);
    expect(limited.length).toBeGreaterThanOrEqual(20);
    for (const refusal of limited) {
      expect(refusal).toEqual({
        ok: false,
        code: 'agent.rateLimited',
        message: 'This agent is sending reports faster than its interval allows; slow down',
        retry_after: expect.any(Number),
      });
      expect(refusal.retry_after).toBeGreaterThan(0);
    }
    expect(Math.max(...health)).toBeLessThan(1_500);

    const metrics = (await api().get('/api/metrics').set(admin.auth).expect(200)).text;
    expect(metric(metrics, 'vigil_agent_messages_rate_limited_total') - before).toBeGreaterThanOrEqual(limited.length);

    expect(await answer(normal.socket, 'report', agentReport({ cpu: 12 }))).toEqual({ ok: true });
    const stored = await waitFor(
      () => getAgent(normal.id),
      (a) => a.cpu_usage === 12,
    );
    expect(stored.status).toBe('active');

    // A backlog over the budget is refused whole, and a buffered backlog of a day still fits.
    const now = Date.now();
    const day = Array.from({ length: 100 }, (_, i) => agentReport({ timestamp: now - (100 - i) * 60_000 }));
    expect(await answer(normal.socket, 'backlog', day)).toEqual({ ok: true });
  });

  it('refuses a credential reconnecting in a loop beyond its rate', async () => {
    const { credential } = await enrollAgent(app.url, admin, 'reconnect-1');
    const outcomes: Array<string> = [];
    for (let i = 0; i < 30; i += 1) {
      const socket: AgentSocket = io(`${app.url}/agent`, {
        auth: { protocol: AGENT_PROTOCOL_VERSION, credential },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      outcomes.push(
        await new Promise<string>((resolve) => {
          socket.once('connect', () => resolve('connected'));
          socket.once('connect_error', (error: Error & { data?: { code?: string; retry_after?: number } }) =>
            resolve(error.data?.retry_after ? String(error.data.code) : `unexpected: ${error.message}`),
          );
        }),
      );
      socket.disconnect();
    }
    expect(outcomes.filter((o) => o === 'connected').length).toBeLessThanOrEqual(21);
    expect(outcomes.filter((o) => o === 'agent.rateLimited').length).toBeGreaterThanOrEqual(9);
    expect(outcomes.every((o) => o === 'connected' || o === 'agent.rateLimited')).toBe(true);
  });

  it('answers a xugou token and host flooding POST /api/agents/status with 429 beyond its rate, other hosts unaffected', async () => {
    const token = await newToken();
    await api().post('/api/agents/status').send(xugouStatus(token, 'xugou-flood-1')).expect(200);
    const before = metric((await api().get('/api/metrics').set(admin.auth).expect(200)).text, 'vigil_agent_messages_rate_limited_total');
    const responses = [];
    for (let i = 0; i < 40; i += 1) responses.push(await api().post('/api/agents/status').send(xugouStatus(token, 'xugou-flood-1')));
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.filter((r) => r.status === 200).length).toBeLessThanOrEqual(20);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(refused.length + responses.filter((r) => r.status === 200).length).toBe(40);
    for (const response of refused) {
      expect(response.body).toEqual({
        success: false,
        code: 'agent.rateLimited',
        message: 'This agent is sending reports faster than its interval allows; slow down',
      });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    const metrics = (await api().get('/api/metrics').set(admin.auth).expect(200)).text;
    expect(metric(metrics, 'vigil_agent_messages_rate_limited_total') - before).toBe(refused.length);
    await api()
      .post('/api/agents/status')
      .send(xugouStatus(await newToken(), 'xugou-calm-1'))
      .expect(200);
    await api().get('/api/health').expect(200);
  });
});

/**
 * The bounds now refuse every overflow, so a row the database rejects is made by the database itself: a trigger
 * refuses one agent's or one monitor's rows. The rows stored in the same batch must survive it.
 */
describe('hardening: a row the database refuses costs no other row of its batch', () => {
  let app: TestApp;
  let admin: Session;
  let db: Client;
  let target: TargetServer;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    target = await startTargetServer();
    app = await startTestApp({ databaseMode: 'url', env: { AGENT_GRACE_SECONDS: '2' } });
    admin = await registerFirstAdmin(app.url);
    db = new Client({ connectionString: app.database.url! });
    await db.connect();
    await db.query(`
      CREATE FUNCTION vigil_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_ARGV[0] = 'slow' THEN PERFORM pg_sleep(3); RETURN NEW; END IF;
        RAISE EXCEPTION 'refused by the test';
      END $$`);
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await db?.end();
    await target?.close();
    await app?.destroy();
  });

  const api = () => request(app.url);
  const metrics = async () => (await api().get('/api/metrics').set(admin.auth).expect(200)).text;
  const getAgent = async (id: number): Promise<AgentDto> => (await api().get(`/api/agents/${id}`).set(admin.auth).expect(200)).body.agent;

  it('stores the other agents’ reports of a batch when one agent’s row is refused, and the agent stays active', async () => {
    const enrolled = await Promise.all(['good-a', 'bad-a', 'good-b'].map((host) => enrollAgent(app.url, admin, host)));
    const [good, bad, other] = await Promise.all(
      enrolled.map(async ({ agentId, credential }, i) => {
        const socket = await connectAgent(app.url, credential, ['good-a', 'bad-a', 'good-b'][i]);
        sockets.push(socket);
        return { id: agentId, socket };
      }),
    );
    // Storing a report marks the agent active; for this one agent the database refuses it.
    await db.query(`CREATE TRIGGER vigil_test_bad_agent BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (OLD.id = ${bad.id} AND NEW.status = 'active') EXECUTE FUNCTION vigil_test_refuse('refuse')`);
    try {
      const answers = await Promise.all([
        answer(good.socket, 'report', agentReport({ cpu: 21 })),
        answer(bad.socket, 'report', agentReport({ cpu: 22 })),
        answer(other.socket, 'report', agentReport({ cpu: 23 })),
      ]);
      expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
      const stored = await waitFor(
        async () => [await getAgent(good.id), await getAgent(other.id)],
        (a) => a.every((x) => x.cpu_usage !== null),
      );
      expect(stored.map((a) => [a.cpu_usage, a.status])).toEqual([
        [21, 'active'],
        [23, 'active'],
      ]);
      const text = await waitFor(metrics, (t) => metric(t, 'vigil_agent_reports_dropped_total') === 1);
      expect(metric(text, 'vigil_agent_report_batches_failed_total')).toBe(0);
      expect(await getAgent(bad.id)).toMatchObject({ cpu_usage: null, status: 'connecting' });
      expect(app.output()).toMatch(/Dropped 1 of \d+ agent reports the database refused \(agents \d+\): P0001 refused by the test/);
    } finally {
      await db.query(`DROP TRIGGER vigil_test_bad_agent ON agents`);
    }
    // The healthy agents keep reporting into the next batches.
    expect(await answer(good.socket, 'report', agentReport({ cpu: 31 }))).toEqual({ ok: true });
    await waitFor(
      () => getAgent(good.id),
      (a) => a.cpu_usage === 31 && a.status === 'active',
    );
  });

  it('stores the other monitors’ checks of a batch when one monitor’s check is refused', async () => {
    const create = async (name: string, path: string) =>
      (
        await api()
          .post('/api/monitors')
          .set(admin.auth)
          .send({ name, url: `${target.url}${path}`, active: false })
          .expect(201)
      ).body.monitor.id as number;
    const [slow, good, bad] = [await create('slow', '/slow'), await create('good', '/good'), await create('bad', '/bad')];
    // The slow monitor's batch holds the writer for 3 s; the good and bad checks end meanwhile, so they share the next batch.
    target.respondFor('/good', 200, 1_000);
    target.respondFor('/bad', 200, 1_000);
    await db.query(`CREATE TRIGGER vigil_test_slow_check BEFORE INSERT ON monitor_checks FOR EACH ROW
      WHEN (NEW.monitor_id = ${slow}) EXECUTE FUNCTION vigil_test_refuse('slow')`);
    await db.query(`CREATE TRIGGER vigil_test_bad_check BEFORE INSERT ON monitor_checks FOR EACH ROW
      WHEN (NEW.monitor_id = ${bad}) EXECUTE FUNCTION vigil_test_refuse('refuse')`);
    try {
      // Started now (a supertest request is sent when it is awaited).
      const checks = [good, bad].map((id) =>
        api()
          .post(`/api/monitors/${id}/check`)
          .set(admin.auth)
          .then((r) => r),
      );
      await waitFor(
        async () => target.countFor('/good') + target.countFor('/bad'),
        (n) => n === 2,
      );
      const slowCheck = api()
        .post(`/api/monitors/${slow}/check`)
        .set(admin.auth)
        .then((r) => r);
      const [goodAnswer, badAnswer, slowAnswer] = await Promise.all([...checks, slowCheck]);
      expect(slowAnswer.status).toBe(200);
      expect(goodAnswer.status).toBe(200);
      expect(goodAnswer.body.check).toMatchObject({ status: 'up', status_code: 200 });
      expect(badAnswer.status).toBeGreaterThanOrEqual(500);
      expect(badAnswer.body).toMatchObject({ success: false });

      const { body } = await api().get(`/api/monitors/${good}/checks`).set(admin.auth).expect(200);
      expect(body.checks).toHaveLength(1);
      const refused = await api().get(`/api/monitors/${bad}/checks`).set(admin.auth).expect(200);
      expect(refused.body.checks).toHaveLength(0);
      expect(metric(await metrics(), 'vigil_check_results_dropped_total')).toBe(1);
      expect(app.output()).toMatch(/Dropped 1 of [23] check results the database refused \(monitors \d+\): P0001 refused by the test/);
    } finally {
      await db.query(`DROP TRIGGER vigil_test_slow_check ON monitor_checks; DROP TRIGGER vigil_test_bad_check ON monitor_checks`);
    }
  });
});
