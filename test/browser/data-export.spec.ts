import { readFile } from 'node:fs/promises';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { MonitorDto } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage, screenshot } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 34, requirement 6, on screen: a monitor's checks downloaded from its history tab, and the monthly
 * availability report read, downloaded and laid out for paper, in Chinese, on a 390 px phone.
 */
describe('data export on screen', () => {
  let app: TestApp;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let monitorId: number;

  beforeAll(async () => {
    [app, target] = await Promise.all([startTestApp(), startTargetServer()]);
    admin = await registerFirstAdmin(app.url);
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: '结账服务', url: `${target.url}/checkout`, interval: 86_400 })
      .expect(201);
    monitorId = body.monitor.id;
    await waitFor(
      async () => (await request(app.url).get(`/api/monitors/${monitorId}`).set(admin.auth)).body.monitor as MonitorDto,
      (monitor) => monitor.status === 'up',
    );
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'zh-CN'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await target?.close();
  });

  const step = failureScreenshots(() => [page]);

  step('signs in', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
  });

  step('downloads the monitor’s checks as CSV from its history tab', async () => {
    await page.goto(`/monitors/${monitorId}?tab=history`);
    await page.getByTestId('monitor-export').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('monitor-export-download').click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^vigil-monitor-${monitorId}-checks-\\d{8}T\\d{6}Z-\\d{8}T\\d{6}Z\\.csv$`));
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toBe('time,status,status_code,response_time_ms,error');
    expect(text).toMatch(/\r\n[^,]+,up,200,\d+,\r\n/);
  });

  step('opens the report from the user menu, in Chinese, with the monitor’s month so far', async () => {
    await page.getByTestId('nav-user-menu').click();
    await page.getByTestId('nav-report').click();
    await page.waitForURL('**/reports/availability');
    await page.getByText('可用性报告', { exact: true }).first().waitFor();
    const row = page.getByTestId('report-row').filter({ hasText: '结账服务' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/100\.000 %/);
    expect(await page.getByTestId('report-total-monitors').innerText()).toBe('1');
  });

  step('downloads the month as CSV', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download-csv').click()]);
    const month = new Date().toISOString().slice(0, 7);
    expect(download.suggestedFilename()).toBe(`vigil-availability-${month}.csv`);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toContain(`${monitorId},结账服务,http,`);
  });

  step('fits a 390 px phone without sideways scrolling of the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('report-table').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    expect(await page.getByTestId('report-download-csv').isVisible()).toBe(true);
    await screenshot(page, 'availability-report-390');
  });

  step('prints the report alone: no navbar, no controls, every line', async () => {
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('navbar').isVisible()).toBe(false);
    expect(await page.getByTestId('report-download-csv').isVisible()).toBe(false);
    expect(await page.getByTestId('report-table').isVisible()).toBe(true);
    expect(await page.getByText(/月份：.*（UTC）/).isVisible()).toBe(true);
    await screenshot(page, 'availability-report-print');
    await page.emulateMedia({ media: 'screen' });
  });
});
