import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { AlertsResponse, MonitorResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * The alerts screens through the real UI: a monitor going down opens an alert that the alerts page lists; it is
 * acknowledged there with a note; a second monitor's alert appears live; the detail page shows the acknowledgement and
 * mutes the monitor; the list marks it muted; the alerts page fits a phone.
 */
describe('alerts in the browser', () => {
  let app: TestApp;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let first = 0;

  beforeAll(async () => {
    target = await startTargetServer();
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

  const step = failureScreenshots(() => [page], { prefix: 'alerts-' });
  const alerts = async (): Promise<AlertsResponse> => (await request(app.url).get('/api/alerts').set(admin.auth).expect(200)).body;

  /** A monitor on its own path of the target, taken down by a manual check once it is up. */
  async function monitorDown(name: string, path: string): Promise<number> {
    target.respondFor(path, 200);
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}${path}`, interval: 3600, timeout: 5, expectedStatus: 2, retries: 0 })
      .expect(201);
    const id = (body as MonitorResponse).monitor.id;
    const status = async () => ((await request(app.url).get(`/api/monitors/${id}`).set(admin.auth)).body as MonitorResponse).monitor.status;
    await waitFor(status, (value) => value === 'up');
    target.respondFor(path, 500);
    await request(app.url).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return id;
  }

  step('signs in, and a monitor going down opens an alert the alerts page lists as open', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');

    const monitorId = await monitorDown('Checkout API', '/checkout');
    const {
      alerts: [alert],
    } = await waitFor(alerts, (answer) => answer.alerts.length === 1);
    expect(alert).toMatchObject({ target_kind: 'monitor', target_id: monitorId, state: 'open', metric: 'status' });
    first = alert.id;

    await page.getByRole('link', { name: 'Alerts' }).first().click();
    const card = page.getByTestId(`alert-card-${first}`);
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('open');
    expect(await card.getByTestId(`alert-target-${first}`).getAttribute('href')).toBe(`/monitors/${monitorId}`);
  });

  step('acknowledges the alert with a note, and the card says who did', async () => {
    await page.getByTestId(`alert-ack-${first}`).click();
    await page.getByTestId('alert-ack-note').fill('Restarting the pods');
    await page.getByTestId('alert-ack-confirm').click();
    const card = page.locator(`[data-testid="alert-card-${first}"][data-state="acknowledged"]`);
    await card.waitFor();
    expect(await card.getByTestId(`alert-ack-info-${first}`).innerText()).toContain(`Acknowledged by ${admin.user.username}`);
    expect(await card.innerText()).toContain('Restarting the pods');

    const [stored] = (await alerts()).alerts;
    expect(stored).toMatchObject({
      state: 'acknowledged',
      ack_note: 'Restarting the pods',
      acknowledged_by: { username: admin.user.username },
    });
  });

  step('a second monitor’s alert appears live, without a reload', async () => {
    await monitorDown('Search API', '/search');
    const second = await waitFor(alerts, (answer) => answer.alerts.length === 2);
    const id = second.alerts.find((alert) => alert.id !== first)!.id;
    await page.locator(`[data-testid="alert-card-${id}"][data-state="open"]`).waitFor();
  });

  step('the detail page shows the acknowledged alert and mutes the monitor for an hour', async () => {
    await page.getByTestId(`alert-target-${first}`).click();
    await page.getByTestId(`target-alert-${first}`).waitFor();
    expect(await page.getByTestId(`alert-ack-${first}`).count()).toBe(0);

    await page.getByTestId('monitor-mute').click();
    await page.getByTestId('monitor-mute-1h').click();
    await page.getByTestId('monitor-detail-muted').waitFor();
    expect(await page.getByTestId('monitor-detail-muted').textContent()).toMatch(/^Muted until /);
    const path = new URL(page.url()).pathname;
    const { body } = await request(app.url)
      .get(`/api/${path.slice(1)}`)
      .set(admin.auth)
      .expect(200);
    const until = Date.parse((body as MonitorResponse).monitor.muted_until ?? '');
    expect(until - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(60 * 60_000);
  });

  step('the monitor list marks the muted monitor', async () => {
    await page.goto('/monitors');
    const id = (await alerts()).alerts.find((alert) => alert.id === first)!.target_id;
    await page.getByTestId(`monitor-muted-${id}`).waitFor();
  });

  step('the dashboard feed offers the open alert and acknowledges it', async () => {
    const open = (await alerts()).alerts.find((alert) => alert.state === 'open')!;
    await page.goto('/dashboard');
    await page.getByTestId(`alert-ack-${open.id}`).click();
    await page.getByTestId('alert-ack-confirm').click();
    await page.getByTestId(`alert-ack-${open.id}`).waitFor({ state: 'detached' });
    expect((await alerts()).alerts.find((alert) => alert.id === open.id)).toMatchObject({ state: 'acknowledged', ack_note: null });
  });

  step('saves reminders and an escalation step in the global settings, and a channel’s grouping', async () => {
    const { body } = await request(app.url)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'Ops hook', type: 'webhook', config: { url: `${target.url}/hook` } })
      .expect(201);
    const channelId = (body as { data: { id: number } }).data.id;
    await page.goto('/notifications');
    await page.getByTestId('global-monitors-enabled').click();
    await page.getByTestId('global-monitors-on-degraded').click();
    await page.getByTestId('global-monitors-channels').click();
    await page.getByRole('option', { name: 'Ops hook (Webhook)', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('global-monitors-reminder').fill('15');
    await page.getByTestId('global-monitors-step-add').click();
    await page.getByTestId('global-monitors-step-0-channels').click();
    await page.getByRole('option', { name: 'Ops hook', exact: true }).click();
    await page.getByTestId('notifications-save').click();
    await page.locator('.mantine-Notification-root').filter({ hasText: 'saved' }).first().waitFor();

    const read = async () => (await request(app.url).get('/api/notifications').set(admin.auth).expect(200)).body.data;
    expect((await read()).settings.monitors).toMatchObject({
      enabled: true,
      channels: [channelId],
      onDegraded: true,
      reminderMinutes: 15,
      escalation: [{ afterMinutes: 30, channels: [channelId] }],
    });

    await page.getByTestId('notifications-tab-channels').click();
    await page.getByTestId(`channel-edit-${channelId}`).click();
    expect(await page.getByTestId('channel-group-wait').inputValue()).toBe('10');
    await page.getByTestId('channel-group-wait').fill('5');
    await page.getByTestId('channel-group-interval').fill('120');
    await page.getByTestId('channel-save').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const [channel] = (await read()).channels;
    expect(channel).toMatchObject({ group_wait_seconds: 5, group_interval_seconds: 120 });
  });

  step('the notification history offers the alert its message belongs to, and acknowledges it', async () => {
    target.respondFor('/hook', 200);
    await monitorDown('Billing API', '/billing');
    const history = async () =>
      (await request(app.url).get('/api/notifications/history').set(admin.auth).expect(200)).body.items as Array<{
        id: number;
        alert_id: number | null;
        status: string;
      }>;
    const [item] = await waitFor(history, (items) => items.some((entry) => entry.alert_id !== null && entry.status === 'sent'));
    expect(item.alert_id).not.toBeNull();

    await page.goto('/notifications?tab=history');
    await page.getByTestId('notifications-tab-history').click();
    const row = page.getByTestId(`history-row-${item.id}`);
    await row.getByTestId(`alert-ack-${item.alert_id}`).click();
    await page.getByTestId('alert-ack-confirm').click();
    await row.getByTestId(`alert-ack-${item.alert_id}`).waitFor({ state: 'detached' });
    expect((await alerts()).alerts.find((alert) => alert.id === item.alert_id)?.state).toBe('acknowledged');
  });

  step('on a phone the alerts page shows its cards without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/alerts');
    await page.getByTestId(`alert-card-${first}`).waitFor();
    await page.getByTestId(`alert-messages-toggle-${first}`).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
