import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, MonitorDto, MonitorStatusChangedEvent, ServerToClientEvents } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Group monitors (issue 29, requirement 2): a group's status follows its members' by its rule, in the transaction that
 * stores theirs; groups nest, refuse to contain themselves, pause with their members and are never checked. Checks are
 * driven by the manual check route against a loopback target, so every transition is the test's own doing.
 */
describe('group monitors', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let target: TargetServer;
  let socket: BrowserSocket | undefined;

  beforeAll(async () => {
    [app, target] = await Promise.all([startTestApp({ env: { ...USERS_REACH_LOOPBACK } }), startTargetServer()]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    socket?.disconnect();
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);
  let paths = 0;

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    const { body: response } = await api().post('/api/monitors').set(member.auth).send(body).expect(201);
    return response.monitor;
  }
  const read = async (id: number): Promise<MonitorDto> =>
    (await api().get(`/api/monitors/${id}`).set(member.auth).expect(200)).body.monitor;
  const group = (name: string, extra: Record<string, unknown> = {}) => create({ name, type: 'group', ...extra });

  /** An http member on its own path of the target, up and checked once, so later checks are the test's. */
  async function upMember(parentId: number): Promise<{ monitor: MonitorDto; path: string }> {
    const path = `/m${(paths += 1)}`;
    target.respondFor(path, 200);
    const monitor = await create({ name: `member ${path}`, url: `${target.url}${path}`, retries: 0, parentId });
    await waitFor(
      () => read(monitor.id),
      (m) => m.status === 'up',
    );
    return { monitor, path };
  }
  async function check(id: number, status: number, path: string): Promise<void> {
    target.respondFor(path, status);
    await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200);
  }
  const statusOf = async (id: number) => (await read(id)).status;

  it('goes down when a member goes down, live, and up again when it recovers', async () => {
    const web = await group('web');
    expect(web).toMatchObject({ type: 'group', group_rule: 'any', group_min: null, member_count: 0, status: 'up', parent_id: null });
    const a = await upMember(web.id);
    const b = await upMember(web.id);
    expect(a.monitor.parent_id).toBe(web.id);
    expect(await read(web.id)).toMatchObject({ status: 'up', member_count: 2 });

    socket = io(app.url, { auth: { token: member.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    const changes: MonitorStatusChangedEvent[] = [];
    socket.on('monitor.status_changed', (event) => changes.push(event));
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });
    await socket.timeout(5000).emitWithAck('subscribe', `monitor:${web.id}` as never);

    await check(b.monitor.id, 500, b.path);
    expect(await statusOf(b.monitor.id)).toBe('down');
    // Derived in the transaction that stored the member's check: down as soon as the check answers.
    expect(await statusOf(web.id)).toBe('down');
    const live = await waitFor(
      async () => changes.filter((c) => c.monitorId === web.id),
      (events) => events.length > 0,
    );
    expect(live[0]).toMatchObject({ previous: 'up', status: 'down', check: { error: '1 of 2 members down' } });

    await check(b.monitor.id, 200, b.path);
    expect(await statusOf(web.id)).toBe('up');
    // Each move is kept as the group's check: its history reads like any monitor's.
    const { body } = await api().get(`/api/monitors/${web.id}/checks`).set(member.auth).expect(200);
    expect(body.checks.map((c: { status: string; error: string | null }) => [c.status, c.error])).toEqual([
      ['up', null],
      ['down', '1 of 2 members down'],
    ]);
    expect(body.checks[1].id).toBe(live[0].check.id);
  });

  it('follows the rules all and atLeast', async () => {
    const all = await group('all of them', { groupRule: 'all' });
    const [a, b] = [await upMember(all.id), await upMember(all.id)];
    await check(a.monitor.id, 500, a.path);
    expect(await statusOf(all.id)).toBe('degraded');
    await check(b.monitor.id, 500, b.path);
    expect(await statusOf(all.id)).toBe('down');

    const quorum = await group('two of three', { groupRule: 'atLeast', groupMin: 2 });
    expect(quorum).toMatchObject({ group_rule: 'atLeast', group_min: 2 });
    const members = [await upMember(quorum.id), await upMember(quorum.id), await upMember(quorum.id)];
    await check(members[0].monitor.id, 500, members[0].path);
    expect(await statusOf(quorum.id)).toBe('degraded');
    await check(members[1].monitor.id, 500, members[1].path);
    expect(await statusOf(quorum.id)).toBe('down');
  });

  it('nests groups: an inner group going down takes the outer one down', async () => {
    const outer = await group('site');
    const inner = await group('backends', { parentId: outer.id });
    const leaf = await upMember(inner.id);
    await check(leaf.monitor.id, 500, leaf.path);
    expect(await statusOf(inner.id)).toBe('down');
    expect(await statusOf(outer.id)).toBe('down');
    await check(leaf.monitor.id, 200, leaf.path);
    expect(await statusOf(outer.id)).toBe('up');
  });

  it('refuses a group containing itself, a parent that is not a group, and atLeast without a count', async () => {
    const outer = await group('outer');
    const inner = await group('inner', { parentId: outer.id });
    const self = await api().put(`/api/monitors/${outer.id}`).set(member.auth).send({ parentId: outer.id }).expect(400);
    expect(self.body).toMatchObject({ success: false, code: 'monitors.parentCycle' });
    const nested = await api().put(`/api/monitors/${outer.id}`).set(member.auth).send({ parentId: inner.id }).expect(400);
    expect(nested.body.code).toBe('monitors.parentCycle');
    const plain = await create({ name: 'plain', url: `${target.url}/plain` });
    const notGroup = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name: 'x', url: target.url, parentId: plain.id })
      .expect(400);
    expect(notGroup.body.code).toBe('monitors.parentInvalid');
    const noMin = await api().post('/api/monitors').set(member.auth).send({ name: 'x', type: 'group', groupRule: 'atLeast' }).expect(400);
    expect(noMin.body.code).toBe('monitors.groupMinInvalid');
  });

  it('pauses and resumes its members with it', async () => {
    const pausing = await group('pausing');
    const inner = await group('pausing inner', { parentId: pausing.id });
    const a = await upMember(pausing.id);
    const b = await upMember(inner.id);
    await api().post(`/api/monitors/${pausing.id}/pause`).set(member.auth).expect(200);
    for (const id of [pausing.id, inner.id, a.monitor.id, b.monitor.id]) expect((await read(id)).active).toBe(false);
    await api().post(`/api/monitors/${pausing.id}/resume`).set(member.auth).expect(200);
    for (const id of [pausing.id, inner.id, a.monitor.id, b.monitor.id]) expect((await read(id)).active).toBe(true);
  });

  it('leaves paused members out of its status', async () => {
    const partial = await group('partial');
    const [a] = [await upMember(partial.id), await upMember(partial.id)];
    await check(a.monitor.id, 500, a.path);
    expect(await statusOf(partial.id)).toBe('down');
    await api().post(`/api/monitors/${a.monitor.id}/pause`).set(member.auth).expect(200);
    expect(await statusOf(partial.id)).toBe('up');
  });

  it('is never checked: the check route refuses it and nothing is stored while its members hold', async () => {
    const idle = await group('idle');
    await upMember(idle.id);
    const refused = await api().post(`/api/monitors/${idle.id}/check`).set(member.auth).expect(400);
    expect(refused.body.code).toBe('monitors.groupNoCheck');
    const { body } = await api().get(`/api/monitors/${idle.id}/checks`).set(member.auth).expect(200);
    expect(body.total).toBe(0);
  });

  it('lists top-level monitors and one group’s members for the grouped view', async () => {
    const listed = await group('listed');
    const { monitor } = await upMember(listed.id);
    const top = await api().get('/api/monitors?topLevel=true&page=1&pageSize=200').set(member.auth).expect(200);
    const ids = top.body.monitors.map((m: MonitorDto) => m.id);
    expect(ids).toContain(listed.id);
    expect(ids).not.toContain(monitor.id);
    const inside = await api().get(`/api/monitors?parentId=${listed.id}`).set(member.auth).expect(200);
    expect(inside.body.monitors.map((m: MonitorDto) => m.id)).toEqual([monitor.id]);
  });

  it('shows on the status page as one tile with its derived status', async () => {
    const tile = await group('public site');
    const { monitor, path } = await upMember(tile.id);
    await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({ title: 'Status', monitors: [tile.id], agents: [] })
      .expect(200);
    const shown = async () => (await api().get('/api/status/data').expect(200)).body.data.monitors as Array<{ id: number; status: string }>;
    expect((await shown()).map((m) => m.id)).toEqual([tile.id]);
    await check(monitor.id, 500, path);
    await waitFor(shown, (monitors) => monitors[0]?.status === 'down');
  });

  it('can be a dependency: a failing dependent of a down group is unreachable', async () => {
    const core = await group('core');
    const router = await upMember(core.id);
    const path = `/dep${(paths += 1)}`;
    target.respondFor(path, 200);
    const behind = await create({
      name: 'behind core',
      url: `${target.url}${path}`,
      retries: 0,
      dependsOn: [{ type: 'monitor', id: core.id }],
    });
    await waitFor(
      () => read(behind.id),
      (m) => m.status === 'up',
    );
    await check(router.monitor.id, 500, router.path);
    expect(await statusOf(core.id)).toBe('down');
    await check(behind.id, 500, path);
    expect(await statusOf(behind.id)).toBe('unreachable');
  });

  it('detaches the members of a deleted group', async () => {
    const doomed = await group('doomed');
    const { monitor } = await upMember(doomed.id);
    await api().delete(`/api/monitors/${doomed.id}`).set(member.auth).expect(200);
    expect((await read(monitor.id)).parent_id).toBeNull();
  });
});
