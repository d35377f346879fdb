import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { MonitorDto } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 34, requirement 1 at phone width (390 px): a monitor's tags as badges on the list and filtered by one, its
 * description and upside-down badge on the detail page, and the three fields in the form, with no sideways scrolling.
 */
describe('monitor description, tags and upside-down mode in the browser', () => {
  let app: TestApp;
  let admin: Session;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let tagged: MonitorDto;
  let other: MonitorDto;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    const create = async (body: object) =>
      (await request(app.url).post('/api/monitors').set(admin.auth).send(body).expect(201)).body.monitor as MonitorDto;
    tagged = await create({
      name: 'Checkout',
      url: 'https://checkout.example.com/health',
      active: false,
      description: 'Payments behind the CDN\nOwned by the shop team',
      tags: ['env:prod', 'team:shop'],
      upsideDown: true,
    });
    other = await create({ name: 'Blog', url: 'https://blog.example.com/', active: false, tags: ['env:test'] });
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
    await page.setViewportSize({ width: 390, height: 844 });
  }, 120_000);
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
  });

  const step = failureScreenshots(() => [page], { prefix: 'labels-' });
  const noSidewaysScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  step('signs in', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  });

  step('shows the tags as badges and lists only the monitors carrying the one clicked', async () => {
    await page.goto('/monitors');
    await page.getByTestId(`monitor-row-${other.id}`).waitFor();
    await page.getByRole('link', { name: 'Monitors tagged env:prod' }).first().click();
    await page.waitForURL((url) => url.search === '?tag=env%3Aprod');
    await page.getByTestId(`monitor-row-${other.id}`).waitFor({ state: 'detached' });
    await page.getByTestId(`monitor-row-${tagged.id}`).waitFor();
    expect(await page.getByTestId('monitor-tag-filter').inputValue()).toBe('env:prod');
    await noSidewaysScroll();
  });

  step('shows the description as text and the upside-down badge on the detail page', async () => {
    await page.goto(`/monitors/${tagged.id}`);
    await page.getByTestId('monitor-detail-description').waitFor();
    expect(await page.getByTestId('monitor-detail-description').innerText()).toBe('Payments behind the CDN\nOwned by the shop team');
    expect(await page.getByTestId('monitor-detail-upside-down').innerText()).toMatch(/upside down/i);
    await noSidewaysScroll();
  });

  step('edits the three fields in the form', async () => {
    await page.goto(`/monitors/edit/${tagged.id}`);
    const description = page.locator('textarea[name="description"]');
    await description.waitFor();
    expect(await description.inputValue()).toBe('Payments behind the CDN\nOwned by the shop team');
    expect(await page.locator('input[name="upsideDown"]').isChecked()).toBe(true);
    await page.getByTestId('monitor-upside-down').click();
    await noSidewaysScroll();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === `/monitors/${tagged.id}`);
    const { body } = await request(app.url).get(`/api/monitors/${tagged.id}`).set(admin.auth).expect(200);
    expect(body.monitor).toMatchObject({ upside_down: false, tags: ['env:prod', 'team:shop'] });
  });
});
