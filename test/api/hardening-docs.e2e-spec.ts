import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import { MESSAGES, type AgentDto, type ClientToServerEvents, type ServerToClientEvents } from '@vigil/proto';
import { agentHello, agentReport, connectAgent, type AgentSocket } from '../factories/agents';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 27, item 7: what `docs/security.md` says is true of the running server. A `user` saves the public status
 * page; a push token (stored as given, since its URL is shown again on the monitor screens) never reaches the status
 * page, the wall or the log; a registration token enrols one host.
 */

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xugou = require('../fixtures/xugou-agent.json');
const xugouRegister = (token: string, hostname: string) => ({ ...xugou.register, token, name: hostname, hostname });
const xugouStatus = (token: string, hostname: string) => ({
  ...xugou.status[0],
  token,
  hostname,
  timestamp: new Date().toISOString(),
});

describe('hardening: the security document holds', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Debug logging: the most the server ever writes, for the push token check.
    app = await startTestApp({ env: { LOG_LEVEL: 'debug' } });
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
  const newToken = async (): Promise<string> => (await api().post('/api/agents/token/generate').set(member.auth).expect(200)).body.token;
  const enroll = (token: string, hostname: string) =>
    api()
      .post('/api/agents/enroll')
      .send({ token, hello: agentHello(hostname) });
  const hostnames = async (search: string): Promise<string[]> =>
    (await api().get(`/api/agents?search=${search}`).set(member.auth).expect(200)).body.agents.map((a: AgentDto) => a.hostname).sort();

  async function browser(auth: Record<string, string>, room: 'status' | 'wall'): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5000).emitWithAck('subscribe', room)).toEqual({ ok: true });
    return socket;
  }

  it('lets a signed-in user, not only an admin, save the public status page', async () => {
    expect(member.user.role).toBe('user');
    const page = { title: 'Saved by a user', description: 'Not an admin', monitors: [], agents: [] };
    await api().post('/api/status/config').send(page).expect(401);
    const saved = await api().post('/api/status/config').set(member.auth).send(page).expect(200);
    expect(saved.body).toEqual({ success: true, message: MESSAGES['status.saved'] });
    expect((await api().get('/api/status/data').expect(200)).body.data).toMatchObject({
      title: 'Saved by a user',
      description: 'Not an admin',
    });
  });

  it('never shows a push token on the status page or the wall, over REST or their socket rooms, nor in the log', async () => {
    const { body: key } = await api().post('/api/wall/keys').set(admin.auth).send({ name: 'NOC' }).expect(201);
    const heard: string[] = [];
    const visitor = await browser({}, 'status');
    const wall = await browser({ displayKey: key.secret }, 'wall');
    visitor.onAny((event: string, payload: unknown) => heard.push(JSON.stringify({ event, payload })));
    wall.onAny((event: string, payload: unknown) => heard.push(JSON.stringify({ event, payload })));

    const { body: created } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name: 'nightly backup', type: 'push', retries: 0 })
      .expect(201);
    const { id, push_token: token } = created.monitor;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({ title: 'Jobs', monitors: [id], agents: [] })
      .expect(200);

    // Each push is a check (a `status.item` to visitors); up and then down are transitions (a `wall.change` each).
    await api().get(`/api/push/${token}?status=up&msg=done`).expect(200);
    await api().post(`/api/push/${token}?status=down&msg=disk%20full`).expect(200);
    await api().get(`/api/push/${token}?status=sideways`).expect(400);
    const events = (name: string) => heard.filter((e) => e.startsWith(`{"event":"${name}"`));
    await waitFor(
      async () => [events('status.item').length, events('wall.change').length],
      ([items, changes]) => items >= 2 && changes >= 2,
    );
    const status = await api().get('/api/status/data').expect(200);
    expect(status.body.data.monitors).toEqual([expect.objectContaining({ id, type: 'push', status: 'down' })]);
    const wallData = await api().get(`/api/wall/data?key=${key.secret}`).expect(200);
    expect(JSON.stringify(wallData.body.data)).toContain('nightly backup');

    for (const text of [status.text, wallData.text, ...heard, app.output()]) expect(text).not.toContain(token);
    // It is readable where the docs say: the signed-in monitor read, which shows the push URL.
    expect((await api().get(`/api/monitors/${id}`).set(member.auth).expect(200)).body.monitor.push_token).toBe(token);
  });

  describe('a registration token enrols one host', () => {
    it('xugou: the first host binds the token, registers again after a restart as the same agent, and no other host gets in', async () => {
      const token = await newToken();
      const first = await api().post('/api/agents/register').send(xugouRegister(token, 'xugou-one')).expect(200);
      const again = await api().post('/api/agents/register').send(xugouRegister(token, 'xugou-one')).expect(200);
      expect(again.body.agent.id).toBe(first.body.agent.id);
      await api().post('/api/agents/status').send(xugouStatus(token, 'xugou-one')).expect(200);

      const refused = await api().post('/api/agents/register').send(xugouRegister(token, 'xugou-two')).expect(409);
      expect(refused.body).toEqual({ success: false, code: 'agent.tokenUsed', message: MESSAGES['agent.tokenUsed'] });
      // A status post from a new host would enrol it too: refused the same way.
      const reported = await api().post('/api/agents/status').send(xugouStatus(token, 'xugou-two')).expect(409);
      expect(reported.body).toEqual(refused.body);
      // Nor through the Vigil agent's enrolment.
      expect((await enroll(token, 'xugou-three').expect(409)).body).toEqual(refused.body);
      expect(await hostnames('xugou-')).toEqual(['xugou-one']);
    });

    it('lets exactly one of several hosts racing for a fresh token in', async () => {
      const token = await newToken();
      const hosts = ['race-a', 'race-b', 'race-c', 'race-d'];
      const answers = await Promise.all(
        hosts.map((host, i) => (i % 2 ? enroll(token, host) : api().post('/api/agents/register').send(xugouRegister(token, host)))),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
      expect(await hostnames('race-')).toEqual([hosts[answers.findIndex((a) => a.status === 200)]]);
    });

    it('Vigil agent: the same host enrolling again gets its agent back with a new credential, the old one is dropped; another host is refused', async () => {
      const token = await newToken();
      const first = await enroll(token, 'socket-one').expect(200);
      const old: AgentSocket = await connectAgent(app.url, first.body.credential, 'socket-one');
      sockets.push(old);
      const told = new Promise((resolve) => old.once('agent.error', resolve));
      const dropped = new Promise((resolve) => old.once('disconnect', resolve));

      const again = await enroll(token, 'socket-one').expect(200);
      expect(again.body).toMatchObject({ success: true, agent_id: first.body.agent_id, credential: expect.stringMatching(/^vga_/) });
      expect(again.body.credential).not.toBe(first.body.credential);
      expect(await told).toEqual({ code: 'agent.credentialInvalid', message: MESSAGES['agent.credentialInvalid'] });
      await dropped;
      await expect(connectAgent(app.url, first.body.credential, 'socket-one')).rejects.toThrow(MESSAGES['agent.credentialInvalid']);
      const renewed = await connectAgent(app.url, again.body.credential, 'socket-one');
      sockets.push(renewed);
      expect(await renewed.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });

      const refused = await enroll(token, 'socket-two').expect(409);
      expect(refused.body).toEqual({ success: false, code: 'agent.tokenUsed', message: MESSAGES['agent.tokenUsed'] });
      expect(await hostnames('socket-')).toEqual(['socket-one']);
    });
  });
});
