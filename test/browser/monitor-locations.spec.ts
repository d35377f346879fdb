import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { AgentDto, MonitorDto, MonitorsResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

const BUNDLE = join(__dirname, '../../agent/dist/vigil-agent.mjs');

/**
 * Issue 32, requirement 13: an admin assigns a monitor to an agent through the form, and its detail page shows each
 * location's status live as the agent's results arrive — including a failure only the agent sees — at phone width.
 */
describe('monitor locations in the browser', () => {
  let app: TestApp;
  let admin: Session;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let web: Server;
  let webUrl: string;
  let dir: string;
  let agentProcess: ChildProcess | undefined;
  let agent: AgentDto;
  let monitor: MonitorDto;
  /** The target answers 503 to the agent's requests (its user agent names it) while this is set. */
  let failAgent = false;

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: build it with npm run build`);
    web = createServer((req, res) => {
      const fromAgent = (req.headers['user-agent'] ?? '').includes('(agent edge-1)');
      res.writeHead(failAgent && fromAgent ? 503 : 200).end('ok');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    admin = await registerFirstAdmin(app.url);
    dir = await mkdtemp(join(tmpdir(), 'vigil-locations-'));
    const { body } = await request(app.url).post('/api/agents/token/generate').set(admin.auth).expect(200);
    agentProcess = spawn(
      process.execPath,
      [BUNDLE, '--server', app.url, '--token', body.token, '--interval', '5', '--name', 'edge-1', '--config', join(dir, 'agent.json')],
      { env: { PATH: process.env.PATH, HOME: dir }, stdio: ['ignore', 'ignore', 'ignore'] },
    );
    [agent] = await waitFor(
      async () =>
        ((await request(app.url).get('/api/agents').set(admin.auth).expect(200)).body.agents as AgentDto[]).filter(
          (a) => a.name === 'edge-1',
        ),
      (list) => list.length === 1 && list[0].status === 'active',
      20_000,
    );
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  }, 120_000);
  afterAll(async () => {
    if (agentProcess && agentProcess.exitCode === null) agentProcess.kill('SIGKILL');
    await closeBrowser?.();
    await app?.destroy();
    web?.closeAllConnections();
    await new Promise((resolve) => web?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const step = failureScreenshots(() => [page], { prefix: 'locations-' });
  const locationRow = (location: string, status: string) =>
    page.locator(`[data-testid="monitor-location-${location}"][data-status="${status}"]`).waitFor({ timeout: 30_000 });

  step('signs in through the login form', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
  });

  step('assigns an HTTP monitor to the agent and the server through the form', async () => {
    await page.goto('/monitors');
    await page.getByTestId('monitor-create').click();
    await page.waitForURL('**/monitors/create');
    await page.getByTestId('monitor-type-http').click();
    await page.locator('[data-testid="monitor-form"][data-type="http"]').waitFor();
    await page.locator('input[name="name"]').fill('Edge API');
    await page.locator('input[name="url"]').fill(webUrl);
    const agents = page.getByRole('combobox', { name: 'Agents', exact: true });
    await agents.click();
    await agents.fill('edge');
    await page.getByRole('option', { name: 'edge-1', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/monitors$/);
    const { body } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
    monitor = (body as MonitorsResponse).monitors.find((row) => row.name === 'Edge API')!;
    expect(monitor.locations).toEqual(['server', `agent:${agent.id}`]);
    // The form counts intervals in minutes; checks every 10 s keep the test short (the agent gets the change at once).
    await request(app.url).put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ interval: 10, timeout: 5 }).expect(200);
  });

  step('shows each location live on the detail page, a failure only the agent sees included, at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/monitors/${monitor.id}`);
    await page.getByTestId('monitor-locations').waitFor();
    await locationRow('server', 'up');
    await locationRow(`agent:${agent.id}`, 'up');
    failAgent = true;
    // No reload: the agent's next result is pushed to the page.
    await locationRow(`agent:${agent.id}`, 'down');
    expect(await page.getByTestId(`monitor-location-agent:${agent.id}`).innerText()).toContain('503');
    await locationRow('server', 'up');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    failAgent = false;
    await locationRow(`agent:${agent.id}`, 'up');
  });
});
