import type { DependencyRef } from '@vigil/proto';
import { agentDependencies, withSettingsAgents } from './settings-agents';

const agent = (id: number): DependencyRef => ({ type: 'agent', id });
const monitor = (id: number): DependencyRef => ({ type: 'monitor', id });

describe('dependencies on the agents a monitor’s settings name', () => {
  it.each<[string, DependencyRef[], number[], number[], DependencyRef[]]>([
    ['adds the agent', [monitor(1)], [], [4], [monitor(1), agent(4)]],
    ['keeps it once when already there', [agent(4), monitor(1)], [4], [4], [agent(4), monitor(1)]],
    ['moves it with the setting', [monitor(1), agent(4)], [4], [5], [monitor(1), agent(5)]],
    ['leaves other agents alone', [agent(9)], [4], [5], [agent(9), agent(5)]],
  ])('%s', (_, dependsOn, before, after, expected) => {
    expect(withSettingsAgents(dependsOn, before, after)).toEqual(expected);
  });

  const existing = async (refs: DependencyRef[]) => refs.filter((ref) => ref.id !== 404);
  const container = (agentId: number) => ({ type: 'container' as const, settings: { agentId, containerName: 'web' } });

  it('makes a new container monitor depend on its agent', async () => {
    expect(await agentDependencies({ ...container(4), dependsOn: [monitor(1)] }, null, existing)).toEqual([monitor(1), agent(4)]);
  });

  it('refuses an agent that does not exist, naming the setting', async () => {
    await expect(agentDependencies({ ...container(404), dependsOn: [] }, null, existing)).rejects.toMatchObject({
      code: 'monitors.settingsAgentUnknown',
      response: expect.objectContaining({ field: 'agentId' }),
    });
  });

  it('changes nothing on an edit that keeps the agent and sends no dependencies', async () => {
    const current = { ...container(4), depends_on: [agent(4)] };
    expect(await agentDependencies(container(4), current, existing)).toBeUndefined();
  });

  it('follows an edit to another agent, and a type that names none', async () => {
    const current = { ...container(4), depends_on: [monitor(1), agent(4)] };
    expect(await agentDependencies(container(5), current, existing)).toEqual([monitor(1), agent(5)]);
    expect(await agentDependencies({ type: 'http', settings: {} }, current, existing)).toEqual([monitor(1)]);
  });

  it('asks nothing for a type that names no agent', async () => {
    const ask = jest.fn();
    expect(await agentDependencies({ type: 'http', settings: {}, dependsOn: [monitor(1)] }, null, ask)).toBeUndefined();
    expect(ask).not.toHaveBeenCalled();
  });
});
