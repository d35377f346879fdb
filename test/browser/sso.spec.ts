import type { Browser, Page } from 'playwright-core';
import { registerFirstAdmin } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { LoopbackProvider, startLoopbackProvider } from '../support/oidc-loopback';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 31: signing in through the loopback OpenID Connect provider in Chromium: the login page's "Sign in with …"
 * button, the provider's own login form, and back to Vigil signed in, within a 390 px screen.
 */
describe('single sign-on in the browser', () => {
  let provider: LoopbackProvider;
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;

  beforeAll(async () => {
    provider = await startLoopbackProvider();
    app = await startTestApp({
      env: {
        OIDC_ALLOW_HTTP: 'true',
        OIDC_PROVIDERS: 'corp',
        OIDC_CORP_ISSUER: provider.url,
        OIDC_CORP_CLIENT_ID: 'vigil-browser',
        OIDC_CORP_CLIENT_SECRET: 'browser-client-secret',
        OIDC_CORP_NAME: 'Corp SSO',
        OIDC_CORP_AUTO_CREATE: 'true',
      },
    });
    await provider.addClient({
      clientId: 'vigil-browser',
      clientSecret: 'browser-client-secret',
      redirectUris: [`${app.url}/api/auth/sso/corp/callback`],
    });
    await provider.setAccount('nora', { email: 'nora@corp.example', email_verified: true, preferred_username: 'nora' });
    await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  }, 90_000);
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await provider?.stop();
  });

  const step = failureScreenshots(() => [page], { prefix: 'sso-' });

  step('signs in with "Sign in with Corp SSO" through the provider’s login form and lands on the dashboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/login');
    const button = page.getByTestId('sso-corp');
    await button.waitFor();
    expect(await button.textContent()).toContain('Sign in with Corp SSO');
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await button.click();
    // The provider's development login form (any password).
    await page.locator('input[name="login"]').fill('nora');
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    expect(page.url()).not.toContain('token=');
    const stored = await page.evaluate(() => ({ token: localStorage.getItem('token'), user: localStorage.getItem('user') }));
    expect(stored.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.parse(stored.user!)).toMatchObject({ username: 'nora', email: 'nora@corp.example' });
  });

  step('shows a refused sign-in as one translated message on the login page', async () => {
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login?sso_error=sso.stateInvalid');
    await page.getByTestId('form-error').waitFor();
    expect(await page.getByTestId('form-error').textContent()).toContain('The sign-in expired or was started in another browser');
  });
});
