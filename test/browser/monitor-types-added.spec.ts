import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectAsync, type MqttClient } from 'mqtt';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { MonitorDto, MonitorsResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

/** Pause between the announcer's messages: several fall in any check's wait, none is needed to be on time. */
const ANNOUNCE_EVERY_MS = 100;

/**
 * A publisher on the machine's Mosquitto that says one thing on a topic, over and over (QoS 1, each acknowledged).
 * `say` returns once a message with the new words has been acknowledged, so every message with the old words was
 * handled by the broker before: a check that subscribes afterwards can only hear the new ones.
 */
function startAnnouncer(client: MqttClient, topic: string, words: string) {
  let saying = words;
  let stopped = false;
  const heard: { words: string; resolve: () => void }[] = [];
  const loop = (async () => {
    while (!stopped) {
      const sent = saying;
      await client.publishAsync(topic, sent, { qos: 1 });
      for (const waiter of heard.filter((entry) => entry.words === sent)) waiter.resolve();
      await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_EVERY_MS));
    }
  })();
  return {
    say: (next: string) =>
      new Promise<void>((resolve) => {
        saying = next;
        heard.push({ words: next, resolve });
      }),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * Issue 33, requirement 15: added types through the real UI. An MQTT monitor on the machine's Mosquitto (anonymous,
 * 127.0.0.1:1883) and a synthetic browser monitor against a page served here are made through the form ("test now",
 * save), then go down and back up as what they watch changes, seen on the detail page without a reload; the browser
 * monitor's failure screenshot shows on its detail page; the form and that page fit a 390 px phone. Monitors are the
 * admin's (members may not reach loopback), checks are run with "check now" rather than waited for.
 */
describe('added monitor types in the browser', () => {
  const topic = `vigil/browser-e2e/${randomBytes(6).toString('hex')}`;
  let app: TestApp;
  let admin: Session;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let publisher: MqttClient;
  let announcer: ReturnType<typeof startAnnouncer> | undefined;
  let shop: Server;
  let shopUrl: string;
  /** What the shop's page says; the test changes it to fail the browser monitor and recover it. */
  let shopText = 'Shop is open';
  let mqttMonitor: MonitorDto;
  let browserMonitor: MonitorDto;

  beforeAll(async () => {
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>Shop</title><h1>${shopText}</h1>`);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/`;
    [app, publisher] = await Promise.all([
      startTestApp(),
      connectAsync('mqtt://127.0.0.1:1883', { connectTimeout: 5_000, reconnectPeriod: 0 }),
    ]);
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  }, 120_000);
  afterAll(async () => {
    await announcer?.stop();
    await publisher?.endAsync();
    await closeBrowser?.();
    await app?.destroy();
    shop?.closeAllConnections();
    await new Promise((resolve) => shop?.close(resolve));
  });

  const step = failureScreenshots(() => [page], { prefix: 'added-types-' });
  const waitForStatus = (testId: string, status: string) => page.locator(`[data-testid="${testId}"][data-status="${status}"]`).waitFor();
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  /**
   * Brings the screenshot card's place on screen, where it reads the picture, until `done` settles (bounded by its
   * own timeout): cards above it that are still loading can push it out of view again after a scroll.
   */
  async function showScreenshotPlace<T>(done: Promise<T>): Promise<T> {
    let settled = false;
    const watched = done.finally(() => (settled = true));
    while (!settled) {
      await page.evaluate(() => document.querySelector('[data-testid="monitor-screenshot-anchor"]')?.scrollIntoView({ block: 'center' }));
      await Promise.race([watched.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 250))]);
    }
    return watched;
  }

  async function findMonitor(byName: string): Promise<MonitorDto> {
    const { body } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
    const found = (body as MonitorsResponse).monitors.find((row) => row.name === byName);
    if (!found) throw new Error(`no monitor named ${byName}`);
    return found;
  }

  /** Opens the create form on a type; checked once an hour (checks here are run by hand), no retries, 10 s timeout. */
  async function openForm(type: 'mqtt' | 'browser', name: string): Promise<void> {
    await page.goto('/monitors');
    await page.getByTestId('monitor-create').click();
    await page.waitForURL('**/monitors/create');
    await page.getByTestId(`monitor-type-${type}`).click();
    await page.locator(`[data-testid="monitor-form"][data-type="${type}"]`).waitFor();
    await page.locator('input[name="name"]').fill(name);
    await page.locator('input[name="interval"]').fill('60');
    await page.locator('input[name="timeout"]').fill('10');
    await page.getByTestId('monitor-advanced').click();
    await page.locator('input[name="retries"]').fill('0');
  }

  async function testNow(ok: boolean): Promise<void> {
    await page.getByTestId('monitor-test-now').click();
    await page.locator(`[data-testid="monitor-test-result"][data-ok="${ok}"]`).waitFor();
  }

  /** Saves the form and opens the new monitor's detail page once the list shows it up. */
  async function saveAndOpen(name: string): Promise<MonitorDto> {
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/monitors$/);
    const monitor = await findMonitor(name);
    await waitForStatus(`monitor-status-${monitor.id}`, 'up');
    await page.getByTestId(`monitor-view-${monitor.id}`).click();
    await page.waitForURL(`**/monitors/${monitor.id}`);
    await waitForStatus('monitor-detail-status', 'up');
    return monitor;
  }

  /** "Check now" on the detail page, then the status it should show. */
  async function checkNow(status: 'up' | 'down'): Promise<void> {
    await page.getByTestId('monitor-check-now').click();
    await waitForStatus('monitor-detail-status', status);
  }

  async function newestCheck(): Promise<string> {
    await page.getByTestId('monitor-tab-history').click();
    const newest = page.getByTestId('monitor-history').locator('tbody tr').first();
    await newest.waitFor();
    const text = await newest.innerText();
    await page.getByTestId('monitor-tab-overview').click();
    return text;
  }

  step('signs in through the login form', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
  });

  step('makes an MQTT monitor through the form: its own message passes "test now", then the broadcast it watches', async () => {
    await openForm('mqtt', 'Plant broker');
    await page.locator('input[name="hostname"]').fill('127.0.0.1');
    await page.locator('input[name="port"]').fill('1883');
    await page.locator('input[name="mqttTopic"]').fill(topic);
    // The check type's choice reads in words, not as its value.
    expect(await page.getByTestId('monitor-setting-mqttCheckType').inputValue()).toBe('Keyword');
    await page.locator('input[name="mqttSuccessMessage"]').fill('healthy');

    // Nobody else speaks on the topic yet: only the monitor's own message can pass.
    await page.locator('input[name="mqttPublishMessage"]').fill('healthy (from Vigil)');
    await testNow(true);

    await page.locator('input[name="mqttPublishMessage"]').fill('');
    announcer = startAnnouncer(publisher, topic, 'plant healthy');
    await testNow(true);

    mqttMonitor = await saveAndOpen('Plant broker');
    expect(mqttMonitor).toMatchObject({ type: 'mqtt', hostname: '127.0.0.1', port: 1883, retries: 0 });
    expect(mqttMonitor.settings).toMatchObject({ mqttTopic: topic, mqttCheckType: 'keyword', mqttSuccessMessage: 'healthy' });
    expect(mqttMonitor.settings).not.toHaveProperty('mqttPublishMessage');
  });

  step('sees the MQTT monitor go down by name when the broadcast changes, and up again when it is healthy', async () => {
    await announcer!.say('plant failing');
    await checkNow('down');
    expect(await newestCheck()).toContain(`Message on ${topic} does not contain "healthy": plant failing`);

    await announcer!.say('plant healthy');
    await checkNow('up');
  });

  step('makes a browser monitor with one step through the form, tested and saved up', async () => {
    await openForm('browser', 'Shop front');
    await page.locator('input[name="url"]').fill(shopUrl);
    await page.locator('textarea[name="steps"]').fill('expectText Shop is open');
    await testNow(true);
    const none = page.waitForResponse((response) => response.url().endsWith('/screenshot'));
    browserMonitor = await saveAndOpen('Shop front');
    expect(browserMonitor).toMatchObject({ type: 'browser', url: shopUrl, settings: { steps: ['expectText Shop is open'] } });
    // A browser monitor that never failed has no screenshot: the card asks once in view, and shows nothing.
    await page.getByTestId('monitor-screenshot-anchor').waitFor({ state: 'attached' });
    expect((await showScreenshotPlace(none)).status()).toBe(404);
    expect(await page.getByTestId('monitor-screenshot').count()).toBe(0);
  });

  step('sees the browser monitor go down when the text changes, with the failure screenshot, and up again', async () => {
    shopText = 'Closed for stocktaking';
    await checkNow('down');
    expect(await newestCheck()).toContain('Step 1 (expectText "Shop is open"): text not found on the page');

    const kept = await request(app.url).get(`/api/monitors/${browserMonitor.id}/screenshot`).set(admin.auth);
    expect([kept.status, kept.headers['content-type']]).toEqual([200, 'image/png']);
    // The history tab unmounted the overview: its card asks again once back in view.
    const image = page.getByTestId('monitor-screenshot-image');
    await showScreenshotPlace(image.waitFor());
    // Loaded from its object URL (the page's policy allows blob: images), not a broken picture.
    await page.waitForFunction(
      () => ((document.querySelector('[data-testid="monitor-screenshot-image"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    expect(await page.getByTestId('monitor-screenshot-time').innerText()).toMatch(/^Taken /);

    shopText = 'Shop is open';
    await checkNow('up');
    // The last failure's picture stays until the next failure replaces it.
    await image.waitFor();
  });

  step('fits a 390 px phone: the detail page with its screenshot and the form of an added type', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('monitor-screenshot-image').scrollIntoViewIfNeeded();
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    expect((await page.getByTestId('monitor-screenshot-image').boundingBox())!.width).toBeLessThanOrEqual(390);

    await openForm('mqtt', 'Phone check');
    await page.getByTestId('monitor-setting-mqttCheckType').waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(390);
  });
});
