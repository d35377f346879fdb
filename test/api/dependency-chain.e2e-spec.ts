import request from 'supertest';
import type { DependencyChainResponse, MonitorResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The detail pages' chain (`GET /api/{monitors,agents}/{id}/dependencies`): what an item depends on and what depends on
 * it, transitively, nearest first, each once at its shortest depth, with its status; 404 for an unknown item. Paused
 * monitors never check, so the statuses are the stored `pending` and nothing races the assertions.
 */
describe('dependency chain', () => {
  let app: TestApp;
  let admin: Session;
  const ids: Record<string, number> = {};

  const api = () => request(app.url);
  const chain = async (path: string): Promise<DependencyChainResponse> => (await api().get(path).set(admin.auth).expect(200)).body;
  const summary = (items: DependencyChainResponse['dependents']) =>
    items.map((item) => [item.name, item.ref.type, item.depth, item.active]);

  async function monitor(name: string, dependsOn: string[] = []): Promise<void> {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({
        name,
        url: 'https://example.invalid/',
        active: false,
        dependsOn: dependsOn.map((dependency) => ({ type: 'monitor', id: ids[dependency] })),
      })
      .expect(201);
    ids[name] = (body as MonitorResponse).monitor.id;
  }

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    // A diamond on a chain: router ← switch ← (shop, search) ← checkout depends on both, and on the router directly.
    await monitor('router');
    await monitor('switch', ['router']);
    await monitor('shop', ['switch']);
    await monitor('search', ['switch']);
    await monitor('checkout', ['shop', 'search', 'router']);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('lists what a monitor depends on, transitively, each once at its shortest depth', async () => {
    const answer = await chain(`/api/monitors/${ids.checkout}/dependencies`);
    expect(summary(answer.dependencies)).toEqual([
      ['router', 'monitor', 1, false],
      ['search', 'monitor', 1, false],
      ['shop', 'monitor', 1, false],
      ['switch', 'monitor', 2, false],
    ]);
    expect(answer.dependencies[0]).toMatchObject({ ref: { type: 'monitor', id: ids.router }, status: 'pending', unreachable: false });
    expect(answer.dependents).toEqual([]);
  });

  it('lists what depends on a monitor, transitively', async () => {
    const answer = await chain(`/api/monitors/${ids.router}/dependencies`);
    expect(answer.dependencies).toEqual([]);
    expect(summary(answer.dependents)).toEqual([
      ['checkout', 'monitor', 1, false],
      ['switch', 'monitor', 1, false],
      ['search', 'monitor', 2, false],
      ['shop', 'monitor', 2, false],
    ]);
  });

  it('answers 404 for a monitor or an agent that does not exist', async () => {
    const monitor = await api().get('/api/monitors/999999/dependencies').set(admin.auth).expect(404);
    expect(monitor.body).toMatchObject({ success: false, code: 'monitors.notFound' });
    const agent = await api().get('/api/agents/999999/dependencies').set(admin.auth).expect(404);
    expect(agent.body).toMatchObject({ success: false, code: 'agents.notFound' });
  });

  it('answers 404 for an id that is not a number, as every route with an id does', async () => {
    await api().get('/api/monitors/abc/dependencies').set(admin.auth).expect(404);
  });
});
