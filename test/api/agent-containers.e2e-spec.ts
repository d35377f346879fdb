import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MESSAGES, type AgentDto, type AlertDto, type MonitorDto } from '@vigil/proto';
import { FakeEngine, fixture, json } from '../../agent/src/fake-engine.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const BUNDLE = join(__dirname, '../../agent/dist/vigil-agent.mjs');

type EngineItem = { Id: string; Names: string[]; State: string; Status: string };

/**
 * Issue 32, requirements 6 and 8: the built agent reads a fake Docker Engine API on a Unix socket (the Engine API
 * documentation's shapes, agent/src/fixtures/engine) and a stand-in `systemctl` on its PATH; stopping a container
 * makes the container monitor bound to that agent go down and the container-down alert reach a loopback webhook,
 * its start brings both back; a watched unit that fails alerts and recovers the same way.
 */
describe('containers and services that alert, and the container monitor', () => {
  let app: TestApp;
  let admin: Session;
  let hook: FakeService;
  let dir: string;
  let engine: FakeEngine;
  let agentProcess: ChildProcess | null = null;
  let output = '';
  let agent: AgentDto;
  /** The container monitor on `web`, made by the second test. */
  let webMonitor = 0;
  const containers = JSON.parse(fixture('containers.json')) as EngineItem[];
  const web = containers.find((c) => c.Names[0] === '/web')!;
  const unitsFile = () => join(dir, 'units.txt');
  const unit = (active: string, sub: string) =>
    writeFile(unitsFile(), `Id=nginx.service\nLoadState=loaded\nActiveState=${active}\nSubState=${sub}\n`);

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: build it with npm run build -w agent`);
    [app, hook] = await Promise.all([
      startTestApp({ env: { ALERT_THRESHOLD_REPORTS: '2', AGENT_GRACE_SECONDS: '2' } }),
      startFakeService(),
    ]);
    admin = await registerFirstAdmin(app.url);
    dir = await mkdtemp(join(tmpdir(), 'vigil-containers-'));

    engine = new FakeEngine(join(dir, 'docker.sock'));
    // The list is answered from `containers` as the test changes it; every running container has its stats.
    engine.routes.set('/containers/json', (res: ServerResponse) => json(JSON.stringify(containers))(res));
    for (const [name, stats] of [
      ['web', 'stats-web-1.json'],
      ['api', 'stats-api-1.json'],
      ['db', 'stats-db.json'],
    ]) {
      const id = containers.find((c) => c.Names[0] === `/${name}`)!.Id;
      engine.routes.set(`/containers/${id}/stats`, json(fixture(stats)));
    }
    await engine.listen();

    // The agent asks `systemctl show … -- nginx.service`; this one answers from a file the test rewrites.
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'systemctl'), `#!/bin/sh\ncat '${unitsFile()}'\n`);
    await chmod(join(bin, 'systemctl'), 0o755);
    await unit('active', 'running');

    const { body: channel } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({
        target_type: 'global-agent',
        enabled: true,
        on_offline: false,
        on_recovery: true,
        on_container_down: true,
        on_container_unhealthy: true,
        on_service_failed: true,
        channels: [channel.data.id],
      })
      .expect(200);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: [channel.data.id] })
      .expect(200);

    const token = (await api().post('/api/agents/token/generate').set(admin.auth).expect(200)).body.token;
    agentProcess = spawn(
      process.execPath,
      [
        BUNDLE,
        ...['--server', app.url, '--token', token, '--interval', '5', '--name', 'box-1', '--config', join(dir, 'agent.json')],
        ...['--docker-socket', engine.socket, '--services', 'nginx'],
      ],
      { env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    agentProcess.stdout?.on('data', (chunk) => (output += chunk));
    agentProcess.stderr?.on('data', (chunk) => (output += chunk));
    [agent] = await waitFor(
      async () =>
        ((await api().get('/api/agents').set(admin.auth).expect(200)).body.agents as AgentDto[]).filter((a) => a.name === 'box-1'),
      (list) => list.length === 1 && list[0].status === 'active',
      20_000,
    );
    await waitFor(
      async () => (await api().get(`/api/agents/${agent.id}/insight`).set(admin.auth).expect(200)).body.insight,
      (insight) => insight.containers?.length === 4 && insight.services?.length === 1,
      20_000,
    );
  }, 120_000);

  afterAll(async () => {
    // The last test kills it; one still running (a failed run) is killed here.
    if (agentProcess && agentProcess.exitCode === null && agentProcess.signalCode === null) {
      const exited = new Promise((resolve) => agentProcess!.once('exit', resolve));
      agentProcess.kill('SIGKILL');
      await exited;
    }
    await engine?.close();
    await app?.destroy();
    await hook?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const api = () => request(app.url);
  /** What the webhook received about `name` (the agent or the monitor), a grouped message counted item by item. */
  const messages = (name: string): Array<{ event: string; subject: string; text: string }> =>
    hook
      .to('/hook')
      .flatMap((req) => req.json.items ?? [req.json])
      .filter((message: { target?: { name?: string } }) => message.target?.name === name);
  const events = (name: string) => messages(name).map((m) => m.event);
  const monitor = async (id: number): Promise<MonitorDto> =>
    (await api().get(`/api/monitors/${id}`).set(admin.auth).expect(200)).body.monitor;
  const setWeb = (state: 'running' | 'exited') => {
    web.State = state;
    web.Status = state === 'running' ? 'Up 1 second' : 'Exited (137) 1 second ago';
  };
  const agentAlive = () => {
    if (agentProcess?.exitCode !== null) throw new Error(`the agent exited: ${output}`);
  };

  it('refuses a container monitor on an agent that does not exist, naming the setting', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'ghost', type: 'container', agentId: 999_999, containerName: 'web' })
      .expect(400);
    expect(body).toMatchObject({ success: false, code: 'monitors.settingsAgentUnknown', field: 'agentId' });
    expect(body.message).toBe(MESSAGES['monitors.settingsAgentUnknown']);
  });

  it('takes the container down and back: the monitor and the container alert follow, each once', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'web container', type: 'container', agentId: agent.id, containerName: 'web', interval: 10, retries: 0 })
      .expect(201);
    const id = (body.monitor as MonitorDto).id;
    webMonitor = id;
    const created = await monitor(id);
    // It depends on its agent, so it is unreachable rather than down while the agent is offline.
    expect(created.depends_on).toEqual([{ type: 'agent', id: agent.id }]);
    expect(created.settings).toEqual({ agentId: agent.id, containerName: 'web' });
    await waitFor(
      () => monitor(id),
      (m) => m.status === 'up',
      30_000,
    );

    setWeb('exited');
    const down = await waitFor(
      async () => {
        agentAlive();
        return monitor(id);
      },
      (m) => m.status === 'down',
      30_000,
    );
    expect(down.checks?.[0]?.error).toBe('Container web is exited');
    await waitFor(
      async () => events('box-1'),
      (seen) => seen.includes('agent.container_down'),
      30_000,
    );
    const alert = messages('box-1').find((m) => m.event === 'agent.container_down')!;
    expect(alert.subject).toBe('[Container down] web on box-1');
    expect(alert.text).toContain('Container web (nginx:1.27) on box-1');
    expect(alert.text).toContain('is no longer running: exited.');
    await waitFor(
      async () => events('web container'),
      (seen) => seen.includes('monitor.down'),
      30_000,
    );

    setWeb('running');
    await waitFor(
      async () => events('box-1'),
      (seen) => seen.includes('agent.container_recovery'),
      30_000,
    );
    await waitFor(
      () => monitor(id),
      (m) => m.status === 'up',
      30_000,
    );
    expect(events('box-1').filter((event) => event.startsWith('agent.container_') && event !== 'agent.container_unhealthy')).toEqual([
      'agent.container_down',
      'agent.container_recovery',
    ]);
    const alerts: AlertDto[] = (await api().get(`/api/alerts?kind=agent&targetId=${agent.id}&pageSize=50`).set(admin.auth).expect(200)).body
      .alerts;
    expect(alerts.filter((a) => a.metric === 'containerDown').map((a) => [a.item, a.state])).toEqual([['web', 'resolved']]);
  }, 120_000);

  it('alerts once per unhealthy container, naming it, and never for a finished job', async () => {
    // The fixtures' `api` reports unhealthy from the start; `migrate` exited days ago and was never seen running.
    await waitFor(
      async () => events('box-1'),
      (seen) => seen.includes('agent.container_unhealthy'),
      30_000,
    );
    const unhealthy = messages('box-1').filter((m) => m.event === 'agent.container_unhealthy');
    expect(unhealthy).toHaveLength(1);
    expect(unhealthy[0].text).toContain('container api (registry.example.com/team/api:2.4.1) on box-1');
    expect(messages('box-1').some((m) => m.text.includes('migrate'))).toBe(false);
  });

  it('alerts when a watched unit fails and when it is back', async () => {
    await unit('failed', 'failed');
    await waitFor(
      async () => {
        agentAlive();
        return events('box-1');
      },
      (seen) => seen.includes('agent.service_failed'),
      30_000,
    );
    expect(messages('box-1').find((m) => m.event === 'agent.service_failed')?.text).toMatch(
      /^Unit nginx\.service on box-1 \(.+\) has failed \(failed, failed\)\./,
    );
    await unit('active', 'running');
    await waitFor(
      async () => events('box-1'),
      (seen) => seen.includes('agent.service_recovery'),
      30_000,
    );
    const alerts: AlertDto[] = (await api().get(`/api/alerts?kind=agent&targetId=${agent.id}&pageSize=50`).set(admin.auth).expect(200)).body
      .alerts;
    expect(alerts.filter((a) => a.metric === 'serviceFailed').map((a) => [a.item, a.state])).toEqual([['nginx.service', 'resolved']]);
  }, 90_000);

  it('turns the container monitor unreachable, not down, once its agent is silent and offline', async () => {
    expect(webMonitor).toBeGreaterThan(0);
    const exited = new Promise((resolve) => agentProcess!.once('exit', resolve));
    agentProcess!.kill('SIGKILL');
    await exited;
    const unreachable = await waitFor(
      () => monitor(webMonitor),
      (m) => m.status === 'unreachable',
      45_000,
    );
    expect(unreachable.checks?.[0]?.error).toMatch(/^Agent box-1 silent: no report for \d+ s \(it reports every 5 s\)$/);
    expect(events('web container').filter((event) => event === 'monitor.down')).toHaveLength(1);
  }, 60_000);
});
