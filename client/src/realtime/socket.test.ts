import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAgentDetailStore } from '../features/agents/detailStore';
import { useAgentEnrolmentStore } from '../features/agents/enrolmentStore';
import { useAgentsStore } from '../features/agents/listStore';
import { useAuthStore } from '../features/auth/store';
import { useMonitorDetailStore } from '../features/monitors/detailStore';
import { useDashboardMonitorsStore, useMonitorsStore } from '../features/monitors/listStore';
import { useUsersStore } from '../features/users/store';
import { useDashboardStore } from '../features/dashboard/store';
import { useWallStore } from '../features/wall/store';
import { makeChange, makeDashboardSummary, makeWallData } from '../test/status';
import { agentsPage, makeAgent, makePoint } from '../test/agents';
import { makeCheck, makeMonitor, monitorsPage } from '../test/monitors';
import { ADMIN, jsonResponse, MEMBER } from '../test/render';
import { useRealtimeStore } from './store';

type Handler = (...args: unknown[]) => void;

/** A stand-in for socket.io's client socket that records what the module asks of it. */
class FakeSocket {
  handlers = new Map<string, Handler>();
  emitted: unknown[][] = [];
  connected = false;
  disconnected = false;
  constructor(readonly options: { auth: { token?: string; displayKey?: string } }) {}
  on(event: string, handler: Handler) {
    this.handlers.set(event, handler);
    return this;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  connects = 0;
  connect() {
    this.connects += 1;
    return this;
  }
  disconnect() {
    this.disconnected = true;
    this.connected = false;
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  /** Simulates an event arriving from the server. */
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    this.handlers.get(event)?.(...args);
  }
}

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: (options: { auth: { token?: string; displayKey?: string } }) => {
    const socket = new FakeSocket(options);
    sockets.push(socket);
    return socket;
  },
}));

const { startRealtime, joinRoom, connectWithDisplayKey } = await import('./socket');

describe('realtime module', () => {
  let stop: () => void = () => undefined;

  beforeEach(() => {
    sockets.length = 0;
    useAuthStore.setState({ user: null, token: null, loading: true });
    useUsersStore.setState({ users: [], total: 0, page: 1, status: 'idle', error: null });
  });

  afterEach(() => stop());

  it('waits for authentication to settle, then connects with the current token', () => {
    stop = startRealtime();
    expect(sockets).toHaveLength(0);

    useAuthStore.setState({ user: ADMIN, token: 'admin-token', loading: false });

    expect(sockets).toHaveLength(1);
    expect(sockets[0].options.auth).toEqual({ token: 'admin-token' });
    expect(useRealtimeStore.getState().status).toBe('connecting');
    sockets[0].fire('connect');
    expect(useRealtimeStore.getState().status).toBe('connected');
  });

  it('reconnects with the new identity on login, token change and logout', () => {
    useAuthStore.setState({ loading: false });
    stop = startRealtime();
    expect(sockets[0].options.auth).toEqual({});

    useAuthStore.setState({ user: MEMBER, token: 'first' });
    useAuthStore.setState({ token: 'second' });
    useAuthStore.setState({ user: null, token: null });

    expect(sockets.map((socket) => socket.options.auth)).toEqual([{}, { token: 'first' }, { token: 'second' }, {}]);
    expect(sockets.slice(0, 3).every((socket) => socket.disconnected)).toBe(true);
    expect(sockets[3].disconnected).toBe(false);
  });

  it('does not reconnect when only the user object changes', () => {
    useAuthStore.setState({ user: MEMBER, token: 't1', loading: false });
    stop = startRealtime();
    useAuthStore.setState({ user: { ...MEMBER, username: 'renamed' } });
    expect(sockets).toHaveLength(1);
  });

  it('reports the connection as offline when it drops', () => {
    useAuthStore.setState({ loading: false });
    stop = startRealtime();
    sockets[0].fire('connect');
    sockets[0].fire('disconnect', 'transport close');
    expect(useRealtimeStore.getState().status).toBe('offline');
  });

  it('maps users.changed pushes onto the user table', () => {
    useAuthStore.setState({ user: ADMIN, token: 'admin-token', loading: false });
    useUsersStore.setState({ users: [ADMIN, MEMBER], total: 2, page: 1, status: 'ready' });
    stop = startRealtime();
    const socket = sockets[0];
    socket.fire('connect');

    const carol = { ...MEMBER, id: 3, username: 'carol' };
    socket.fire('users.changed', { action: 'created', user: carol });
    expect(useUsersStore.getState().users.map((row) => row.username)).toEqual(['alice', 'bob', 'carol']);
    expect(useUsersStore.getState().total).toBe(3);

    socket.fire('users.changed', { action: 'updated', user: { ...MEMBER, role: 'admin' } });
    expect(useUsersStore.getState().users[1].role).toBe('admin');

    socket.fire('users.changed', { action: 'deleted', user: carol });
    expect(useUsersStore.getState().users.map((row) => row.id)).toEqual([1, 2]);
    expect(useUsersStore.getState().total).toBe(2);
  });

  it('maps monitor pushes onto the list, the dashboard and the detail page', async () => {
    useAuthStore.setState({ user: MEMBER, token: 't1', loading: false });
    const monitor = makeMonitor({ id: 5, status: 'up' });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(jsonResponse(200, url === '/api/monitors/5' ? { success: true, monitor } : monitorsPage([monitor]))),
      ),
    );
    await Promise.all([
      useMonitorsStore.getState().load(),
      useDashboardMonitorsStore.getState().load(),
      useMonitorDetailStore.getState().load(5),
    ]);
    stop = startRealtime();
    const socket = sockets[0];
    socket.fire('connect');

    const check = makeCheck({ id: 8, status: 'down', checked_at: '2025-03-01T10:30:00.000Z' });
    socket.fire('monitor.checked', {
      monitorId: 5,
      check,
      status: 'pending',
      response_time: null,
      uptime: 90,
      last_checked: check.checked_at,
    });
    socket.fire('monitor.status_changed', {
      monitorId: 5,
      name: monitor.name,
      previous: 'up',
      status: 'pending',
      check,
      changed_at: check.checked_at,
    });

    for (const store of [useMonitorsStore, useDashboardMonitorsStore]) {
      expect(store.getState().rows[0]).toMatchObject({ status: 'pending', uptime: 90 });
      expect(store.getState().counts).toMatchObject({ up: 0, pending: 1 });
    }
    expect(useMonitorDetailStore.getState().monitor).toMatchObject({ status: 'pending', checks: [check] });

    socket.fire('monitors.changed', { action: 'deleted', monitor });
    expect(useMonitorsStore.getState().rows).toEqual([]);
    expect(useMonitorDetailStore.getState().removed).toBe(true);
  });

  it('maps agent pushes onto the list, the detail page and the create page', async () => {
    useAuthStore.setState({ user: MEMBER, token: 't1', loading: false });
    const agent = makeAgent({ id: 3, status: 'active', registration_id: 11 });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => Promise.resolve(jsonResponse(200, url === '/api/agents/3' ? { success: true, agent } : agentsPage([agent])))),
    );
    await Promise.all([useAgentsStore.getState().load(), useAgentDetailStore.getState().load(3)]);
    useAgentEnrolmentStore.getState().watch(12);
    stop = startRealtime();
    const socket = sockets[0];
    socket.fire('connect');

    socket.fire('agent.reported', { agentId: 3, agent: { ...agent, cpu_usage: 91 }, point: makePoint() });
    socket.fire('agent.status_changed', {
      agentId: 3,
      name: agent.name,
      previous: 'active',
      status: 'inactive',
      changed_at: agent.updated_at,
    });
    expect(useAgentsStore.getState().rows[0]).toMatchObject({ cpu_usage: 91, status: 'inactive' });
    expect(useAgentsStore.getState().counts).toMatchObject({ active: 0, inactive: 1 });
    expect(useAgentDetailStore.getState().agent).toMatchObject({ cpu_usage: 91, status: 'inactive' });

    const enrolled = makeAgent({ id: 4, status: 'connecting', registration_id: 12 });
    socket.fire('agents.changed', { action: 'created', agent: enrolled });
    expect(useAgentEnrolmentStore.getState().registered.map((row) => row.id)).toEqual([4]);
    expect(useAgentsStore.getState().rows.map((row) => row.id)).toEqual([3, 4]);

    socket.fire('agents.changed', { action: 'deleted', agent });
    expect(useAgentDetailStore.getState().removed).toBe(true);
    useAgentEnrolmentStore.getState().reset();
  });

  it('keeps the signed-in user current when their own account changes elsewhere', () => {
    useAuthStore.setState({ user: ADMIN, token: 'admin-token', loading: false });
    stop = startRealtime();
    sockets[0].fire('users.changed', { action: 'updated', user: { ...ADMIN, username: 'alice2' } });
    expect(useAuthStore.getState().user?.username).toBe('alice2');
  });

  it('maps wall pushes onto its store', async () => {
    useAuthStore.setState({ loading: false });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, { success: true, data: makeWallData() }))),
    );
    useWallStore.getState().open(null);
    await useWallStore.getState().load();
    stop = startRealtime();
    const socket = sockets[0];
    socket.fire('connect');
    socket.fire('wall.change', makeChange({ kind: 'monitor', id: 2, name: 'beta', status: 'down' }));
    expect(useWallStore.getState().data?.monitors.map((row) => row.name)).toEqual(['beta', 'alpha']);
    expect(useWallStore.getState().data?.recent_changes).toHaveLength(1);
  });

  it('feeds status transitions into the dashboard summary', () => {
    useAuthStore.setState({ user: MEMBER, token: 't1', loading: false });
    useDashboardStore.setState({ summary: makeDashboardSummary(), status: 'ready' });
    stop = startRealtime();
    sockets[0].fire('connect');
    sockets[0].fire('agent.status_changed', {
      agentId: 3,
      name: 'db',
      previous: 'active',
      status: 'inactive',
      changed_at: '2025-03-01T10:00:00.000Z',
    });
    expect(useDashboardStore.getState().summary?.agents).toMatchObject({ active: 2, inactive: 2 });
    expect(useDashboardStore.getState().summary?.recent_changes[0]).toMatchObject({ kind: 'agent', id: 3 });
  });

  it('connects a wall screen with its display key instead of the token, and gives the socket back afterwards', () => {
    useAuthStore.setState({ user: MEMBER, token: 'session-token', loading: false });
    stop = startRealtime();
    const release = connectWithDisplayKey('vgd_key');
    expect(sockets.map((socket) => socket.options.auth)).toEqual([{ token: 'session-token' }, { displayKey: 'vgd_key' }]);
    // The session changing meanwhile does not touch the wall's socket.
    useAuthStore.setState({ user: null, token: null });
    expect(sockets).toHaveLength(2);
    release();
    expect(sockets.map((socket) => socket.options.auth).at(-1)).toEqual({});
  });

  it('opens the wall socket before the session settles: a display key needs none', () => {
    useAuthStore.setState({ user: null, token: 'stale', loading: true });
    stop = startRealtime();
    const release = connectWithDisplayKey('vgd_key');
    expect(sockets.map((socket) => socket.options.auth)).toEqual([{ displayKey: 'vgd_key' }]);
    release();
  });

  it('stops a wall screen whose key is revoked while it is open, without checking the session', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ loading: false });
    useWallStore.getState().open('vgd_key');
    stop = startRealtime();
    const release = connectWithDisplayKey('vgd_key');
    sockets.at(-1)!.fire('auth.error', { message: 'This display link is invalid or was revoked', code: 'wall.keyInvalid' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(useWallStore.getState().rejected).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
    release();
    vi.useRealTimers();
  });

  it.each([
    [401, true, 0],
    [500, false, 1],
  ])('checks a refused wall handshake over HTTP (%i): refused %s, %i retries', async (status, rejected, retries) => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ success: false, message: 'x', code: 'wall.keyInvalid' }), { status }))),
    );
    useAuthStore.setState({ loading: false });
    useWallStore.getState().open('vgd_key');
    stop = startRealtime();
    const release = connectWithDisplayKey('vgd_key');
    const socket = sockets.at(-1)!;
    socket.fire(
      'connect_error',
      Object.assign(new Error('Your session has expired, please log in again'), { data: { code: 'auth.tokenInvalid' } }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(useWallStore.getState().rejected).toBe(rejected);
    expect(socket.connects).toBe(1 + retries);
    release();
    vi.useRealTimers();
  });

  it('leaves an unreachable server to socket.io, which retries by itself', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ loading: false });
    stop = startRealtime();
    const release = connectWithDisplayKey('vgd_key');
    sockets.at(-1)!.fire('connect_error', new Error('xhr poll error'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useRealtimeStore.getState().status).toBe('offline');
    release();
    vi.useRealTimers();
  });

  it('re-joins wanted rooms after every connect and leaves them when no screen needs them', () => {
    useAuthStore.setState({ user: MEMBER, token: 't1', loading: false });
    stop = startRealtime();
    const leave = joinRoom('monitors');
    const socket = sockets[0];
    socket.fire('connect');
    expect(socket.emitted.filter(([event]) => event === 'subscribe').map(([, room]) => room)).toEqual(['monitors']);

    leave();
    expect(socket.emitted.filter(([event]) => event === 'unsubscribe').map(([, room]) => room)).toEqual(['monitors']);
  });
});

describe('realtime module on a revoked token', () => {
  let stop: () => void = () => undefined;
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('checks the session shortly after auth.error unless a new token arrived meanwhile', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ success: true, user: MEMBER }), { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ user: MEMBER, token: 'old', loading: false });
    stop = startRealtime();

    sockets[sockets.length - 1].fire('auth.error', { message: 'expired' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/me', expect.anything());

    fetchMock.mockClear();
    sockets[sockets.length - 1].fire('auth.error', { message: 'expired' });
    // A password change stored its new token before the check ran: nothing to verify.
    useAuthStore.setState({ token: 'new' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
