import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { MonitorDto } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

/** Issue 34, requirements 1–3 on screen: a Kuma 2.x database dry-run and imported from the settings page on a 390 px phone, in Chinese. */
describe('import from Uptime Kuma on screen', () => {
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kuma-browser-'));
    execFileSync(process.execPath, [join(__dirname, '..', 'fixtures', 'kuma', 'build-kuma-db.mjs'), dir]);
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'zh-CN'));
    await page.setViewportSize({ width: 390, height: 844 });
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const step = failureScreenshots(() => [page]);
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  step('signs in and opens the import page', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto('/settings/import');
    await page.getByText('从 Uptime Kuma 导入', { exact: true }).first().waitFor();
    await fits();
  });

  step('shows a dry run’s report without writing anything', async () => {
    await page.locator('input[type="file"]').setInputFiles(join(dir, 'kuma-2.db'));
    await page.getByTestId('kuma-dry-run').click();
    await page.getByTestId('kuma-report').waitFor();
    expect(await page.getByTestId('kuma-report').innerText()).toContain('试运行：导入将执行的操作');
    expect(await page.getByTestId('kuma-skipped').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Vigil 没有这种监控类型')]),
    );
    await fits();
    expect((await request(app.url).get('/api/monitors').set(admin.auth).expect(200)).body.total).toBe(0);
  });

  step('imports and shows the report', async () => {
    await page.getByTestId('kuma-run').click();
    await page.getByText('导入报告', { exact: true }).waitFor();
    await fits();
    const monitors = (await request(app.url).get('/api/monitors?pageSize=100').set(admin.auth).expect(200)).body.monitors as MonitorDto[];
    expect(monitors.map((monitor) => monitor.name)).toEqual(expect.arrayContaining(['Website', 'Nightly backup', 'Production']));
  });
});
