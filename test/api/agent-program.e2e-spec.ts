import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { AgentDto } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const BUNDLE = join(__dirname, '../../agent/dist/vigil-agent.mjs');
const GRACE_SECONDS = 3;

interface AgentProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** The built agent bundle, run exactly as an operator runs it, against the test server. */
describe('the agent program (built bundle) against the server', () => {
  let app: TestApp;
  let member: Session;
  let dir: string;
  const running: AgentProcess[] = [];

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: build it with npm run build`);
    app = await startTestApp({ env: { AGENT_GRACE_SECONDS: String(GRACE_SECONDS) } });
    member = await registerFirstAdmin(app.url);
    dir = await mkdtemp(join(tmpdir(), 'vigil-agent-'));
  });
  afterEach(async () => {
    for (const agent of running.splice(0)) {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
      await agent.exited;
    }
  });
  afterAll(async () => {
    await app?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const api = () => request(app.url);

  async function newToken(): Promise<string> {
    return (await api().post('/api/agents/token/generate').set(member.auth).expect(200)).body.token;
  }

  function start(args: string[], env: Record<string, string> = {}): AgentProcess {
    const child = spawn(process.execPath, [BUNDLE, ...args], {
      env: { PATH: process.env.PATH, HOME: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const agent = { child, output: () => output, exited };
    running.push(agent);
    return agent;
  }

  const agents = async (): Promise<AgentDto[]> => (await api().get('/api/agents').set(member.auth).expect(200)).body.agents;

  it('serves the bundle and the install scripts to anyone, and nothing else under /downloads', async () => {
    const bundle = await api().get('/downloads/vigil-agent.mjs').set('Accept', 'text/html').expect(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.text.startsWith('#!/usr/bin/env node')).toBe(true);
    const sh = await api().get('/downloads/install.sh').expect(200);
    expect(sh.text).toContain('systemd');
    expect(sh.text).toContain('launchctl');
    const ps = await api().get('/downloads/install.ps1').expect(200);
    expect(ps.text).toContain('Register-ScheduledTask');
    const other = await api().get('/downloads/package.json').set('Accept', 'text/html').expect(404);
    expect(other.body).toMatchObject({ success: false });
    await api().get('/downloads/..%2Fpackage.json').expect(404);
  });

  it('enrols with a fresh token, reports real figures within 10 s, and goes inactive after the grace when killed', async () => {
    const token = await newToken();
    const config = join(dir, 'first.json');
    const agent = start(['--server', app.url, '--token', token, '--interval', '5', '--name', 'bundle-1', '--config', config]);
    const [reported] = await waitFor(
      async () => (await agents()).filter((a) => a.name === 'bundle-1'),
      (list) => list.length === 1 && list[0].status === 'active' && list[0].memory_total !== null,
      10_000,
    );
    expect(reported.cpu_usage).toEqual(expect.any(Number));
    expect(reported.memory_total).toBeGreaterThan(0);
    expect(reported.memory_used).toBeGreaterThan(0);
    expect(reported.protocol).toBe('socket');
    expect(reported.ip_addresses.length).toBeGreaterThan(0);
    expect(agent.output()).not.toContain(token);

    agent.child.kill('SIGKILL');
    await agent.exited;
    const killedAt = Date.now();
    await waitFor(
      async () => (await api().get(`/api/agents/${reported.id}`).set(member.auth).expect(200)).body.agent.status,
      (status) => status === 'inactive',
      GRACE_SECONDS * 1000 + 8_000,
    );
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 500);

    // Restarted with only its config file: it keeps its identity, no token needed.
    const again = start(['--server', app.url, '--interval', '5', '--config', config]);
    await waitFor(
      async () => (await api().get(`/api/agents/${reported.id}`).set(member.auth).expect(200)).body.agent.status,
      (status) => status === 'active',
      10_000,
    );
    expect((await agents()).filter((a) => a.name === 'bundle-1')).toHaveLength(1);

    // SIGTERM: a clean, quick exit.
    const stoppedAt = Date.now();
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
  }, 60_000);

  it('exits with a clear message for a bad token, and when its agent is deleted (revoked)', async () => {
    const bad = start(['--server', app.url, '--token', 'vgr_wrong', '--interval', '5', '--config', join(dir, 'bad.json')]);
    expect(await bad.exited).not.toBe(0);
    expect(bad.output()).toMatch(/Registration token is invalid or has expired/);

    // Nothing listens on port 1: a few retries over about 15 s, then a clear message and exit code 4.
    const unreachable = start(['--server', 'http://127.0.0.1:1', '--token', 'vgr_any', '--config', join(dir, 'unreachable.json')]);
    expect(await unreachable.exited).toBe(4);
    expect(unreachable.output()).toMatch(/Cannot reach the Vigil server at http:\/\/127\.0\.0\.1:1: ECONNREFUSED/);

    const config = join(dir, 'revoked.json');
    const agent = start([
      '--server',
      app.url,
      '--token',
      await newToken(),
      '--interval',
      '5',
      '--name',
      'bundle-revoked',
      '--config',
      config,
    ]);
    const [enrolled] = await waitFor(
      async () => (await agents()).filter((a) => a.name === 'bundle-revoked' && a.status === 'active'),
      (list) => list.length === 1,
      10_000,
    );
    await api().delete(`/api/agents/${enrolled.id}`).set(member.auth).expect(200);
    expect(await agent.exited).not.toBe(0);
    expect(agent.output()).toMatch(/deleted on the server|credential is invalid/i);

    const refused = start(['--server', app.url, '--interval', '5', '--config', config]);
    expect(await refused.exited).not.toBe(0);
    expect(refused.output()).toMatch(/credential is invalid/i);
  }, 90_000);

  it('buffers reports while the server is away and sends them after it returns', async () => {
    const agent = start([
      '--server',
      app.url,
      '--token',
      await newToken(),
      '--interval',
      '5',
      '--name',
      'bundle-buffer',
      '--config',
      join(dir, 'buffer.json'),
    ]);
    const [enrolled] = await waitFor(
      async () => (await agents()).filter((a) => a.name === 'bundle-buffer' && a.status === 'active'),
      (list) => list.length === 1,
      10_000,
    );
    await app.stop();
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    await app.restart();
    // After the reconnect the buffered reports arrive as a backlog: the server's counter (reset by the restart)
    // counts them together with the new ones, so it is past 1 within a moment of reconnecting. The agent retries on
    // socket.io's backoff (1 s doubling up to 60 s, ±50 %): after a 12 s outage its next attempt may be up to ~35 s
    // away, so the wait covers the whole schedule rather than its usual case.
    const accepted = await waitFor(
      async () => {
        if (agent.child.exitCode !== null) throw new Error(`the agent exited: ${agent.output()}`);
        const { text } = await api().get('/api/metrics').set(member.auth).expect(200);
        return Number(/vigil_agent_reports_accepted_total (\d+)/.exec(text)?.[1] ?? 0);
      },
      (count) => count >= 3,
      75_000,
    );
    expect(accepted).toBeGreaterThanOrEqual(3);
    expect(agent.output()).toMatch(/Sent \d+ buffered reports/);
    expect(agent.child.exitCode).toBeNull();
    // Offline during the outage (longer than the grace), connecting on its return, active once the reports are stored.
    await waitFor(
      async () => (await api().get(`/api/agents/${enrolled.id}`).set(member.auth).expect(200)).body.agent.status,
      (status) => status === 'active',
      5_000,
    );
  }, 150_000);
});
