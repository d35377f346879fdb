import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAgent, makePoint } from '../../test/agents';
import { jsonResponse } from '../../test/render';
import { pushHandlers } from '../../realtime/handlers';
import { useAgentDetailStore, withLivePoint } from './detailStore';

const minute = (m: number) => `2025-03-02T10:${String(m).padStart(2, '0')}:00.000Z`;

describe('agent detail store', () => {
  const agent = makeAgent({ id: 4 });
  let fetchMock: ReturnType<typeof vi.fn>;
  let points = [makePoint({ time: minute(0) }), makePoint({ time: minute(1) })];

  beforeEach(() => {
    useAgentDetailStore.setState({ id: null, agent: null, status: 'idle', error: null, removed: false });
    points = [makePoint({ time: minute(0) }), makePoint({ time: minute(1) })];
    fetchMock = vi.fn((url: string) => {
      if (url === '/api/agents/4') return Promise.resolve(jsonResponse(200, { success: true, agent }));
      if (url.startsWith('/api/agents/4/metrics')) {
        const range = new URL(url, 'http://localhost').searchParams.get('range');
        return Promise.resolve(jsonResponse(200, { success: true, metrics: { range, step: range === '1h' ? 60 : 300, points } }));
      }
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Agent not found', code: 'agents.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const sut = () => useAgentDetailStore.getState();
  // Pushes as the realtime module applies them: to the cache the page reads, and to the page's own state.
  const handlers = pushHandlers();

  it('loads the agent, and marks an unknown one as missing', async () => {
    await sut().load(4);
    expect(sut()).toMatchObject({ id: 4, status: 'ready', agent: { id: 4 } });
    await sut().load(5);
    expect(sut()).toMatchObject({ id: 5, status: 'missing', agent: null });
  });

  it('keeps the agent when a background refresh fails', async () => {
    await sut().load(4);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await sut().load(4, { quiet: true });
    expect(sut()).toMatchObject({ status: 'ready', agent: { id: 4 } });
  });

  it('grows the hour chart with every report of this agent and takes its new figures', async () => {
    await sut().load(4);
    await sut().loadMetrics('1h');
    const reported = { ...agent, cpu_usage: 77.7, updated_at: minute(31) };
    handlers['agent.reported']({ agentId: 4, agent: reported, point: makePoint({ time: minute(2), cpu: 77.7 }) });
    expect(sut().agent?.cpu_usage).toBe(77.7);
    expect(sut().metrics.points.map((point) => point.time)).toEqual([minute(0), minute(1), minute(2)]);
  });

  it('keeps a pushed report when a read answered before it was stored comes in after it', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const loading = sut().load(4);
    // The agent's first report is pushed while the page's read (taken before it was stored) is still on its way.
    const reported = { ...agent, cpu_usage: 12.5, updated_at: minute(40) };
    handlers['agent.reported']({ agentId: 4, agent: reported, point: makePoint({ time: minute(40), cpu: 12.5 }) });
    answer(jsonResponse(200, { success: true, agent: { ...agent, cpu_usage: null, updated_at: minute(39) } }));
    await loading;
    expect(sut()).toMatchObject({ status: 'ready', agent: { id: 4, cpu_usage: 12.5 } });
  });

  it('leaves longer ranges to be re-read, and ignores reports of other agents', async () => {
    await sut().load(4);
    await sut().loadMetrics('24h');
    handlers['agent.reported']({ agentId: 4, agent, point: makePoint({ time: minute(2) }) });
    expect(sut().metrics).toMatchObject({ range: '24h', step: 300 });
    expect(sut().metrics.points).toHaveLength(2);

    handlers['agent.reported']({ agentId: 9, agent: makeAgent({ id: 9, cpu_usage: 1 }), point: makePoint({ time: minute(3) }) });
    expect(sut().agent?.id).toBe(4);
  });

  it('follows status transitions and renames, and notes a deletion', async () => {
    await sut().load(4);
    handlers['agent.status_changed']({ agentId: 4, name: agent.name, previous: 'active', status: 'inactive', changed_at: minute(5) });
    expect(sut().agent?.status).toBe('inactive');
    handlers['agents.changed']({ action: 'updated', agent: { ...agent, name: 'renamed' } });
    expect(sut().agent?.name).toBe('renamed');
    handlers['agents.changed']({ action: 'deleted', agent });
    expect(sut().removed).toBe(true);
  });
});

describe('live chart points', () => {
  it('appends a newer point and drops those older than an hour before it', () => {
    const kept = [makePoint({ time: '2025-03-02T09:00:00.000Z' }), makePoint({ time: '2025-03-02T09:30:00.000Z' })];
    const next = withLivePoint(kept, makePoint({ time: '2025-03-02T10:00:30.000Z' }));
    expect(next.map((point) => point.time)).toEqual(['2025-03-02T09:30:00.000Z', '2025-03-02T10:00:30.000Z']);
  });

  it('ignores a point already shown or older than the last one', () => {
    const kept = [makePoint({ time: minute(1) })];
    expect(withLivePoint(kept, makePoint({ time: minute(1) }))).toBe(kept);
    expect(withLivePoint(kept, makePoint({ time: minute(0) }))).toBe(kept);
  });
});
