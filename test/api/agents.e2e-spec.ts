import { createHash } from 'node:crypto';
import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import { Client } from 'pg';
import { embeddedConnection } from '../support/embedded-cluster';
import {
  AGENT_PROTOCOL_VERSION,
  AgentDto,
  AgentToServerEvents,
  ClientToServerEvents,
  MESSAGES,
  ServerToAgentEvents,
  ServerToClientEvents,
  SUPPORTED_AGENT_PROTOCOLS,
} from '@vigil/proto';
import { registerFirstAdmin, createUser, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { agentHello, agentReport } from '../factories/agents';

type AgentSocket = Socket<ServerToAgentEvents, AgentToServerEvents>;
type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const GRACE_SECONDS = 2;

const hello = agentHello;
const report = agentReport;

describe('agents: enrolment, socket protocol, xugou compatibility and API', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { AGENT_GRACE_SECONDS: String(GRACE_SECONDS) } });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const api = () => request(app.url);

  async function newToken(session = member): Promise<string> {
    const { body } = await api().post('/api/agents/token/generate').set(session.auth).expect(200);
    return body.token;
  }

  async function enroll(hostname: string, token?: string): Promise<{ agentId: number; credential: string }> {
    const { body } = await api()
      .post('/api/agents/enroll')
      .send({ token: token ?? (await newToken()), hello: hello(hostname) })
      .expect(200);
    return { agentId: body.agent_id, credential: body.credential };
  }

  function agentSocket(auth: Record<string, unknown>): AgentSocket {
    const socket: AgentSocket = io(`${app.url}/agent`, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    return socket;
  }

  function connected(socket: Socket): Promise<void> {
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  }

  async function connectAgent(credential: string, hostname: string): Promise<AgentSocket> {
    const socket = agentSocket({ protocol: AGENT_PROTOCOL_VERSION, credential });
    await connected(socket);
    expect(await socket.timeout(5000).emitWithAck('hello', hello(hostname))).toEqual({ ok: true, interval: 5 });
    return socket;
  }

  async function browser(room: string): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, {
      auth: { token: member.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    await connected(socket);
    expect(await socket.timeout(5000).emitWithAck('subscribe', room as never)).toEqual({ ok: true });
    return socket;
  }

  const getAgent = async (id: number): Promise<AgentDto> => (await api().get(`/api/agents/${id}`).set(member.auth).expect(200)).body.agent;

  it('needs a signed-in user for everything but the agents’ own calls', async () => {
    await api().get('/api/agents').expect(401);
    await api().get('/api/agents/1').expect(401);
    await api().post('/api/agents/token/generate').expect(401);
    await api().put('/api/agents/1').send({ name: 'x' }).expect(401);
    await api().delete('/api/agents/1').expect(401);
    await api().get('/api/agents/1/metrics').expect(401);
  });

  it('issues registration tokens that enrol one host, and refuses bad or expired ones', async () => {
    const { body } = await api().post('/api/agents/token/generate').set(member.auth).expect(200);
    expect(body).toMatchObject({
      success: true,
      token: expect.stringMatching(/^vgr_[\w-]{32}$/),
      token_id: expect.any(Number),
      server_url: null,
    });
    expect(body.message).toMatch(/24 hours/);
    expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    const first = await enroll('multi-a', body.token);
    expect(first.credential).toMatch(/^vga_/);
    expect((await getAgent(first.agentId)).registration_id).toBe(body.token_id);
    // Another host needs a token of its own (issue 27); hardening-docs covers the same host enrolling again.
    const second = await api()
      .post('/api/agents/enroll')
      .send({ token: body.token, hello: hello('multi-b') })
      .expect(409);
    expect(second.body).toEqual({ success: false, message: MESSAGES['agent.tokenUsed'], code: 'agent.tokenUsed' });

    const refused = await api()
      .post('/api/agents/enroll')
      .send({ token: 'vgr_not-a-token', hello: hello('x') })
      .expect(401);
    expect(refused.body).toEqual({ success: false, message: 'Registration token is invalid or has expired', code: 'agent.tokenInvalid' });
    const malformed = await api()
      .post('/api/agents/enroll')
      .send({ token: body.token, hello: { ...hello('x'), hostname: '' } })
      .expect(400);
    expect(malformed.body).toMatchObject({ success: false, message: 'Invalid agent message: hello.hostname is required' });
    await api().post('/api/agents/enroll').send('[1,2').set('Content-Type', 'application/json').expect(400);
  });

  it('streams reports: active with figures, live pushes, chart points', async () => {
    const { agentId, credential } = await enroll('stream-1');
    expect((await getAgent(agentId)).status).toBe('connecting');
    const watcher = await browser('agents');
    const pushed: string[] = [];
    const reported = new Promise<number>((resolve) => {
      watcher.on('agent.reported', (event) => {
        if (event.agentId === agentId) resolve(Date.now());
      });
    });
    const active = new Promise<void>((resolve) => {
      watcher.on('agent.status_changed', (event) => {
        if (event.agentId !== agentId) return;
        pushed.push(`${event.previous}->${event.status}`);
        if (event.status === 'active') resolve();
      });
    });

    const socket = await connectAgent(credential, 'stream-1');
    const sentAt = Date.now();
    expect(await socket.timeout(5000).emitWithAck('report', report())).toEqual({ ok: true });
    expect((await reported) - sentAt).toBeLessThan(1000);
    await active;
    expect(pushed).toEqual(['connecting->active']);

    const agent = await getAgent(agentId);
    expect(agent).toMatchObject({
      status: 'active',
      protocol: 'socket',
      hostname: 'stream-1',
      ip_address: '192.0.2.10',
      os: 'Debian GNU/Linux 12',
      version: '0.1.0',
      cpu_usage: 37.5,
      memory_total: 8 * 1024 ** 3,
      memory_used: 2 * 1024 ** 3,
      disk_total: 100 * 1024 ** 3,
      disk_used: 40 * 1024 ** 3,
      network_rx: 128,
      network_tx: 64,
      load1: 0.5,
      host_uptime: 86_400,
      interval: 5,
    });
    const { body } = await api().get(`/api/agents/${agentId}/metrics?range=1h`).set(member.auth).expect(200);
    expect(body.metrics).toMatchObject({ range: '1h', step: 60 });
    expect(body.metrics.points).toEqual([expect.objectContaining({ cpu: 37.5, memory: 25, disk: 40, rx: 128, tx: 64 })]);
    for (const range of ['24h', '7d', '30d']) {
      const { body: wide } = await api().get(`/api/agents/${agentId}/metrics?range=${range}`).set(member.auth).expect(200);
      expect(wide.metrics.points).toHaveLength(1);
    }
    const badRange = await api().get(`/api/agents/${agentId}/metrics?range=2h`).set(member.auth).expect(400);
    expect(badRange.body.message).toBe('Range must be one of 1h, 24h, 7d, 30d');

    const { body: list } = await api().get('/api/agents?page=1&pageSize=10&status=active').set(member.auth).expect(200);
    expect(list.agents.map((a: AgentDto) => a.id)).toContain(agentId);
    expect(list.counts.active).toBeGreaterThanOrEqual(1);
    const { body: search } = await api().get('/api/agents?search=stream-1').set(member.auth).expect(200);
    expect(search.agents.map((a: AgentDto) => a.hostname)).toEqual(['stream-1']);
  });

  it('refuses garbage with an error, counts it, stores nothing and keeps serving', async () => {
    const { agentId, credential } = await enroll('garbage-1');
    const socket = agentSocket({ protocol: AGENT_PROTOCOL_VERSION, credential });
    await connected(socket);
    expect(await socket.timeout(5000).emitWithAck('report', report())).toMatchObject({ ok: false, code: 'agent.helloRequired' });
    expect(await socket.timeout(5000).emitWithAck('hello', { hostname: 42 } as never)).toMatchObject({
      ok: false,
      code: 'agent.messageInvalid',
    });
    await socket.timeout(5000).emitWithAck('hello', hello('garbage-1'));
    const bad: unknown[] = [
      report({ cpu: 250 }),
      report({ memory_used: 9 * 1024 ** 3 }),
      report({ timestamp: Date.now() - 3 * 86_400_000 }),
      { ...report(), disks: 'all of them' },
      'not even an object',
      null,
    ];
    for (const message of bad) {
      const answer = await socket.timeout(5000).emitWithAck('report', message as never);
      expect(answer).toMatchObject({ ok: false, code: 'agent.messageInvalid', message: expect.stringMatching(/^Invalid agent message: /) });
    }
    const errors: string[] = [];
    socket.on('agent.error', (error) => errors.push(error.code));
    // Without an acknowledgement, as a broken agent might send it: the error comes back as an event.
    (socket as unknown as { emit(event: string, ...args: unknown[]): void }).emit('report', { cpu: 'x' });
    await waitFor(
      async () => errors,
      (e) => e.length === 1,
      5000,
    );
    expect(errors).toEqual(['agent.messageInvalid']);

    const agent = await getAgent(agentId);
    expect(agent.status).toBe('connecting');
    expect(agent.cpu_usage).toBeNull();
    const { body } = await api().get(`/api/agents/${agentId}/metrics?range=1h`).set(member.auth).expect(200);
    expect(body.metrics.points).toEqual([]);
    const { text } = await api().get('/api/metrics').set(admin.auth).expect(200);
    expect(Number(/vigil_agent_messages_rejected_total (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(bad.length + 3);
    await api().get('/api/health').expect(200);
    expect(await socket.timeout(5000).emitWithAck('report', report())).toEqual({ ok: true });
  });

  it('serves an agent speaking the oldest supported protocol version', async () => {
    const { credential } = await enroll('oldest-1');
    const socket = agentSocket({ protocol: SUPPORTED_AGENT_PROTOCOLS.min, credential });
    await connected(socket);
    expect(await socket.timeout(5000).emitWithAck('hello', hello('oldest-1'))).toEqual({ ok: true, interval: 5 });
    expect(await socket.timeout(5000).emitWithAck('report', report())).toEqual({ ok: true });
  });

  it.each([
    ['older', SUPPORTED_AGENT_PROTOCOLS.min - 1],
    ['newer', SUPPORTED_AGENT_PROTOCOLS.max + 1],
  ])('refuses an agent speaking a protocol version %s than the supported range, naming the range', async (_side, protocol) => {
    const { credential } = await enroll(`range-${protocol}`);
    const socket = agentSocket({ protocol, credential });
    const { min, max } = SUPPORTED_AGENT_PROTOCOLS;
    await expect(connected(socket)).rejects.toMatchObject({
      message: expect.stringContaining(`accepts agent protocol versions ${min} to ${max}`),
      data: { code: 'agent.protocolUnsupported', message: expect.stringContaining(`versions ${min} to ${max}`) },
    });
  });

  it('refuses sockets with a wrong protocol version or credential', async () => {
    const { credential } = await enroll('auth-1');
    const old = agentSocket({ protocol: 0, credential });
    await expect(connected(old)).rejects.toMatchObject({ data: { code: 'agent.protocolUnsupported' } });
    const wrong = agentSocket({ protocol: AGENT_PROTOCOL_VERSION, credential: 'vga_wrong' });
    await expect(connected(wrong)).rejects.toMatchObject({ data: { code: 'agent.credentialInvalid' } });
    const none = agentSocket({});
    await expect(connected(none)).rejects.toMatchObject({ data: { code: 'agent.protocolUnsupported' } });
  });

  it('stores a backlog without rolling the latest figures back', async () => {
    const { agentId, credential } = await enroll('backlog-1');
    const socket = await connectAgent(credential, 'backlog-1');
    const now = Date.now();
    expect(await socket.timeout(5000).emitWithAck('report', report({ timestamp: now, cpu: 50 }))).toEqual({ ok: true });
    const backlog = [3, 2, 1].map((minutes) => report({ timestamp: now - minutes * 60_000 - 30_000, cpu: 10 * minutes }));
    expect(await socket.timeout(5000).emitWithAck('backlog', backlog)).toEqual({ ok: true });
    const { body } = await waitFor(
      () => api().get(`/api/agents/${agentId}/metrics?range=1h`).set(member.auth),
      (res) => res.body.metrics.points.length === 4,
    );
    expect(body.metrics.points.map((p: { cpu: number }) => p.cpu)).toEqual([30, 20, 10, 50]);
    expect((await getAgent(agentId)).cpu_usage).toBe(50);
  });

  it('marks a dropped agent inactive after the grace period, once; a quick reconnect is not an outage', async () => {
    const { agentId, credential } = await enroll('grace-1');
    const watcher = await browser(`agent:${agentId}`);
    const transitions: string[] = [];
    watcher.on('agent.status_changed', (event) => transitions.push(`${event.previous}->${event.status}`));
    let socket = await connectAgent(credential, 'grace-1');
    await socket.timeout(5000).emitWithAck('report', report());
    await waitFor(
      () => getAgent(agentId),
      (a) => a.status === 'active',
    );

    socket.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket = await connectAgent(credential, 'grace-1');
    await new Promise((resolve) => setTimeout(resolve, (GRACE_SECONDS + 1.5) * 1000));
    expect((await getAgent(agentId)).status).toBe('active');

    const droppedAt = Date.now();
    socket.disconnect();
    await waitFor(
      () => getAgent(agentId),
      (a) => a.status === 'inactive',
      10_000,
    );
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 100);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(transitions).toEqual(['connecting->active', 'active->inactive']);

    // Back: connecting until its first report, then active.
    socket = await connectAgent(credential, 'grace-1');
    await waitFor(
      () => getAgent(agentId),
      (a) => a.status === 'connecting',
    );
    await socket.timeout(5000).emitWithAck('report', report());
    await waitFor(
      () => getAgent(agentId),
      (a) => a.status === 'active',
    );
    expect(transitions).toEqual(['connecting->active', 'active->inactive', 'inactive->connecting', 'connecting->active']);
  });

  it('renames (name only), validates, and deletes by revoking the credential and dropping the socket', async () => {
    const { agentId, credential } = await enroll('crud-1');
    const socket = await connectAgent(credential, 'crud-1');
    const watcher = await browser('agents');
    const changes: string[] = [];
    watcher.on('agents.changed', (event) => event.agent.id === agentId && changes.push(`${event.action}:${event.agent.name}`));

    const renamed = await api()
      .put(`/api/agents/${agentId}`)
      .set(member.auth)
      .send({ name: '  Web server  ', hostname: 'ignored' })
      .expect(200);
    expect(renamed.body).toMatchObject({ success: true, message: 'Agent updated', agent: { name: 'Web server', hostname: 'crud-1' } });
    expect((await api().put(`/api/agents/${agentId}`).set(member.auth).send({ name: '  ' }).expect(400)).body.message).toBe(
      'Agent name is required',
    );
    expect((await api().put(`/api/agents/${agentId}`).set(member.auth).send({}).expect(400)).body.message).toBe('Agent name is required');
    expect(
      (
        await api()
          .put(`/api/agents/${agentId}`)
          .set(member.auth)
          .send({ name: 'x'.repeat(101) })
          .expect(400)
      ).body.message,
    ).toBe('Agent name must be at most 100 characters');
    expect((await api().get('/api/agents/abc').set(member.auth).expect(400)).body.message).toBe('invalid id');
    expect((await api().get('/api/agents/999999').set(member.auth).expect(404)).body).toMatchObject({
      success: false,
      message: 'Agent not found',
    });
    await api().put('/api/agents/999999').set(member.auth).send({ name: 'x' }).expect(404);
    await api().delete('/api/agents/999999').set(member.auth).expect(404);

    const revoked = new Promise<string>((resolve) => socket.on('agent.error', (error) => resolve(error.code)));
    const dropped = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));
    expect((await api().delete(`/api/agents/${agentId}`).set(member.auth).expect(200)).body).toEqual({
      success: true,
      message: 'Agent deleted',
    });
    expect(await revoked).toBe('agent.revoked');
    await dropped;
    await api().get(`/api/agents/${agentId}`).set(member.auth).expect(404);
    const again = agentSocket({ protocol: AGENT_PROTOCOL_VERSION, credential });
    await expect(connected(again)).rejects.toMatchObject({ data: { code: 'agent.credentialInvalid' } });
    await waitFor(
      async () => changes,
      (c) => c.length === 2,
      3000,
    );
    expect(changes).toEqual(['updated:Web server', 'deleted:Web server']);
  });

  describe('xugou Go agent over HTTP', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fixture = require('../fixtures/xugou-agent.json');

    /** The fixture's posts, moved to the present (60 s apart) and carrying `token`. */
    function statuses(token: string, extra: Record<string, unknown> = {}) {
      const start = Date.now() - 61_000;
      return fixture.status.map((status: Record<string, unknown>, i: number) => ({
        ...status,
        token,
        timestamp: new Date(start + i * 60_000).toISOString(),
        ...extra,
      }));
    }

    it('registers and reports with its own JSON, rates from its counters', async () => {
      const token = await newToken();
      const registered = await api()
        .post('/api/agents/register')
        .send({ ...fixture.register, token })
        .expect(200);
      expect(registered.body).toMatchObject({ success: true, agent: { id: expect.any(Number), hostname: 'vps-hk-01', protocol: 'http' } });
      const id = registered.body.agent.id;
      const again = await api()
        .post('/api/agents/register')
        .send({ ...fixture.register, token })
        .expect(200);
      expect(again.body.agent.id).toBe(id);

      const [first, second] = statuses(token);
      expect((await api().post('/api/agents/status').send(first).expect(200)).body).toEqual({
        success: true,
        message: 'Agent status updated',
      });
      await api().post('/api/agents/status').send([second]).expect(200);
      const agent = await waitFor(
        () => getAgent(id),
        (a) => a.status === 'active' && a.network_rx !== 0,
      );
      expect(agent).toMatchObject({
        os: 'debian 12.7',
        platform: 'linux',
        interval: 60,
        cpu_model: 'Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz',
        memory_total: 8340000768,
        memory_used: 1620000768,
        disk_total: 52589998080 + 129718272,
      });
      // 600 KB and 120 KB in 60 s on eth0; lo's counters did not move.
      expect(agent.network_rx).toBeCloseTo(10, 1);
      expect(agent.network_tx).toBeCloseTo(2, 1);
    });

    it('refuses unknown tokens and malformed posts', async () => {
      const [status] = statuses('vgr_unknown');
      expect((await api().post('/api/agents/status').send(status).expect(401)).body.message).toBe(
        'Registration token is invalid or has expired',
      );
      await api()
        .post('/api/agents/register')
        .send({ ...fixture.register, token: 'vgr_unknown' })
        .expect(401);
      const token = await newToken();
      const bad = await api()
        .post('/api/agents/status')
        .send({ ...status, token, cpu: { usage: 'high' } })
        .expect(400);
      expect(bad.body).toMatchObject({ success: false, message: 'Invalid agent message: body.cpu.usage must be a number' });
      await api().post('/api/agents/status').send([]).expect(400);
      await api().post('/api/agents/register').send({ token }).expect(400);
    });

    it('goes inactive after three missed intervals', async () => {
      const token = await newToken();
      const [status] = statuses(token, {
        hostname: 'quiet-1',
        keepalive: 5,
        report_interval_seconds: 5,
        timestamp: new Date().toISOString(),
      });
      await api().post('/api/agents/status').send(status).expect(200);
      const { body } = await api().get('/api/agents?search=quiet-1').set(member.auth).expect(200);
      const id = body.agents[0].id;
      await waitFor(
        () => getAgent(id),
        (a) => a.status === 'active',
      );
      const reportedAt = Date.now();
      await waitFor(
        () => getAgent(id),
        (a) => a.status === 'inactive',
        25_000,
      );
      expect(Date.now() - reportedAt).toBeGreaterThanOrEqual(13_000);
    }, 40_000);
  });

  describe('what the database keeps', () => {
    let db: Client;
    beforeAll(async () => {
      // The embedded PostgreSQL is reached on its socket, exactly like an external one.
      db = new Client(app.database.url ? { connectionString: app.database.url } : embeddedConnection(app.database.dataDir));
      await db.connect();
    });
    afterAll(async () => db?.end());

    it('keeps only hashes of registration tokens and credentials, and expired tokens stop working', async () => {
      const token = await newToken();
      const { agentId, credential } = await enroll('hash-1', token);
      const sha = (s: string) => createHash('sha256').update(s).digest('hex');
      const { rows: tokens } = await db.query(`SELECT token_hash FROM agent_tokens WHERE token_hash = $1`, [sha(token)]);
      expect(tokens).toHaveLength(1);
      const { rows } = await db.query(`SELECT row_to_json(a)::text AS row FROM agents a WHERE id = $1`, [agentId]);
      expect(rows[0].row).toContain(sha(credential));
      expect(rows[0].row).not.toContain(credential);
      const { rows: all } = await db.query(`SELECT string_agg(row_to_json(t)::text, '') AS dump FROM agent_tokens t`);
      expect(all[0].dump).not.toContain(token);

      await db.query(`UPDATE agent_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha(token)]);
      // Expired even for the host it enrolled.
      await api()
        .post('/api/agents/enroll')
        .send({ token, hello: hello('hash-1') })
        .expect(401);
      // An enrolled agent keeps its own credential after the token expires.
      const socket = await connectAgent(credential, 'hash-1');
      expect(await socket.timeout(5000).emitWithAck('report', report())).toEqual({ ok: true });
    });
  });
});
