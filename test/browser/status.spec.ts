import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { DisplayKeyCreatedResponse, MonitorDto, MonitorResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { documentKept, failureScreenshots, launchBrowser, markDocument, newPage } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

/** How soon after a check a screen must show its result, without a reload. */
const LIVE_MS = 2_000;

/**
 * The public screens through the real UI: an anonymous status page and a wall opened with a display key both show a
 * monitor going down within two seconds of the check, the dashboard's counts follow live, and the status page's custom
 * CSS applies its rules but cannot run script.
 */
describe('status page, wall and dashboard in the browser', () => {
  let app: TestApp;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let visitor: Page;
  let wall: Page;
  let member: Page;
  let admin: Session;
  let shown: MonitorDto;
  let hidden: MonitorDto;
  let secret = '';
  const pages: Page[] = [];

  async function createMonitor(name: string): Promise<MonitorDto> {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}/`, interval: 60, timeout: 5, expectedStatus: 2, retries: 0 })
      .expect(201);
    return (body as MonitorResponse).monitor;
  }

  /**
   * Runs a check now with the target answering `status`, then lets it answer 200 again, so a scheduled check of the
   * other monitor meanwhile does not fail too.
   */
  async function checkWith(status: number, monitor: MonitorDto): Promise<void> {
    target.respond(status);
    try {
      await request(app.url).post(`/api/monitors/${monitor.id}/check`).set(admin.auth).expect(200);
    } finally {
      target.respond(200);
    }
  }

  beforeAll(async () => {
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    target = await startTargetServer();
    admin = await registerFirstAdmin(app.url);
    shown = await createMonitor('Public API');
    hidden = await createMonitor('Internal job');
    await checkWith(200, shown);
    await checkWith(200, hidden);
    await request(app.url)
      .post('/api/status/config')
      .set(admin.auth)
      .send({
        title: 'Acme status',
        description: 'Live state of Acme',
        showResources: true,
        // Markup inside a CSS string: valid CSS the server keeps, which must still never become an element.
        customCss: '.vigil-status-page h1 { color: rgb(255, 0, 0) } h1::after { content: "</style><script>window.__pwned=1</script>" }',
        monitors: [shown.id],
        agents: [],
      })
      .expect(200);
    ({ browser, close: closeBrowser } = await launchBrowser());
    // Separate contexts: the visitor and the wall screen hold no session at all.
    ({ page: visitor } = await newPage(browser, app.url, 'en-US'));
    ({ page: wall } = await newPage(browser, app.url, 'en-US'));
    ({ page: member } = await newPage(browser, app.url, 'en-US'));
    pages.push(visitor, wall, member);
  });
  afterAll(async () => {
    await closeBrowser?.();
    await target?.close();
    await app?.destroy();
  });

  const step = failureScreenshots(() => pages);

  const waitForStatus = (page: Page, testId: string, status: string, timeout?: number) =>
    page.locator(`[data-testid="${testId}"][data-status="${status}"]`).waitFor({ timeout });

  step('(a) an anonymous visitor sees the monitor go down within 2 s, without a reload', async () => {
    await visitor.goto('/status');
    await visitor.getByTestId('status-overall').waitFor();
    expect(await visitor.getByTestId('status-title').innerText()).toBe('Acme status');
    expect(await visitor.title()).toBe('Acme status');
    expect(await visitor.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await waitForStatus(visitor, `status-monitor-status-${shown.id}`, 'up');
    expect(await visitor.getByTestId(`status-monitor-${hidden.id}`).count()).toBe(0);
    // The live socket has joined the status room before the change is made.
    await visitor.locator('[data-testid="live-badge"][data-connected="true"]').waitFor();
    await markDocument(visitor);

    await checkWith(500, shown);
    await waitForStatus(visitor, `status-monitor-status-${shown.id}`, 'down', LIVE_MS);
    expect(await visitor.getByTestId('status-overall').getAttribute('data-overall')).toBe('outage');
    expect(await documentKept(visitor)).toBe(true);
  });

  step('(d) the custom CSS applies its rule to the status page but runs no script', async () => {
    const color = await visitor.getByTestId('status-title').evaluate((element) => getComputedStyle(element).color);
    expect(color).toBe('rgb(255, 0, 0)');
    expect(await visitor.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    const scripts = await visitor.evaluate(() => [...document.querySelectorAll('script')].map((script) => script.textContent ?? ''));
    expect(scripts.some((text) => text.includes('__pwned'))).toBe(false);
    const styles = await visitor.evaluate(() =>
      [...document.querySelectorAll('style[data-vigil-custom-css]')].map((style) => style.textContent ?? ''),
    );
    expect(styles).toHaveLength(1);
    expect(styles[0]).not.toContain('<');
    expect(await visitor.evaluate(() => document.head.querySelectorAll('style[data-vigil-custom-css] *').length)).toBe(0);
  });

  step('(e) on a phone 390 px wide the status page shows every status without sideways scrolling', async () => {
    await visitor.setViewportSize({ width: 390, height: 844 });
    try {
      expect(await visitor.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      const pill = await visitor.getByTestId(`status-monitor-status-${shown.id}`).boundingBox();
      expect(pill && pill.x >= 0 && pill.x + pill.width <= 390).toBe(true);
      const banner = await visitor.getByTestId('status-overall').boundingBox();
      expect(banner && banner.x + banner.width <= 390).toBe(true);
    } finally {
      await visitor.setViewportSize({ width: 1280, height: 800 });
    }
  });

  step('(b) a wall opened with a display key sees the monitor go down within 2 s, problems first, without a reload', async () => {
    await checkWith(200, shown);
    const { body } = await request(app.url).post('/api/wall/keys').set(admin.auth).send({ name: 'NOC screen' }).expect(201);
    secret = (body as DisplayKeyCreatedResponse).secret;

    await wall.goto(`/wall?key=${encodeURIComponent(secret)}`);
    await waitForStatus(wall, `wall-monitor-${shown.id}`, 'up');
    await wall.locator('[data-testid="wall-connection"][data-state="connected"]').waitFor();
    expect(await wall.evaluate(() => localStorage.length)).toBe(0);
    await markDocument(wall);

    await checkWith(500, shown);
    await waitForStatus(wall, `wall-monitor-${shown.id}`, 'down', LIVE_MS);
    const first = wall.getByTestId('wall-board').locator('[data-status]').first();
    expect(await first.getAttribute('data-testid')).toBe(`wall-monitor-${shown.id}`);
    expect(await wall.getByTestId('wall-feed-entry').first().innerText()).toContain('Public API');
    expect(await documentKept(wall)).toBe(true);

    // The whole board fits the window: nothing scrolls.
    const overflow = await wall.evaluate(() => ({
      page: document.documentElement.scrollHeight - window.innerHeight,
      board: (() => {
        const board = document.querySelector('[data-testid="wall-board"]') as HTMLElement;
        return board.scrollHeight - board.clientHeight + board.scrollWidth - board.clientWidth;
      })(),
    }));
    expect(overflow).toEqual({ page: 0, board: 0 });
  });

  step('(c) the dashboard counts and feed change live', async () => {
    await checkWith(200, shown);
    await member.goto('/login');
    await member.locator('input[name="username"]').fill(admin.user.username);
    await member.locator('input[name="password"]').fill(admin.password);
    await member.locator('button[type="submit"]').click();
    await member.waitForURL('**/dashboard');
    const down = member.getByTestId('dashboard-monitor-summary-down');
    const up = member.getByTestId('dashboard-monitor-summary-up');
    await down.waitFor();
    await member.locator('[data-testid="live-badge"][data-connected="true"]').waitFor();
    await member.waitForFunction(() => document.querySelector('[data-testid="dashboard-monitor-summary-up"]')?.textContent === '2');
    expect(await down.innerText()).toBe('0');
    await markDocument(member);

    await checkWith(500, hidden);
    await member.waitForFunction(
      () =>
        document.querySelector('[data-testid="dashboard-monitor-summary-down"]')?.textContent === '1' &&
        document.querySelector('[data-testid="dashboard-monitor-summary-up"]')?.textContent === '1',
      undefined,
      { timeout: LIVE_MS },
    );
    const newest = member.getByTestId('dashboard-feed-entry').first();
    expect(await newest.innerText()).toContain('Internal job');
    expect(await newest.getAttribute('data-status')).toBe('down');
    expect(await up.innerText()).toBe('1');
    expect(await documentKept(member)).toBe(true);
  });

  step('the wall comes back by itself after a server restart and keeps following changes', async () => {
    await markDocument(wall);
    await app.restart();
    await wall.locator('[data-testid="wall-connection"][data-state="connected"]').waitFor({ timeout: 30_000 });
    await checkWith(200, shown);
    await waitForStatus(wall, `wall-monitor-${shown.id}`, 'up', 5_000);
    expect(await documentKept(wall)).toBe(true);
  });

  step('a revoked display link stops the wall with a full-screen message', async () => {
    const { body } = await request(app.url).get('/api/wall/keys').set(admin.auth).expect(200);
    const key = (body as { keys: { id: number; name: string }[] }).keys.find((row) => row.name === 'NOC screen');
    await request(app.url).delete(`/api/wall/keys/${key?.id}`).set(admin.auth).expect(200);
    await wall.getByTestId('wall-invalid').waitFor();
    expect(await wall.getByTestId('wall-invalid').innerText()).toContain('This display link is invalid or was revoked');
  });
});
