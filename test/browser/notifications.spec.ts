import request from 'supertest';
import type { Browser, Locator, Page } from 'playwright-core';
import { SECRET_MASK, type MonitorResponse, type NotificationHistoryItem, type NotificationsResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const CHAT_ID = '-100200300';
const CHANNEL = 'Ops Telegram';
const MONITOR = 'Checkout API';
/** How long a delivery through the outbox may take to reach the fake. */
const DELIVERY_MS = 10_000;

/**
 * Notifications through the real UI against a loopback fake playing the Telegram Bot API: a channel refused for a
 * malformed token, fixed and tested, saved with its token masked and still working after a save that kept the mask,
 * global monitor settings saved and read back, the history listing what was sent, a monitor going down alerting
 * through the saved global settings, and a refused test showing the provider's answer.
 */
describe('notifications in the browser', () => {
  let app: TestApp;
  let fake: FakeNotifier;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let channelId = 0;

  beforeAll(async () => {
    [fake, target] = await Promise.all([startFakeNotifier(), startTargetServer()]);
    app = await startTestApp({ env: { TELEGRAM_API_URL: fake.url } });
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await Promise.all([fake?.close(), target?.close()]);
  });

  const step = failureScreenshots(() => [page], { prefix: 'notifications-' });

  const read = async (): Promise<NotificationsResponse['data']> =>
    ((await request(app.url).get('/api/notifications').set(admin.auth).expect(200)).body as NotificationsResponse).data;
  const history = async (): Promise<NotificationHistoryItem[]> =>
    (await request(app.url).get('/api/notifications/history?pageSize=100').set(admin.auth).expect(200)).body.items;

  const dialog = () => page.getByRole('dialog');
  const field = (key: string) => page.getByTestId(`channel-field-${key}`);
  /** The error text Mantine shows under a field, found through the input's own aria-describedby. */
  const errorText = (input: Locator) =>
    input.evaluate((element) => {
      const id = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).find((part) => part.endsWith('-error'));
      return id ? (document.getElementById(id)?.textContent ?? null) : null;
    });
  /** Asserts a field's message (null: none), giving the re-render after a click a moment to land. */
  async function expectError(input: Locator, expected: string | null): Promise<void> {
    await waitFor(
      () => errorText(input),
      (text) => text === expected,
      2_000,
    ).catch(() => undefined);
    expect(await errorText(input)).toBe(expected);
  }
  /** Opens a Mantine Select or MultiSelect by its input and picks the option with this label. */
  async function choose(testId: string, label: string): Promise<void> {
    await page.getByTestId(testId).click();
    await page.getByRole('option', { name: label, exact: true }).click();
  }
  const toast = (text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text }).first();

  step('signs in and opens the notifications page with no channel yet', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto('/notifications');
    await page.getByTestId('notifications-tab-channels').click();
    await page.getByTestId('channels-empty').waitFor();
  });

  step('refuses a missing, then a malformed bot token with its message, sending and saving nothing', async () => {
    await page.getByTestId('channel-add').click();
    await dialog().waitFor();
    // A new channel starts as email (SMTP), the first channel most operators set up.
    expect(await page.getByTestId('channel-type').inputValue()).toBe('Email (SMTP)');
    await choose('channel-type', 'Telegram');
    await page.getByTestId('channel-save').click();
    await expectError(page.getByTestId('channel-name'), 'Channel name is required');
    await expectError(field('botToken'), 'Bot Token is required');

    await page.getByTestId('channel-name').fill(CHANNEL);
    expect(await page.getByTestId('channel-type').inputValue()).toBe('Telegram');
    await choose('channel-language', 'English');
    await field('botToken').fill('12345:short');
    await field('chatId').fill(CHAT_ID);
    // Typing into a field clears its message until the next check.
    await expectError(field('botToken'), null);
    await page.getByTestId('channel-test').click();
    await expectError(field('botToken'), 'Invalid Bot Token format');
    await page.getByTestId('channel-save').click();
    await expectError(field('botToken'), 'Invalid Bot Token format');
    expect(await page.getByTestId('channel-test-result').count()).toBe(0);

    expect(fake.received).toHaveLength(0);
    expect((await read()).channels).toEqual([]);
  });

  step('with the token fixed, a test reaches the fake once, with the typed chat id and the token in the path', async () => {
    await field('botToken').fill(BOT_TOKEN);
    await expectError(field('botToken'), null);
    await page.getByTestId('channel-test').click();
    const result = page.getByTestId('channel-test-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/^Test message sent \(answer 200: /);

    const sent = fake.of('telegram');
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(sent[0].json).toMatchObject({ chat_id: CHAT_ID });
    // The channel's language (English) chose the text.
    expect(sent[0].json.text).toContain(`This is a test message from Vigil for channel ${CHANNEL}`);
  });

  step('saves the channel, which is listed and read back with its token masked', async () => {
    await page.getByTestId('channel-save').click();
    await toast('Notification channel saved').waitFor();
    await dialog().waitFor({ state: 'hidden' });

    const [channel] = (await read()).channels;
    expect(channel).toMatchObject({ name: CHANNEL, type: 'telegram', enabled: true, language: 'en-US' });
    expect(JSON.parse(channel.config)).toEqual({ botToken: SECRET_MASK, chatId: CHAT_ID });
    channelId = channel.id;
    const row = page.getByTestId(`channel-row-${channelId}`);
    await row.waitFor();
    expect(await row.innerText()).toContain(CHANNEL);
    expect(await page.getByTestId('notifications-tab-channels').innerText()).toContain('(1)');
  });

  step('reopened, the dialog shows the token masked; saved again untouched, the channel still sends with the real token', async () => {
    await page.getByTestId(`channel-edit-${channelId}`).click();
    await dialog().waitFor();
    expect(await field('botToken').inputValue()).toBe(SECRET_MASK);
    expect(await field('botToken').getAttribute('type')).toBe('password');
    expect(await field('chatId').inputValue()).toBe(CHAT_ID);
    expect(await dialog().innerText()).toContain('Saved value kept; type a new one to replace it');
    await page.getByTestId('channel-save').click();
    await dialog().waitFor({ state: 'hidden' });

    await page.getByTestId(`channel-edit-${channelId}`).click();
    await dialog().waitFor();
    expect(await field('botToken').inputValue()).toBe(SECRET_MASK);
    await page.getByTestId('channel-test').click();
    await page.getByTestId('channel-test-result').waitFor();
    expect(await page.getByTestId('channel-test-result').innerText()).toMatch(/^Test message sent \(answer 200: /);
    const sent = fake.of('telegram');
    expect(sent).toHaveLength(2);
    expect(sent[1].path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(sent[1].json).toMatchObject({ chat_id: CHAT_ID });
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  step('saves global monitor settings sending to the channel, kept across a reload', async () => {
    await page.getByTestId('notifications-tab-global').click();
    const enabled = page.getByTestId('global-monitors-enabled');
    expect(await enabled.isChecked()).toBe(false);
    // Details show only while the switch is on.
    expect(await page.getByTestId('global-monitors-channels').count()).toBe(0);
    await enabled.check({ force: true });
    await choose('global-monitors-channels', `${CHANNEL} (Telegram)`);
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('global-monitors-on-down').isChecked()).toBe(true);
    await page.getByTestId('notifications-save').click();
    await toast('Notification settings saved').waitFor();

    const { settings } = await read();
    expect(settings.monitors).toEqual({
      enabled: true,
      onDown: true,
      onRecovery: true,
      onCertificateExpiry: true,
      onDegraded: false,
      channels: [channelId],
      reminderMinutes: null,
      escalation: [],
    });
    expect(settings.agents.enabled).toBe(false);

    await page.reload();
    await page.getByTestId('notifications-tab-global').waitFor();
    expect(await page.getByTestId('global-monitors-enabled').isChecked()).toBe(true);
    const picked = page.getByTestId('global-monitors').locator('.mantine-Pill-root');
    expect(await picked.allInnerTexts()).toEqual([`${CHANNEL} (Telegram)`]);
  });

  step('the history tab lists both tests as sent', async () => {
    await page.getByTestId('notifications-tab-history').click();
    await page.getByTestId('history-table').waitFor();
    const items = await history();
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(item).toMatchObject({ event: 'test', target_kind: 'test', channel_name: CHANNEL, channel_type: 'telegram', status: 'sent' });
      const row = page.getByTestId(`history-row-${item.id}`);
      expect(await row.getAttribute('data-status')).toBe('sent');
      expect(await row.innerText()).toContain('Vigil test notification');
    }
    // The test through the saved channel names it; the one from the unsaved dialog could not.
    expect(items.map((item) => item.channel_id).sort()).toEqual([channelId, null].sort());
    expect(await page.getByTestId('history-table').locator('tbody tr[data-status]').count()).toBe(2);
  });

  step('a monitor going down alerts through the global settings, and the history shows it sent', async () => {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: MONITOR, url: `${target.url}/`, interval: 3600, timeout: 5, expectedStatus: 2, retries: 0 })
      .expect(201);
    const monitor = (body as MonitorResponse).monitor;
    const status = async () =>
      ((await request(app.url).get(`/api/monitors/${monitor.id}`).set(admin.auth)).body as MonitorResponse).monitor.status;
    await waitFor(status, (value) => value === 'up');
    expect(fake.of('telegram')).toHaveLength(2);

    target.respond(500);
    await request(app.url).post(`/api/monitors/${monitor.id}/check`).set(admin.auth).expect(200);
    expect(await status()).toBe('down');
    const alerts = await waitFor(
      async () => fake.of('telegram').slice(2),
      (sent) => sent.length > 0,
      DELIVERY_MS,
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0].path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(alerts[0].json).toMatchObject({ chat_id: CHAT_ID });
    expect(alerts[0].json.text.split('\n')[0]).toBe(`[Down] ${MONITOR}`);

    const down = await waitFor(
      async () => (await history()).find((item) => item.target_kind === 'monitor'),
      (item) => item?.status === 'sent',
      DELIVERY_MS,
    );
    await page.getByTestId('history-refresh').click();
    const row = page.locator(`[data-testid="history-row-${down?.id}"][data-status="sent"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain(`[Down] ${MONITOR}`);
    expect(await row.innerText()).toContain(CHANNEL);
    // The monitor's type and target, as the monitor list shows them.
    expect(await row.getByTestId(`history-monitor-type-${down?.id}`).innerText()).toBe('HTTP');
    expect(await row.getByTestId(`history-monitor-target-${down?.id}`).innerText()).toBe(`${target.url}/`);
    // Newest first.
    expect(await page.getByTestId('history-table').locator('tbody tr[data-status]').first().getAttribute('data-testid')).toBe(
      `history-row-${down?.id}`,
    );
    expect(app.output()).not.toContain(BOT_TOKEN);
  });
  step('on a phone the history keeps the message, the monitor target and the status in view', async () => {
    const [down] = (await history()).filter((item) => item.target_kind === 'monitor');
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const row = page.getByTestId(`history-row-${down.id}`);
      const status = row.getByText('Sent', { exact: true });
      await status.waitFor();
      const box = await status.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      expect(await row.getByTestId(`history-monitor-target-${down.id}`).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  step('a test the provider refuses shows its answer in the dialog and lands in the history as failed', async () => {
    await page.getByTestId('notifications-tab-channels').click();
    await page.getByTestId(`channel-edit-${channelId}`).click();
    await dialog().waitFor();
    fake.failNext(1, 401);
    await page.getByTestId('channel-test').click();
    const result = page.getByTestId('channel-test-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/^Test message failed: .*401/);
    expect(await result.innerText()).not.toContain(BOT_TOKEN);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });

    const [failed] = await history();
    expect(failed).toMatchObject({ target_kind: 'test', channel_id: channelId, status: 'failed', attempts: 1 });
    await page.getByTestId('notifications-tab-history').click();
    const row = page.locator(`[data-testid="history-row-${failed.id}"][data-status="failed"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('401');
  });
});
