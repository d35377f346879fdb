import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { userInput } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The first-run journey through the real UI on a fresh database: the first account becomes the admin, language
 * switching sticks, the users page is live, logging out protects routes, and a non-admin cannot open /users.
 */
describe('foundation in the browser', () => {
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  const admin = userInput({ username: 'founder' });

  beforeAll(async () => {
    app = await startTestApp();
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'zh-CN'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
  });

  const step = failureScreenshots(() => [page]);

  async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
    let value = await read();
    for (let attempt = 0; attempt < 50 && !accept(value); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      value = await read();
    }
    return value;
  }

  async function signIn(target: Page, username: string, password: string): Promise<void> {
    await target.goto('/login');
    await target.locator('input[name="username"]').fill(username);
    await target.locator('input[name="password"]').fill(password);
    await target.locator('button[type="submit"]').click();
    await target.waitForURL('**/dashboard');
  }

  step('registers the first account as admin and lands on the dashboard after signing in', async () => {
    await page.goto('/register');
    await page.locator('input[name="username"]').fill(admin.username);
    await page.locator('input[name="email"]').fill(admin.email);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('input[name="confirmPassword"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/login');

    await signIn(page, admin.username, admin.password);
    await page.getByTestId('dashboard-title').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: admin.username, role: 'admin' });
  });

  step('speaks Chinese by default and switches to English, which survives a reload', async () => {
    const chinese = await page.getByTestId('dashboard-title').innerText();
    expect(chinese).toMatch(/[\u4e00-\u9fff]/);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');

    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-option-en-US').click();
    const english = await eventually(
      () => page.getByTestId('dashboard-title').innerText(),
      (text) => text !== chinese,
    );
    expect(english).not.toMatch(/[\u4e00-\u9fff]/);

    await page.reload();
    await page.getByTestId('dashboard-title').waitFor();
    expect(await page.getByTestId('dashboard-title').innerText()).toBe(english);
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en-US');
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US');
  });

  step('opens user management from the user menu, and the table updates live', async () => {
    await page.getByTestId('nav-user-menu').click();
    await page.getByTestId('nav-users').click();
    await page.waitForURL('**/users');
    await page.getByTestId('users-table').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const { body: me } = await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    await page.getByTestId(`users-row-${me.user.id}`).waitFor();

    // Another admin action, not made through this page, shows up without a reload.
    const input = userInput({ username: 'livecheck' });
    const { body } = await request(app.url).post('/api/users').set('Authorization', `Bearer ${token}`).send(input).expect(201);
    const row = page.getByTestId(`users-row-${body.user.id}`);
    await row.waitFor();
    expect(await row.innerText()).toContain('livecheck');

    await request(app.url).delete(`/api/users/${body.user.id}`).set('Authorization', `Bearer ${token}`).expect(200);
    await row.waitFor({ state: 'detached' });
  });

  step('logs out to /login, after which a protected route redirects to /login', async () => {
    await page.getByTestId('nav-user-menu').click();
    await page.getByTestId('nav-logout').click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);

    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await page.getByTestId('login-button').waitFor();
  });

  step('sends a signed-in non-admin who opens /users to /dashboard', async () => {
    const { body: session } = await request(app.url)
      .post('/api/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(200);
    const member = userInput({ username: 'member' });
    await request(app.url).post('/api/users').set('Authorization', `Bearer ${session.token}`).send(member).expect(201);

    const { context, page: memberPage } = await newPage(browser, app.url, 'en-US');
    try {
      await signIn(memberPage, member.username, member.password);
      await memberPage.getByTestId('nav-user-menu').click();
      expect(await memberPage.getByTestId('nav-users').count()).toBe(0);
      await memberPage.goto('/users');
      await memberPage.waitForURL('**/dashboard');
      await memberPage.getByTestId('dashboard-title').waitFor();
    } finally {
      await context.close();
    }
  });

  step('shows the not-found page for an unknown route, with a way home', async () => {
    await page.goto('/definitely/not/here');
    await page.getByTestId('not-found').waitFor();
  });
});
