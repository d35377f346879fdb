import request from 'supertest';
import type { MonitorLocationsResponse } from '@vigil/proto';
import { enrollAgent } from '../factories/agents';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Locations as the server sees them without a probing agent: who may choose agents, what is refused, the server's own
 * location, and an agent that never connected making its location unknown (and a monitor with only such locations
 * unreachable). Agents running checks are in monitor-probes.e2e-spec.ts.
 */
describe('monitor locations', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let target: TargetServer;
  let agentId: number;

  beforeAll(async () => {
    [app, target] = await Promise.all([startTestApp({ env: USERS_REACH_LOOPBACK }), startTargetServer()]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    ({ agentId } = await enrollAgent(app.url, admin, 'probe-1'));
  });
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);
  const create = (session: Session, body: Record<string, unknown>) =>
    api()
      .post('/api/monitors')
      .set(session.auth)
      .send({ name: 'located', url: `${target.url}/located`, interval: 3600, retries: 0, ...body });
  const locations = async (id: number): Promise<MonitorLocationsResponse> =>
    (await api().get(`/api/monitors/${id}/locations`).set(member.auth).expect(200)).body;
  /** The check a new monitor gets on creation runs in the background: wait until it is stored, so it cannot land later. */
  const settled = (id: number) =>
    waitFor(
      async () => (await api().get(`/api/monitors/${id}`).set(member.auth).expect(200)).body.monitor.status,
      (status) => status !== 'pending',
    );
  const check = async (id: number) => (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body;

  it('is checked from the server alone unless told otherwise', async () => {
    const { body } = await create(member, {}).expect(201);
    expect(body.monitor).toMatchObject({ locations: ['server'], quorum: 'any', quorum_min: null });
    const read = await locations(body.monitor.id);
    expect(read).toMatchObject({ success: true, quorum: 'any', locations: [{ location: 'server', name: 'server', agent_id: null }] });
  });

  it('lets only an admin choose agents, and keeps them through a member edit of something else', async () => {
    const agent = `agent:${agentId}`;
    const refused = await create(member, { locations: ['server', agent] }).expect(403);
    expect(refused.body).toMatchObject({ success: false, message: expect.stringContaining('admin') });
    const { body } = await create(admin, { locations: ['server', agent], quorum: 'majority' }).expect(201);
    expect(body.monitor).toMatchObject({ locations: ['server', agent], quorum: 'majority' });
    const id = body.monitor.id;
    const renamed = await api().put(`/api/monitors/${id}`).set(member.auth).send({ name: 'renamed by a member' }).expect(200);
    expect(renamed.body.monitor.locations).toEqual(['server', agent]);
    await api()
      .put(`/api/monitors/${id}`)
      .set(member.auth)
      .send({ locations: ['server'] })
      .expect(403);
    // The same agents in another order, or the server added, is no change of agents.
    await api()
      .put(`/api/monitors/${id}`)
      .set(member.auth)
      .send({ locations: [agent] })
      .expect(200);
  });

  it.each([
    ['an unknown agent', { locations: ['server', 'agent:999999'] }, 400, 'locations'],
    ['a malformed location', { locations: ['server', 'agent:x'] }, 400, undefined],
    ['a repeated location', { locations: ['server', 'server'] }, 400, undefined],
    ['no location at all', { locations: [] }, 400, undefined],
    ['an agent for a push monitor', { type: 'push', locations: ['agent:1'] }, 400, undefined],
    ['atLeast without a count', { quorum: 'atLeast' }, 400, undefined],
    ['atLeast beyond the locations', { quorum: 'atLeast', quorumMin: 2 }, 400, undefined],
    ['an unknown rule', { quorum: 'most' }, 400, undefined],
  ])('refuses %s', async (_name, body, status, field) => {
    const answer = await create(admin, body).expect(status);
    expect(answer.body).toMatchObject({ success: false, message: expect.any(String) });
    if (field) expect(answer.body.field).toBe(field);
  });

  it("counts the server's result and leaves an agent that never connected unknown", async () => {
    const { body } = await create(admin, { name: 'server and offline agent', locations: ['server', `agent:${agentId}`] }).expect(201);
    const id = body.monitor.id;
    await settled(id);
    target.respondFor('/located', 503);
    const failed = await check(id);
    expect(failed.monitor.status).toBe('down');
    expect(failed.check.error).toBe('1 of 1 locations fail: server: Unexpected status 503 (expected 200)');
    const read = await locations(id);
    expect(read.locations).toEqual([
      expect.objectContaining({ location: 'server', status: 'down', error: expect.stringContaining('503') }),
      expect.objectContaining({ location: `agent:${agentId}`, name: 'probe-1', agent_id: agentId, status: 'unknown', uptime: null }),
    ]);
    target.respondFor('/located', 200);
    expect((await check(id)).monitor.status).toBe('up');
    const again = await locations(id);
    // Its checks from the server: on creation (up), the failure, the recovery.
    expect(again.locations[0]).toMatchObject({ status: 'up', uptime: 66.67 });
  });

  it('is unreachable, not down, when none of its locations can judge it', async () => {
    const { body } = await create(admin, { name: 'agents only', locations: [`agent:${agentId}`] }).expect(201);
    await settled(body.monitor.id);
    const checked = await check(body.monitor.id);
    expect(checked.monitor.status).toBe('unreachable');
    expect(checked.check).toMatchObject({ status: 'unreachable', error: 'No location could check it (1 unknown)' });
    // The server never probed it: its target saw nothing.
    expect(target.received.filter((r) => r.path === '/located' && r.at >= Date.parse(checked.check.checked_at))).toHaveLength(0);
  });

  it('answers 404 for a monitor that does not exist and 401 without a session', async () => {
    await api().get('/api/monitors/999999/locations').set(member.auth).expect(404);
    await api().get('/api/monitors/1/locations').expect(401);
  });
});
