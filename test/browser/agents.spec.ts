import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { registerFirstAdmin, Session } from '../factories/users';
import { documentKept, failureScreenshots, launchBrowser, markDocument, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

const BUNDLE = join(__dirname, '../../agent/dist/vigil-agent.mjs');

/**
 * The agent journey through the real UI: the create page's token started in a real agent process, the agent showing
 * up live on that page and on the list, then its figures as bars and charts on the detail page.
 */
describe('agents in the browser', () => {
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let dir: string;
  let agent: ChildProcess | null = null;
  let agentOutput = '';
  let agentId = 0;
  let token = '';
  let second: ChildProcess | null = null;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    dir = await mkdtemp(join(tmpdir(), 'vigil-browser-agent-'));
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  });
  afterAll(async () => {
    for (const child of [agent, second]) {
      if (!child || child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await closeBrowser?.();
    await app?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const step = failureScreenshots(() => [page], {
    explain: (error) => new Error(`${error.message}\nagent output:\n${agentOutput}`, { cause: error }),
  });

  step('signs in', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
  });

  step('the create page shows a token; an agent started with it appears there live', async () => {
    await page.goto('/agents');
    await page.getByTestId('agents-empty').waitFor();
    await page.getByTestId('agents-create').first().click();
    await page.waitForURL('**/agents/create');
    const server = (await page.getByTestId('agent-server-address').textContent())?.trim();
    token = (await page.getByTestId('agent-token').textContent())?.trim() ?? '';
    expect(server).toBe(app.url);
    expect(token).toMatch(/^vgr_/);
    await page.getByTestId('agent-os-linux').click();
    await page.getByTestId('agent-arch-amd64').click();
    expect(await page.getByTestId('agent-start-command').textContent()).toContain(`--token ${token}`);
    expect(await page.getByTestId('agent-start-command').textContent()).toContain('--interval 60');
    await markDocument(page);

    agent = spawn(
      process.execPath,
      [BUNDLE, '--server', app.url, '--token', token, '--interval', '5', '--name', 'browser-host', '--config', join(dir, 'config.json')],
      {
        env: { PATH: process.env.PATH, HOME: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    agent.stdout?.on('data', (chunk) => (agentOutput += chunk));
    agent.stderr?.on('data', (chunk) => (agentOutput += chunk));

    const registered = page
      .locator(
        '[data-testid^="agent-registered-"]:not([data-testid="agent-registered-list"]):not([data-testid="agent-registered-waiting"])',
      )
      .filter({ hasText: 'browser-host' })
      .first();
    await registered.waitFor({ timeout: 15_000 });
    const testId = await registered.getAttribute('data-testid');
    agentId = Number(/agent-registered-(\d+)/.exec(testId ?? '')?.[1]);
    expect(agentId).toBeGreaterThan(0);
    expect(await documentKept(page)).toBe(true);
  });

  step('the list shows it online, and a second agent enrolling with a token of its own appears without a reload', async () => {
    await page.goto('/agents');
    await markDocument(page);
    // A registration token enrols one host; both agents run on this machine, so the second needs a new token.
    const response = await fetch(`${app.url}/api/agents/token/generate`, { method: 'POST', headers: admin.auth });
    const secondToken = ((await response.json()) as { token: string }).token;
    second = spawn(
      process.execPath,
      [
        BUNDLE,
        '--server',
        app.url,
        '--token',
        secondToken,
        '--interval',
        '5',
        '--name',
        'browser-host-2',
        '--config',
        join(dir, 'second.json'),
      ],
      {
        env: { PATH: process.env.PATH, HOME: dir },
        stdio: 'ignore',
      },
    );
    await page.locator('[data-testid^="agent-card-"]').filter({ hasText: 'browser-host-2' }).first().waitFor({ timeout: 15_000 });
    const status = page.getByTestId(`agent-status-${agentId}`);
    await status.waitFor();
    await page
      .locator(`[data-testid="agent-status-${agentId}"]`)
      .filter({ hasText: /online/i })
      .waitFor({ timeout: 15_000 });
    // Table view has the spec's columns.
    await page.getByTestId('agents-view-toggle').locator('label').nth(1).click();
    const row = page.getByTestId(`agent-row-${agentId}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('browser-host');
    expect(await documentKept(page)).toBe(true);
  });

  step('the detail page shows its figures as bars and, on the charts tab, as charts', async () => {
    await page.goto(`/agents/${agentId}`);
    await page.getByTestId('agent-detail').waitFor();
    await page
      .getByTestId('agent-detail-status')
      .filter({ hasText: /online/i })
      .waitFor({ timeout: 15_000 });
    // Online comes with the agent's hello; its figures with its first report, stored and pushed a moment later.
    for (const bar of ['cpu', 'memory']) {
      await page
        .getByTestId(`agent-bar-${bar}`)
        .filter({ hasText: /\d+\.\d%/ })
        .waitFor({ timeout: 15_000 });
    }
    const memory = Number(await page.getByTestId('agent-bar-memory').getAttribute('data-percent'));
    expect(memory).toBeGreaterThan(0);
    expect(memory).toBeLessThanOrEqual(100);

    await page.getByTestId('agent-tab-charts').click();
    await page.getByTestId('agent-charts').waitFor();
    await page.locator('[data-testid="agent-charts"] svg path').first().waitFor({ timeout: 15_000 });
  });
});
