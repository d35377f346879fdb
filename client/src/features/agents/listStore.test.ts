import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentsPage, makeAgent, makePoint } from '../../test/agents';
import { jsonResponse } from '../../test/render';
import { pushHandlers } from '../../realtime/handlers';
import { createAgentListStore, RESYNC_DELAY_MS } from './listStore';

describe('agent list store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let sut: ReturnType<typeof createAgentListStore>;
  const web = makeAgent({ id: 1, name: 'web', status: 'active' });
  const db = makeAgent({ id: 2, name: 'db', status: 'inactive' });

  beforeEach(() => {
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, agentsPage([web, db]))));
    vi.stubGlobal('fetch', fetchMock);
    sut = createAgentListStore(2);
  });
  afterEach(() => vi.useRealTimers());

  const requested = () => fetchMock.mock.calls.map(([url]) => String(url));
  const ids = () => sut.getState().rows.map((agent) => agent.id);
  // The realtime module writes a pushed row to the cache; counts and membership are this list's own.
  const handlers = pushHandlers();

  it('asks the server for one page with the status and search', async () => {
    await sut.getState().load({ status: 'inactive', search: ' web ', page: 3 });
    expect(requested()).toEqual(['/api/agents?page=3&pageSize=2&status=inactive&search=web']);
    expect(sut.getState()).toMatchObject({ status: 'ready', total: 2, counts: { active: 1, inactive: 1, total: 2 } });
  });

  it('does not send the "all" status or an empty search', async () => {
    await sut.getState().load({ status: 'all', search: '  ' });
    expect(requested()).toEqual(['/api/agents?page=1&pageSize=2']);
  });

  it('keeps only the answer of the latest request when the page changes quickly', async () => {
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    fetchMock.mockImplementationOnce(() => Promise.resolve(jsonResponse(200, agentsPage([db], { total: 3 }))));
    const slow = sut.getState().load({ page: 1 });
    await sut.getState().load({ page: 2 });
    release(jsonResponse(200, agentsPage([web, db])));
    await slow;
    expect(ids()).toEqual([2]);
    expect(sut.getState().query.page).toBe(2);
  });

  it('keeps the rows on screen while the next page loads', async () => {
    await sut.getState().load();
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const next = sut.getState().load({ page: 2 }, { keepRows: true });
    expect(sut.getState()).toMatchObject({ status: 'ready', fetching: true });
    expect(ids()).toEqual([1, 2]);
    release(jsonResponse(200, agentsPage([makeAgent({ id: 3 })], { total: 3, page: 2 })));
    await next;
    expect(ids()).toEqual([3]);
  });

  it('falls back to the last page when the current one was emptied elsewhere', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([], { total: 2 })));
    await sut.getState().load({ page: 4 });
    expect(requested()).toEqual(['/api/agents?page=4&pageSize=2', '/api/agents?page=1&pageSize=2']);
    expect(sut.getState().query.page).toBe(1);
  });

  it('patches the row of a reporting agent with its new figures and leaves the other rows as they were', async () => {
    await sut.getState().load();
    const before = sut.getState().rows;
    handlers['agent.reported']({ agentId: 1, agent: { ...web, cpu_usage: 88.8, network_rx: 2048 }, point: makePoint() });
    const after = sut.getState().rows;
    expect(after[0]).toMatchObject({ id: 1, cpu_usage: 88.8, network_rx: 2048 });
    expect(after[1]).toBe(before[1]);
  });

  it('ignores a report of an agent on another page', async () => {
    await sut.getState().load();
    const before = sut.getState().rows;
    handlers['agent.reported']({ agentId: 9, agent: makeAgent({ id: 9 }), point: makePoint() });
    expect(sut.getState().rows).toBe(before);
  });

  it('moves the row status and the counts on a transition, also for agents on other pages', async () => {
    await sut.getState().load();
    const transition = { name: 'x', changed_at: '2025-03-02T10:31:00.000Z' };
    for (const event of [
      { ...transition, agentId: 1, previous: 'active' as const, status: 'inactive' as const },
      { ...transition, agentId: 99, previous: 'connecting' as const, status: 'active' as const },
    ]) {
      sut.getState().applyStatusChanged(event);
      handlers['agent.status_changed'](event);
    }
    expect(sut.getState().rows[0].status).toBe('inactive');
    expect(sut.getState().counts).toEqual({ active: 1, inactive: 2, connecting: 0, unreachable: 0, maintenance: 0, total: 2 });
  });

  it('counts an agent gone offline behind a down dependency as offline and unreachable, and back online from there', async () => {
    await sut.getState().load();
    const transition = { name: 'web', agentId: 1, changed_at: '2025-03-02T10:31:00.000Z' };
    const offline = {
      ...transition,
      previous: 'active' as const,
      status: 'inactive' as const,
      previous_unreachable: false,
      unreachable: true,
    };
    sut.getState().applyStatusChanged(offline);
    handlers['agent.status_changed'](offline);
    expect(sut.getState().counts).toEqual({ active: 0, inactive: 2, connecting: 0, unreachable: 1, maintenance: 0, total: 2 });
    expect(sut.getState().rows[0]).toMatchObject({ status: 'inactive', unreachable: true });

    const back = {
      ...transition,
      previous: 'inactive' as const,
      status: 'connecting' as const,
      previous_unreachable: true,
      unreachable: false,
    };
    sut.getState().applyStatusChanged(back);
    handlers['agent.status_changed'](back);
    expect(sut.getState().counts).toEqual({ active: 0, inactive: 1, connecting: 1, unreachable: 0, maintenance: 0, total: 2 });
    expect(sut.getState().rows[0]).toMatchObject({ status: 'connecting', unreachable: false });
  });

  it('asks the server for the unreachable agents among the offline ones', async () => {
    await sut.getState().load({ status: 'unreachable' });
    expect(requested()).toEqual(['/api/agents?page=1&pageSize=2&status=unreachable']);
  });

  it('re-reads the page after a transition when a status filter may move the agent in or out', async () => {
    vi.useFakeTimers();
    await sut.getState().load({ status: 'active' });
    sut
      .getState()
      .applyStatusChanged({ agentId: 1, name: 'web', previous: 'active', status: 'inactive', changed_at: '2025-03-02T10:31:00.000Z' });
    await vi.advanceTimersByTimeAsync(RESYNC_DELAY_MS);
    expect(requested()).toEqual(['/api/agents?page=1&pageSize=2&status=active', '/api/agents?page=1&pageSize=2&status=active']);
  });

  it('adds a newly registered agent at the end of the last page and counts it', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([web])));
    await sut.getState().load();
    sut.getState().applyChange({ action: 'created', agent: makeAgent({ id: 7, status: 'connecting' }) });
    expect(ids()).toEqual([1, 7]);
    expect(sut.getState()).toMatchObject({ total: 2, counts: { active: 1, connecting: 1, total: 2 } });
  });

  it('counts but does not list a new agent the filter excludes or the full page has no room for', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([web])));
    await sut.getState().load({ status: 'active' });
    sut.getState().applyChange({ action: 'created', agent: makeAgent({ id: 7, status: 'connecting' }) });
    expect(ids()).toEqual([1]);
    expect(sut.getState()).toMatchObject({ total: 1, counts: { connecting: 1, total: 2 } });

    await sut.getState().load({ status: 'all' });
    sut.getState().applyChange({ action: 'created', agent: makeAgent({ id: 8 }) });
    expect(ids()).toEqual([1, 2]);
    expect(sut.getState().total).toBe(3);
  });

  it('shows a rename at once', async () => {
    await sut.getState().load();
    sut.getState().applyChange({ action: 'updated', agent: { ...db, name: 'database' } });
    handlers['agents.changed']({ action: 'updated', agent: { ...db, name: 'database' } });
    expect(sut.getState().rows[1].name).toBe('database');
  });

  it('counts a deletion once when the push arrives before the answer, then re-reads the page', async () => {
    vi.useFakeTimers();
    await sut.getState().load();
    fetchMock.mockImplementationOnce(async () => {
      sut.getState().applyChange({ action: 'deleted', agent: web });
      return jsonResponse(200, { success: true, message: 'Agent deleted' });
    });
    await sut.getState().remove(1);
    expect(ids()).toEqual([2]);
    expect(sut.getState()).toMatchObject({ total: 1, counts: { active: 0, inactive: 1, total: 1 } });

    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([db, makeAgent({ id: 3 })], { total: 2 })));
    await vi.advanceTimersByTimeAsync(RESYNC_DELAY_MS);
    expect(ids()).toEqual([2, 3]);
  });

  it('reads again when an agent is created while a read that may predate it is on its way', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([web])));
    await sut.getState().load();
    // A background refresh is read before the agent exists and answers after its push (a CI run lost it so).
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const refresh = sut.getState().load({}, { quiet: true });
    const newcomer = makeAgent({ id: 7, name: 'newcomer', status: 'connecting' });
    sut.getState().applyChange({ action: 'created', agent: newcomer });
    release(jsonResponse(200, agentsPage([web])));
    await refresh;
    expect(ids()).toEqual([1]);

    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([web, newcomer])));
    await vi.advanceTimersByTimeAsync(RESYNC_DELAY_MS);
    expect(ids()).toEqual([1, 7]);
  });

  it('reads again when a push came while the first page was loading', async () => {
    vi.useFakeTimers();
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const first = sut.getState().load();
    sut.getState().applyChange({ action: 'created', agent: db });
    release(jsonResponse(200, agentsPage([web])));
    await first;
    fetchMock.mockResolvedValueOnce(jsonResponse(200, agentsPage([web, db])));
    await vi.advanceTimersByTimeAsync(RESYNC_DELAY_MS);
    expect(ids()).toEqual([1, 2]);
  });

  it('ignores pushes until a page has loaded', () => {
    sut.getState().applyChange({ action: 'created', agent: web });
    handlers['agent.reported']({ agentId: 1, agent: web, point: makePoint() });
    expect(sut.getState()).toMatchObject({ rows: [], total: 0 });
  });
});
