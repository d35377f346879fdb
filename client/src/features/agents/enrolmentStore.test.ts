import { beforeEach, describe, expect, it, vi } from 'vitest';
import { agentsPage, makeAgent, makePoint } from '../../test/agents';
import { jsonResponse } from '../../test/render';
import { pushHandlers } from '../../realtime/handlers';
import { useAgentEnrolmentStore } from './enrolmentStore';

describe('agent enrolment store', () => {
  beforeEach(() => useAgentEnrolmentStore.getState().reset());
  const sut = () => useAgentEnrolmentStore.getState();
  // Reports, transitions and renames reach the shown agents through the cache, as the realtime module writes them.
  const handlers = pushHandlers();

  it('shows an agent that registered with the watched token, and no other', () => {
    sut().watch(42);
    sut().applyChange({ action: 'created', agent: makeAgent({ id: 1, registration_id: 41 }) });
    sut().applyChange({ action: 'created', agent: makeAgent({ id: 2, registration_id: 42 }) });
    expect(sut().registered.map((agent) => agent.id)).toEqual([2]);
  });

  it('keeps the shown agents current: status, figures, rename and deletion', () => {
    sut().watch(42);
    const agent = makeAgent({ id: 2, registration_id: 42, status: 'connecting' });
    sut().applyChange({ action: 'created', agent });
    handlers['agent.status_changed']({
      agentId: 2,
      name: agent.name,
      previous: 'connecting',
      status: 'active',
      changed_at: agent.updated_at,
    });
    expect(sut().registered[0].status).toBe('active');
    handlers['agent.reported']({ agentId: 2, agent: { ...agent, status: 'active', cpu_usage: 50 }, point: makePoint() });
    expect(sut().registered[0].cpu_usage).toBe(50);
    handlers['agents.changed']({ action: 'updated', agent: { ...agent, name: 'renamed' } });
    expect(sut().registered[0].name).toBe('renamed');
    sut().applyChange({ action: 'deleted', agent });
    expect(sut().registered).toEqual([]);
  });

  it('ignores pushes while no token is watched', () => {
    sut().applyChange({ action: 'created', agent: makeAgent({ registration_id: null }) });
    expect(sut().registered).toEqual([]);
  });

  it('finds agents of the token among the newest when it refreshes without the socket', async () => {
    const fetchMock = vi.fn((url: string) => {
      if (url === '/api/agents?page=1&pageSize=1') return Promise.resolve(jsonResponse(200, agentsPage([makeAgent()], { total: 250 })));
      return Promise.resolve(
        jsonResponse(200, agentsPage([makeAgent({ id: 249, registration_id: 7 }), makeAgent({ id: 250, registration_id: 42 })])),
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    sut().watch(42);
    await sut().refresh();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/agents?page=1&pageSize=1', '/api/agents?page=3&pageSize=100']);
    expect(sut().registered.map((agent) => agent.id)).toEqual([250]);
  });
});
