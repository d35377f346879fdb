import request from 'supertest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { browserKeys, decryptPush, startFakePushService, type FakePushService } from '../support/fake-push-service';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: { url?: string } | null;
}

/**
 * Browser notifications through the real service worker. Headless Chromium cannot reach a real push service, so the
 * subscription is made through the API with the test's own keys and an endpoint at a loopback fake; when a monitor
 * goes down the fake receives the real encrypted push, the test decrypts it as the browser would and hands it to the
 * page's service worker (CDP `ServiceWorker.deliverPushMessage`), which must show it.
 */
describe('browser notifications', () => {
  let app: TestApp;
  let push: FakePushService;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let admin: Session;
  let registrationId = '';

  beforeAll(async () => {
    [push, target] = await Promise.all([startFakePushService(), startTargetServer()]);
    // Deliveries to browsers follow the user rules, which refuse loopback (the fake push service) by default.
    app = await startTestApp({ env: { WEB_PUSH_ALLOW_HTTP: 'true', ...USERS_REACH_LOOPBACK } });
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ context, page } = await newPage(browser, app.url, 'en-US'));
    await context.grantPermissions(['notifications'], { origin: app.url });
    cdp = await context.newCDPSession(page);
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await Promise.all([push?.close(), target?.close()]);
  });

  const step = failureScreenshots(() => [page], { prefix: 'web-push-' });
  const api = () => request(app.url);

  step('shows the "Enable browser notifications" control on the profile page, within a 390 px screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    const enable = page.getByTestId('web-push-enable');
    await enable.waitFor();
    expect(await enable.textContent()).toBe('Enable browser notifications');
    expect(await page.getByTestId('web-push-state').textContent()).toBe('Not enabled in this browser');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  step('registers the service worker at the site root, served fresh and allowed by the CSP', async () => {
    const script = await api().get('/sw.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toMatch(/max-age=0/);
    const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => registrations.push(...updated));
    await cdp.send('ServiceWorker.enable');
    const scope = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      return registration.scope;
    });
    expect(scope).toBe(`${app.url}/`);
    registrationId = (await waitFor(
      async () => registrations.find((registration) => registration.scopeURL === scope),
      (found) => found !== undefined,
    ))!.registrationId;
  });

  step('shows the alert a monitor going down sends, and keeps the monitor page to open', async () => {
    const keys = browserKeys();
    await api()
      .post('/api/web-push/subscriptions')
      .set(admin.auth)
      .send({ endpoint: push.endpoint('chromium'), keys: { p256dh: keys.p256dh, auth: keys.auth } })
      .expect(201);
    const channel = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'Browsers', type: 'webpush', enabled: true, language: 'en-US', config: { audience: 'all' } })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, channels: JSON.stringify([channel.body.data.id]) })
      .expect(200);
    target.respond(200);
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'Checkout API', url: `${target.url}/checkout`, interval: 3600, retries: 0 })
      .expect(201);
    const id = body.monitor.id as number;
    await waitFor(
      async () => (await api().get(`/api/monitors/${id}`).set(admin.auth)).body.monitor.status,
      (status) => status === 'up',
    );
    target.respond(500);
    await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    const [delivery] = await waitFor(
      async () => push.of('chromium'),
      (requests) => requests.length > 0,
    );

    await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId, data: decryptPush(delivery.body, keys) });

    const [shown] = await waitFor(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications()).map((notification): ShownNotification => ({
            title: notification.title,
            body: notification.body,
            tag: notification.tag,
            data: notification.data as ShownNotification['data'],
          }));
        }),
      (notifications) => notifications.length > 0,
    );
    expect(shown.tag).toBe(`vigil-monitor-${id}`);
    expect(shown.data).toEqual({ url: `/monitors/${id}` });
    expect(`${shown.title}\n${shown.body}`).toContain('Checkout API');
  });
});
