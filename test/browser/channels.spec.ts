import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { SECRET_MASK, type NotificationsResponse } from '@vigil/proto';
import { startSmtpServer, type FakeSmtpServer } from '../../server/src/mail/fake-smtp-server.testing';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

const CHANNEL = 'Ops mail';

/**
 * An email channel through the real form (issue 28): the SMTP fields drawn from the channel spec, a test that reaches
 * the test's own SMTP server over STARTTLS with a login, and the channel saved with its password masked; on a
 * phone-sized screen the dialog keeps every field within the width.
 */
describe('an SMTP channel in the browser', () => {
  let app: TestApp;
  let smtp: FakeSmtpServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;

  beforeAll(async () => {
    smtp = await startSmtpServer({ mode: 'starttls', login: { username: 'ops', password: 's3cret-pass' } });
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
    await page.setViewportSize({ width: 390, height: 844 });
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await smtp?.close();
  });

  const step = failureScreenshots(() => [page], { prefix: 'channels-' });
  const field = (key: string) => page.getByTestId(`channel-field-${key}`);
  const read = async (): Promise<NotificationsResponse['data']> =>
    ((await request(app.url).get('/api/notifications').set(admin.auth).expect(200)).body as NotificationsResponse).data;

  step('signs in and opens a new channel, which starts as email with its defaults', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto('/notifications');
    await page.getByTestId('notifications-tab-channels').click();
    await page.getByTestId('channel-add').click();
    await page.getByRole('dialog').waitFor();

    expect(await page.getByTestId('channel-type').inputValue()).toBe('Email (SMTP)');
    expect(await field('port').inputValue()).toBe('587');
    expect(await field('security').inputValue()).toBe('STARTTLS');
  });

  step('names a bad recipient under its field before sending anything', async () => {
    await page.getByTestId('channel-name').fill(CHANNEL);
    await page.getByTestId('channel-language').click();
    await page.getByRole('option', { name: 'English', exact: true }).click();
    await field('host').fill(smtp.host);
    await field('port').fill(String(smtp.port));
    await field('username').fill('ops');
    await field('password').fill('s3cret-pass');
    await field('from').fill('Vigil <alerts@example.com>');
    await field('to').fill('oncall@example.com, not-an-address');
    await page.getByTestId('channel-test').click();
    await page.getByText('Recipients must be email addresses separated by commas').waitFor();
    expect(smtp.received).toHaveLength(0);
  });

  step('tests the channel: the mail arrives at the SMTP server, over STARTTLS and logged in', async () => {
    await field('to').fill('oncall@example.com, lead@example.com');
    // The test's server has a self-signed certificate.
    await field('tlsInsecure').check({ force: true });
    await page.getByTestId('channel-test').click();
    const mail = await smtp.next(15_000);
    const result = page.getByTestId('channel-test-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/^Test message sent \(answer 250: /);

    expect(mail.secure).toBe(true);
    expect(mail.user).toBe('ops');
    expect(mail.envelope.to.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
    expect(mail.mail.subject).toBe('Vigil test notification');
    expect(mail.mail.text).toContain(`This is a test message from Vigil for channel ${CHANNEL}`);
    expect(mail.mail.html).toContain(CHANNEL);
  });

  step('fits a phone: no field is wider than the screen', async () => {
    const widest = await page
      .getByRole('dialog')
      .evaluate((dialog) => Math.max(...[...dialog.querySelectorAll('input')].map((input) => input.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(390);
  });

  step('saves it, read back with the password masked and the recipients as a list', async () => {
    await page.getByTestId('channel-save').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const [channel] = (await read()).channels;
    expect(channel).toMatchObject({ name: CHANNEL, type: 'smtp' });
    expect(JSON.parse(channel.config)).toMatchObject({
      host: smtp.host,
      port: smtp.port,
      security: 'starttls',
      password: SECRET_MASK,
      to: ['oncall@example.com', 'lead@example.com'],
      tlsInsecure: true,
    });
  });
});
