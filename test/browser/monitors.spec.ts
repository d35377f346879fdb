import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { MonitorDto, MonitorsResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { documentKept, failureScreenshots, launchBrowser, markDocument, newPage } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

/**
 * Monitors through the real UI against a loopback target: created through the form, seen turning up on the list
 * and down on the detail page without a reload, filtered, paused, resumed and deleted.
 */
describe('monitors in the browser', () => {
  let app: TestApp;
  let target: TargetServer;
  let targetOpen = true;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let monitor: MonitorDto;
  const name = 'Loopback target';
  /** Script files the page has fetched, to see that the chart library only loads on the detail page. */
  const scripts: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    target = await startTargetServer();
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    });
  });
  afterAll(async () => {
    await closeBrowser?.();
    if (targetOpen) await target?.close();
    await app?.destroy();
  });

  const step = failureScreenshots(() => [page]);

  const statusOf = (testId: string) => page.getByTestId(testId).getAttribute('data-status');
  const waitForStatus = (testId: string, status: string) => page.locator(`[data-testid="${testId}"][data-status="${status}"]`).waitFor();

  /** From now on, records every status the element shows, in order, however briefly (read by statusesSeen). */
  const recordStatuses = (testId: string) =>
    page.evaluate((id) => {
      const seen: string[] = [];
      const read = () => {
        const status = document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-status');
        if (status && seen[seen.length - 1] !== status) seen.push(status);
      };
      read();
      new MutationObserver(read).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-status'],
      });
      Object.assign(window, { vigilStatuses: seen });
    }, testId);
  const statusesSeen = () => page.evaluate(() => (window as unknown as { vigilStatuses: string[] }).vigilStatuses);

  /** Marks the document; the mark survives client-side updates but not a reload. */

  async function findMonitor(byName: string): Promise<MonitorDto> {
    const { body } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
    const found = (body as MonitorsResponse).monitors.find((row) => row.name === byName);
    if (!found) throw new Error(`no monitor named ${byName}`);
    return found;
  }

  step('signs in through the login form', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('dashboard-monitor-summary').waitFor();
  });

  step('creates a monitor through the form and sees it turn up on the list without a reload', async () => {
    // The first check (run at once on creation) answers slowly, so the list is on screen before its result lands.
    target.respond(200, 3000);
    await page.goto('/monitors');
    await page.getByTestId('monitors-empty').waitFor();
    await page.getByTestId('monitor-create').click();
    await page.waitForURL('**/monitors/create');

    await page.locator('input[name="name"]').fill(name);
    await page.locator('input[name="url"]').fill(`${target.url}/`);
    await page.locator('select[name="method"]').selectOption('GET');
    await page.locator('input[name="interval"]').fill('1');
    await page.locator('input[name="timeout"]').fill('10');
    await page.locator('select[name="expectedStatus"]').selectOption('2');
    await page.locator('input[name="header-name-0"]').fill('X-Vigil-Test');
    await page.locator('input[name="header-value-0"]').fill('browser');
    // Typing into the last header row appends a blank one; GET has no body field.
    await page.locator('input[name="header-name-1"]').waitFor();
    expect(await page.locator('textarea[name="body"]').count()).toBe(0);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/monitors$/);
    await markDocument(page);

    monitor = await findMonitor(name);
    expect(monitor).toMatchObject({ interval: 60, timeout: 10, expected_status: 2, method: 'GET', headers: { 'X-Vigil-Test': 'browser' } });
    const statusId = `monitor-status-${monitor.id}`;
    await page.getByTestId(`monitor-row-${monitor.id}`).waitFor();
    expect(await statusOf(statusId)).toBe('pending');

    await waitForStatus(statusId, 'up');
    target.respond(200);
    expect(await documentKept(page)).toBe(true);
    const received = target.received.find((entry) => entry.headers['x-vigil-test'] === 'browser');
    expect(received?.method).toBe('GET');
    expect(await page.getByTestId(`monitor-row-${monitor.id}`).innerText()).toContain('100.00');
    expect(scripts.some((url) => url.includes('ResponseTimeChart'))).toBe(false);
  });

  step('opens the detail page, where the stopped target turns it pending, then down, without a reload', async () => {
    await page.getByTestId(`monitor-view-${monitor.id}`).click();
    await page.waitForURL(`**/monitors/${monitor.id}`);
    await waitForStatus('monitor-detail-status', 'up');
    expect(await page.getByTestId('monitor-expected-status').innerText()).toBe('2xx');
    // The response-time chart (recharts, its own chunk) draws the check made on creation.
    await page.getByTestId('monitor-stats').locator('.recharts-line-dot').first().waitFor();
    expect(scripts.some((url) => url.includes('ResponseTimeChart'))).toBe(true);
    await markDocument(page);

    await recordStatuses('monitor-detail-status');
    await target.close();
    targetOpen = false;
    // Default retries (1): the first failure moves up to pending, the next one to down. Pending may show for less than
    // waitFor's polling gap (500 ms after its first tries), e.g. when a scheduled check fails just before the click and
    // the click's own check turns it down, so the badge's every status is recorded and read instead.
    await page.getByTestId('monitor-check-now').click();
    await page
      .waitForFunction(() => (window as unknown as { vigilStatuses: string[] }).vigilStatuses.includes('pending'))
      .catch(async (error: Error) => {
        // What the page showed and what the server holds, so a failure here says which side is wrong.
        const { body } = await request(app.url).get(`/api/monitors/${monitor.id}`).set(admin.auth);
        const checks = (body as { monitor: MonitorDto }).monitor.checks.slice(0, 3).map((check) => [check.status, check.checked_at]);
        throw new Error(
          `${error.message}\nbadge showed: ${JSON.stringify(await statusesSeen())}\nserver: ${(body as { monitor: MonitorDto }).monitor.status}, ${JSON.stringify(checks)}`,
          { cause: error },
        );
      });
    await page.getByTestId('monitor-check-now').click();
    await waitForStatus('monitor-detail-status', 'down');
    // Up, pending, down, and nothing else in between: no read older than a pushed status ever rolled it back.
    expect(await statusesSeen()).toEqual(['up', 'pending', 'down']);
    expect(await documentKept(page)).toBe(true);

    await page.getByTestId('monitor-tab-history').click();
    const newest = page.getByTestId('monitor-history').locator('tbody tr').first();
    await newest.waitFor();
    expect(await newest.locator('[data-status="down"]').count()).toBe(1);
    expect(await newest.locator('td').last().innerText()).toMatch(/refused/i);
  });

  step('pauses and resumes from the detail page', async () => {
    await page.getByTestId('monitor-pause').click();
    await waitForStatus('monitor-detail-status', 'paused');
    await page.getByTestId('monitor-resume').click();
    await page.getByTestId('monitor-pause').waitFor();
    expect(await statusOf('monitor-detail-status')).not.toBe('paused');
  });

  step('filters the list by active and paused, and remembers the grid view across a reload', async () => {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'Paused one', url: 'http://127.0.0.1:9/', interval: 60, timeout: 5 })
      .expect(201);
    const paused = (body as { monitor: MonitorDto }).monitor;
    await request(app.url).post(`/api/monitors/${paused.id}/pause`).set(admin.auth).expect(200);

    await page.getByTestId('monitor-back').click();
    await page.waitForURL(/\/monitors$/);
    await page.getByTestId(`monitor-row-${paused.id}`).waitFor();
    expect(await statusOf(`monitor-status-${paused.id}`)).toBe('paused');

    await page.getByTestId('monitor-filter').locator('label', { hasText: 'Paused' }).click();
    await page.getByTestId(`monitor-row-${monitor.id}`).waitFor({ state: 'detached' });
    await page.getByTestId(`monitor-row-${paused.id}`).waitFor();

    await page.getByTestId('monitor-filter').locator('label', { hasText: 'Active' }).click();
    await page.getByTestId(`monitor-row-${paused.id}`).waitFor({ state: 'detached' });
    await page.getByTestId(`monitor-row-${monitor.id}`).waitFor();

    await page.getByTestId('view-toggle').locator('label').nth(1).click();
    await page.getByTestId('monitors-grid').waitFor();
    await page.reload();
    await page.getByTestId('monitors-grid').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('monitors.view'))).toBe('grid');
  });

  step('deletes a monitor from the detail page after confirmation and returns to the list', async () => {
    await page.goto(`/monitors/${monitor.id}`);
    await page.getByTestId('monitor-delete').click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain('cannot be undone');
    await page.getByTestId('confirm-delete').click();
    await page.waitForURL(/\/monitors$/);
    await page.getByTestId('monitor-filter').waitFor();
    expect(await page.getByTestId(`monitor-row-${monitor.id}`).count()).toBe(0);
    await request(app.url).get(`/api/monitors/${monitor.id}`).set(admin.auth).expect(404);

    await page.goto(`/monitors/${monitor.id}`);
    expect(await page.getByTestId('monitor-missing').innerText()).toContain('Monitor does not exist');
  });
});
