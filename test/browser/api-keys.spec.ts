import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { ApiKeysResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 31, requirement 3: an API key made on the profile page, copied with its button, works for a script's request
 * at once, and stops working once revoked there. The section stays usable on a 390 px phone.
 */
describe('API keys on the profile page', () => {
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let copied = '';

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
    // What the copy button puts on the clipboard, read back without clipboard permissions.
    await page.addInitScript(() => {
      const record = (text: string) => {
        (window as unknown as { vigilCopied: string }).vigilCopied = text;
        return Promise.resolve();
      };
      if (navigator.clipboard) Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: record });
    });
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
  });

  const step = failureScreenshots(() => [page]);

  step('signs in and opens the profile', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    await page.getByTestId('api-keys').waitFor();
    await page.getByText('No API keys yet').waitFor();
  });

  step('creates a read key that is shown once, with a warning, and copies it', async () => {
    await page.getByTestId('api-key-name').fill('Deploy script');
    await page.getByTestId('api-key-expiry').click();
    await page.getByRole('option', { name: 'In 30 days' }).click();
    await page.getByTestId('api-key-create').click();
    const shown = page.getByTestId('api-key-created');
    await shown.waitFor();
    expect(await shown.innerText()).toContain('shown only once');
    const secret = await page.getByTestId('api-key-secret').inputValue();
    expect(secret).toMatch(/^vgk_/);
    await page.getByTestId('api-key-copy').click();
    copied = await page
      .waitForFunction(() => (window as unknown as { vigilCopied?: string }).vigilCopied)
      .then((handle) => handle.jsonValue() as Promise<string>);
    expect(copied).toBe(secret);
    expect(await page.getByTestId('api-keys-table').innerText()).toMatch(/Deploy script[\s\S]*Read[\s\S]*Active/i);
  });

  step('the copied key works for a request from a script, within its scope', async () => {
    await request(app.url).get('/api/monitors').set('Authorization', `Bearer ${copied}`).expect(200);
    const write = await request(app.url).post('/api/monitors').set('Authorization', `Bearer ${copied}`).send({ name: 'x', type: 'push' });
    expect(write.status).toBe(403);
    const { body } = await request(app.url).get('/api/api-keys').set(admin.auth).expect(200);
    expect(JSON.stringify(body as ApiKeysResponse)).not.toContain(copied);
  });

  step('after a reload the key is listed by its prefix only, and revoking it stops it at once', async () => {
    await page.reload();
    await page.getByTestId('api-keys-table').waitFor();
    expect(await page.getByTestId('api-key-created').count()).toBe(0);
    expect(await page.getByTestId('api-keys').innerText()).not.toContain(copied);
    const { body } = await request(app.url).get('/api/api-keys').set(admin.auth).expect(200);
    const id = (body as ApiKeysResponse).keys[0].id;
    await page.getByTestId(`api-key-revoke-${id}`).click();
    await page.getByTestId('confirm-delete').click();
    await page.getByTestId(`api-key-state-${id}`).getByText('Revoked').waitFor();
    await request(app.url).get('/api/monitors').set('Authorization', `Bearer ${copied}`).expect(401);
  });

  step('fits a 390 px phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('api-key-create').scrollIntoViewIfNeeded();
    expect(await page.getByTestId('api-key-create').isVisible()).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
