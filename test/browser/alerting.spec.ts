import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { AlertsResponse, MonitorDto, MonitorsResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { documentKept, failureScreenshots, launchBrowser, markDocument, newPage } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 29, requirement 13, through the real UI: a group, a core router and a shop API that depends on the router
 * (and sits in the group) are made with the forms; the detail pages show the chain both ways; the router's target
 * fails and the shop API, failing too, turns unreachable on the list without a reload; the router's alert is
 * acknowledged from its detail page; the screens fit a 390 px phone. Checks run on demand (the API's "check now"
 * while the page is shown), as the scheduler would run them, so nothing waits for an interval.
 */
describe('alerting in the browser: dependencies, groups, unreachable, acknowledgement', () => {
  let app: TestApp;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let group: MonitorDto;
  let router: MonitorDto;
  let shop: MonitorDto;

  beforeAll(async () => {
    target = await startTargetServer();
    target.respondFor('/router', 200);
    target.respondFor('/shop', 200);
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await target?.close();
  });

  const step = failureScreenshots(() => [page], { prefix: 'alerting-' });
  const waitForStatus = (testId: string, status: string) => page.locator(`[data-testid="${testId}"][data-status="${status}"]`).waitFor();

  async function findMonitor(name: string): Promise<MonitorDto> {
    const { body } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
    const found = (body as MonitorsResponse).monitors.find((row) => row.name === name);
    if (!found) throw new Error(`no monitor named ${name}`);
    return found;
  }

  /** Runs one check through the API (as the scheduler would), leaving the page to learn of it live. */
  const checkNow = (monitor: MonitorDto) => request(app.url).post(`/api/monitors/${monitor.id}/check`).set(admin.auth).expect(200);

  /** Opens the create form on a type card and names the monitor. */
  async function openForm(type: 'http' | 'group', name: string): Promise<void> {
    await page.goto('/monitors/create');
    await page.getByTestId(`monitor-type-${type}`).click();
    await page.locator(`[data-testid="monitor-form"][data-type="${type}"]`).waitFor();
    await page.locator('input[name="name"]').fill(name);
  }

  /** An HTTP monitor of the loopback target with no retries, so one failed check decides. */
  async function httpFields(path: string): Promise<void> {
    await page.locator('input[name="url"]').fill(`${target.url}${path}`);
    await page.getByTestId('monitor-advanced').click();
    await page.locator('input[name="retries"]').fill('0');
  }

  /** Types into a searchable picker (found by its label) and chooses the option the server found. */
  async function pick(label: string, search: string, option: string): Promise<void> {
    const input = page.getByRole('combobox', { name: label, exact: true });
    await input.click();
    await input.fill(search);
    await page.getByRole('option', { name: option, exact: true }).click();
    await page.keyboard.press('Escape');
  }

  async function save(name: string): Promise<MonitorDto> {
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/monitors$/);
    return findMonitor(name);
  }

  step('signs in through the login form', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
  });

  step('creates a group, a core router, and a shop API that depends on the router and joins the group', async () => {
    await openForm('group', 'Storefront');
    group = await save('Storefront');
    expect(group.type).toBe('group');

    await openForm('http', 'Core router');
    await httpFields('/router');
    router = await save('Core router');
    await waitForStatus(`monitor-status-${router.id}`, 'up');

    await openForm('http', 'Shop API');
    await httpFields('/shop');
    await pick('Depends on', 'Core', 'Core router');
    await pick('Group', 'Store', 'Storefront');
    shop = await save('Shop API');
    expect(shop).toMatchObject({ depends_on: [{ type: 'monitor', id: router.id }], parent_id: group.id });
    await waitForStatus(`monitor-status-${shop.id}`, 'up');
  });

  step('shows the chain on both detail pages and the member on the group page', async () => {
    await page.goto(`/monitors/${shop.id}`);
    await waitForStatus(`dependency-monitor:${router.id}`, 'up');
    await page.goto(`/monitors/${router.id}`);
    const dependents = page.getByTestId('dependency-chain-dependents');
    await dependents.getByText('1 dependent', { exact: true }).waitFor();
    await waitForStatus(`dependent-monitor:${shop.id}`, 'up');
    await page.goto(`/monitors/${group.id}`);
    await page.getByTestId('group-members').getByText('Shop API').waitFor();
  });

  step('the router fails, and the failing shop API turns unreachable on the list without a reload', async () => {
    await page.goto('/monitors');
    await waitForStatus(`monitor-status-${shop.id}`, 'up');
    await markDocument(page);
    target.respondFor('/router', 503);
    target.respondFor('/shop', 503);
    await checkNow(router);
    await waitForStatus(`monitor-status-${router.id}`, 'down');
    await checkNow(shop);
    await waitForStatus(`monitor-status-${shop.id}`, 'unreachable');
    expect(await documentKept(page)).toBe(true);
  });

  step('acknowledges the router’s alert from its detail page, where the chain names the unreachable dependent', async () => {
    const alerts = async (): Promise<AlertsResponse> => (await request(app.url).get('/api/alerts').set(admin.auth).expect(200)).body;
    const answer = await waitFor(alerts, ({ alerts: found }) =>
      found.some((alert) => alert.target_id === router.id && alert.state === 'open'),
    );
    const alert = answer.alerts.find((found) => found.target_id === router.id && found.state === 'open')!;
    // The dependent sends nothing of its own: no alert opens for it.
    expect(answer.alerts.some((found) => found.target_kind === 'monitor' && found.target_id === shop.id)).toBe(false);

    await page.getByTestId(`monitor-view-${router.id}`).click();
    await page.waitForURL(`**/monitors/${router.id}`);
    await waitForStatus('monitor-detail-status', 'down');
    await waitForStatus(`dependent-monitor:${shop.id}`, 'unreachable');
    await page.getByTestId(`alert-ack-${alert.id}`).click();
    await page.getByTestId('alert-ack-note').fill('Router rebooting');
    await page.getByTestId('alert-ack-confirm').click();
    await page.getByTestId(`target-alert-${alert.id}`).getByTestId(`alert-ack-info-${alert.id}`).waitFor();
    const stored = (await alerts()).alerts.find((found) => found.id === alert.id);
    expect(stored).toMatchObject({ state: 'acknowledged', ack_note: 'Router rebooting' });
  });

  step('fits a 390 px phone: the list with the new statuses and the detail page with its chain', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/monitors');
    await waitForStatus(`monitor-status-${shop.id}`, 'unreachable');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`/monitors/${shop.id}`);
    await waitForStatus(`dependency-monitor:${router.id}`, 'down');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
