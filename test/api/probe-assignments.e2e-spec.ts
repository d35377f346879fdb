import request from 'supertest';
import { io } from 'socket.io-client';
import { AGENT_PROTOCOL_VERSION, type MonitorDto, type ProbeAssignmentsMessage, type ProbeResultReport } from '@vigil/proto';
import { agentHello, enrollAgent, type AgentSocket } from '../factories/agents';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

const SECRET = 'Bearer probe-secret-7f3a';
const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);

interface ProbingAgent {
  id: number;
  socket: AgentSocket;
  /** Every `probes` message received, the one sent with the hello included. */
  received: ProbeAssignmentsMessage[];
}

/**
 * Issue 32, requirements 1 and 5: the server sends each probing agent (protocol 2) its assigned checks over the agent
 * socket, the whole set after hello and then only changes, with the secrets those checks need and to no other agent;
 * an agent reports results only for checks it was given. Storing and judging the results is in monitor-probes.
 */
describe('probe assignments', () => {
  let app: TestApp;
  let admin: Session;
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await app?.destroy();
  });

  const api = () => request(app.url);
  const metrics = async () => (await api().get('/api/metrics').set(admin.auth).expect(200)).text;
  const enroll = (hostname: string) => enrollAgent(app.url, admin, hostname);

  /** Connects as the agent, listening for `probes` before its hello (the set is sent before the hello's ack). */
  async function connect({ agentId, credential }: { agentId: number; credential: string }, protocol = AGENT_PROTOCOL_VERSION) {
    const socket: AgentSocket = io(`${app.url}/agent`, {
      auth: { protocol, credential },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const agent: ProbingAgent = { id: agentId, socket, received: [] };
    socket.on('probes', (message) => agent.received.push(message));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5000).emitWithAck('hello', agentHello(`probe-${agentId}`))).toMatchObject({ ok: true });
    return agent;
  }

  async function createMonitor(locations: string[], body: Record<string, unknown> = {}): Promise<MonitorDto> {
    const { body: created } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'probed', url: 'http://127.0.0.1:9/health', interval: 60, retries: 0, locations, ...body })
      .expect(201);
    return created.monitor;
  }

  const received = (agent: ProbingAgent, count: number) =>
    waitFor(
      async () => agent.received,
      (messages) => messages.length >= count,
    );
  const results = (agent: ProbingAgent, items: unknown) =>
    agent.socket.timeout(5000).emitWithAck('probe.results', items as ProbeResultReport[]);
  /** A round trip on the agent's socket: whatever the server sent it before now has arrived (one connection keeps order). */
  const settled = async (agent: ProbingAgent) => expect(await results(agent, [])).toEqual({ ok: true });
  const result = (monitorId: number): ProbeResultReport => ({
    monitor_id: monitorId,
    checked_at: Date.now() - 1_000,
    ok: true,
    status_code: 200,
    response_time: 12,
    error: null,
  });

  it('sends an assigned agent its checks with their secrets after hello, and no other agent anything of them', async () => {
    const [one, two] = await Promise.all([enroll('probe-one'), enroll('probe-two')]);
    const monitor = await createMonitor([`agent:${one.agentId}`], { headers: JSON.stringify({ Authorization: SECRET }) });
    expect(monitor.headers.Authorization).not.toBe(SECRET);
    const [assigned, other] = await Promise.all([connect(one), connect(two)]);

    expect(assigned.received).toEqual([
      {
        full: true,
        upsert: [
          {
            monitor_id: monitor.id,
            revision: expect.any(String),
            type: 'http',
            interval: 60,
            timeout: monitor.timeout,
            assertions: [],
            target: expect.objectContaining({ type: 'http', url: 'http://127.0.0.1:9/health', headers: { Authorization: SECRET } }),
          },
        ],
        remove: [],
      },
    ]);
    expect(other.received).toEqual([{ full: true, upsert: [], remove: [] }]);
    expect(JSON.stringify(other.received)).not.toContain(SECRET);

    // An edit sends the changed check alone, with a new revision; a pause takes it away.
    const first = assigned.received[0].upsert[0];
    await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ interval: 120 }).expect(200);
    const [, edited] = await received(assigned, 2);
    expect(edited).toEqual({ full: false, upsert: [{ ...first, interval: 120, revision: expect.any(String) }], remove: [] });
    expect(edited.upsert[0].revision).not.toBe(first.revision);
    await api().post(`/api/monitors/${monitor.id}/pause`).set(admin.auth).expect(200);
    const [, , paused] = await received(assigned, 3);
    expect(paused).toEqual({ full: false, upsert: [], remove: [monitor.id] });
    await settled(other);
    expect(other.received).toHaveLength(1);

    // Moved from one agent to the other: removed from the first, sent to the second.
    await api().post(`/api/monitors/${monitor.id}/resume`).set(admin.auth).expect(200);
    await received(assigned, 4);
    await api()
      .put(`/api/monitors/${monitor.id}`)
      .set(admin.auth)
      .send({ locations: [`agent:${two.agentId}`] })
      .expect(200);
    expect((await received(assigned, 5))[4]).toEqual({ full: false, upsert: [], remove: [monitor.id] });
    expect((await received(other, 2))[1]).toMatchObject({ full: false, upsert: [{ monitor_id: monitor.id }], remove: [] });
  });

  it('never sends checks to a protocol 1 agent', async () => {
    const [legacy, current] = await Promise.all([enroll('probe-legacy'), enroll('probe-current')]);
    const [old, fresh] = await Promise.all([connect(legacy, 1), connect(current)]);
    const monitor = await createMonitor([`agent:${legacy.agentId}`, `agent:${current.agentId}`]);
    // The protocol 2 agent named beside it gets the new check, sent to both at once had both been served.
    expect((await received(fresh, 2))[1]).toMatchObject({ upsert: [{ monitor_id: monitor.id }] });
    await settled(old);
    expect(old.received).toEqual([]);
  });

  it('refuses results for checks the agent was not given, keeps its others, and leaves the other agent unharmed', async () => {
    const [forger, honest] = await Promise.all([enroll('probe-forger'), enroll('probe-honest')]);
    const [bad, good] = await Promise.all([connect(forger), connect(honest)]);
    const [own, victim] = await Promise.all([createMonitor([`agent:${forger.agentId}`]), createMonitor([`agent:${honest.agentId}`])]);
    await Promise.all([received(bad, 2), received(good, 2)]);
    const before = await metrics();

    expect(await results(bad, [result(own.id), result(victim.id)])).toEqual({
      ok: true,
      refused: [{ error: `results[1].monitor_id ${victim.id} is not assigned to this agent` }],
    });
    expect(await results(good, [result(victim.id)])).toEqual({ ok: true });
    expect(await results(bad, { monitor_id: own.id })).toMatchObject({ ok: false, code: 'agent.messageInvalid' });

    const after = await metrics();
    expect(metric(after, 'vigil_probe_results_total') - metric(before, 'vigil_probe_results_total')).toBe(2);
    expect(metric(after, 'vigil_probe_results_refused_total') - metric(before, 'vigil_probe_results_refused_total')).toBe(1);
    expect(app.output()).toContain(`Agent ${forger.agentId}: 1 check results refused`);
  });
});
