import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';
import { totpCode, totpStepNow } from '../support/totp';

/**
 * Issue 31, requirement 4: a user enables two-factor sign-in on the profile page with a code computed here (as an
 * authenticator app would), signs out, and signs back in with a code. Usable on a 390 px phone.
 */
describe('two-factor sign-in in the browser', () => {
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let member: Session;
  let secret = '';
  let enabledStep = 0;
  let recoveryCode = '';

  beforeAll(async () => {
    app = await startTestApp();
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
  });

  const step = failureScreenshots(() => [page]);

  async function fillPassword() {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(member.user.username);
    await page.locator('input[name="password"]').fill(member.password);
    await page.locator('button[type="submit"]').click();
  }

  step('signs in with the password alone and opens the profile', async () => {
    await fillPassword();
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    await page.getByTestId('two-factor-section').getByText('Not enabled').waitFor();
  });

  step('sets up with the QR code and secret, and enables with a code from the app', async () => {
    await page.getByTestId('two-factor-setup-start').click();
    await page.getByTestId('two-factor-qr').waitFor();
    expect(await page.getByTestId('two-factor-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    enabledStep = totpStepNow();
    await page.getByTestId('two-factor-setup-code').fill(totpCode(secret, enabledStep));
    await page.getByTestId('two-factor-enable').click();
    await page.getByTestId('two-factor-recovery-codes').waitFor();
    const codes = await page.getByTestId('two-factor-recovery-code').allInnerTexts();
    expect(codes).toHaveLength(10);
    recoveryCode = codes[0];
    await page.getByTestId('two-factor-codes-done').click();
    await page.getByTestId('two-factor-state').getByText('Enabled').waitFor();
    await page.getByText('Recovery codes left: 10').waitFor();
  });

  step('signs out, and signing in asks for the code after the password', async () => {
    await page.getByTestId('nav-user-menu').click();
    await page.getByTestId('nav-logout').click();
    await page.waitForURL('**/login');
    await fillPassword();
    await page.getByTestId('two-factor-step').waitFor();
    expect(page.url()).toMatch(/\/login$/);
  });

  step('a replayed code is refused on the step, and a fresh one signs in', async () => {
    await page.getByTestId('two-factor-code').fill(totpCode(secret, enabledStep));
    await page.getByTestId('two-factor-submit').click();
    await page.getByTestId('form-error').getByText('incorrect or was already used').waitFor();
    await page.getByTestId('two-factor-code').fill(totpCode(secret, enabledStep + 1));
    await page.getByTestId('two-factor-submit').click();
    await page.waitForURL('**/dashboard');
  });

  step('a recovery code signs in too, on a 390 px phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.clear());
    await fillPassword();
    await page.getByTestId('two-factor-switch').click();
    await page.getByTestId('two-factor-recovery').fill(recoveryCode);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('two-factor-submit').click();
    await page.waitForURL('**/dashboard');
    const { body } = await request(app.url)
      .post('/api/auth/login')
      .send({ username: member.user.username, password: member.password, code: recoveryCode })
      .expect(401);
    expect(body.code).toBe('auth.twoFactorInvalid');
  });

  step('the profile section fits the phone', async () => {
    await page.goto('/profile');
    await page.getByTestId('two-factor-disable').waitFor();
    await page.getByTestId('two-factor-disable').click();
    await page.getByTestId('two-factor-disable-form').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
