import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { IncidentDto, IncidentResponse, MaintenanceDto, MaintenanceListResponse, MonitorDto, MonitorResponse } from '@vigil/proto';
import { startSmtpServer, type FakeSmtpServer, type ReceivedMail } from '../../server/src/mail/fake-smtp-server.testing';
import { registerFirstAdmin, Session } from '../factories/users';
import { documentKept, failureScreenshots, launchBrowser, markDocument, newPage } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

const LOGIN = { username: 'status@example.com', password: 'smtp-Passw0rd-b30!' };
const READER = 'reader@example.com';
/** Pushes reach the page at once; a window's start goes through the server's sweep and a debounced re-read. */
const LIVE_MS = 30_000;
/** `--vp-maintenance` of the light theme (client/src/public/public.css): the maintenance blue. */
const MAINTENANCE_BLUE = 'rgb(28, 126, 214)';

/**
 * Issue 30, requirement 13, through the real UI: an operator creates a maintenance window and an incident with the
 * forms and posts an update; an anonymous visitor who keeps `/status/shop` open sees the window, the component in
 * maintenance, the incident's rendered Markdown and the update arrive without a reload; the visitor subscribes by
 * email, confirms by the mailed link (a real SMTP server on loopback) and is mailed the next update; the screens fit
 * a 390 px phone.
 */
describe('status pages in the browser: maintenance, incidents and subscriptions seen live by a visitor', () => {
  let app: TestApp;
  let smtp: FakeSmtpServer;
  let target: TargetServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let operator: Page;
  let visitor: Page;
  let admin: Session;
  let monitor: MonitorDto;
  let bystander: MonitorDto;
  let planned: MaintenanceDto;
  let incident: IncidentDto;

  beforeAll(async () => {
    [smtp, target] = await Promise.all([startSmtpServer({ mode: 'starttls', login: LOGIN }), startTargetServer()]);
    app = await startTestApp({ env: USERS_REACH_LOOPBACK });
    admin = await registerFirstAdmin(app.url);
    const channel = await request(app.url)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({
        name: 'Status mail',
        type: 'smtp',
        enabled: true,
        language: 'en-US',
        config: JSON.stringify({
          host: smtp.host,
          port: smtp.port,
          security: 'starttls',
          ...LOGIN,
          from: 'Shop status <status@example.com>',
          to: ['ops@example.com'],
          tlsInsecure: true,
        }),
      })
      .expect(201);
    monitor = await createMonitor('Checkout');
    // Beside it on the page, outside the window: the window names what it covers, and this one stays up.
    bystander = await createMonitor('Search');
    await request(app.url)
      .post('/api/status-pages')
      .set(admin.auth)
      .send({
        slug: 'shop',
        title: 'Shop',
        theme: 'light',
        subscribeEmailChannelId: channel.body.data.id,
        groups: [
          {
            name: 'Services',
            collapsed: false,
            items: [
              { type: 'monitor', id: monitor.id },
              { type: 'monitor', id: bystander.id },
            ],
          },
        ],
      })
      .expect(201);
    ({ browser, close: closeBrowser } = await launchBrowser());
    // Separate contexts: the visitor holds no session at all.
    ({ page: operator } = await newPage(browser, app.url, 'en-US'));
    ({ page: visitor } = await newPage(browser, app.url, 'en-US'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await Promise.all([smtp?.close(), target?.close()]);
  });

  /** An HTTP monitor of the loopback target, checked once so the page starts with it up. */
  async function createMonitor(name: string): Promise<MonitorDto> {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}/`, interval: 60, timeout: 5, expectedStatus: 2, retries: 0 })
      .expect(201);
    const created = (body as MonitorResponse).monitor;
    await request(app.url).post(`/api/monitors/${created.id}/check`).set(admin.auth).expect(200);
    return created;
  }

  const step = failureScreenshots(() => [operator, visitor], { prefix: 'status-pages-' });
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelope.to.includes(address));
  const nextMailTo = async (address: string, after: number): Promise<ReceivedMail> =>
    (
      await waitFor(
        async () => mailsTo(address),
        (mails) => mails.length > after,
        LIVE_MS,
      )
    )[after];
  const linkIn = (text: string, path: string) => new RegExp(`(http://[^\\s]+${path}\\?token=[\\w-]+)`).exec(text)?.[1] ?? '';
  const componentStatus = () => visitor.getByTestId(`status-monitor-status-${monitor.id}`);

  /** Opens a Mantine Select or MultiSelect by its test id and picks the option with this label. */
  async function choose(testId: string, label: string): Promise<void> {
    await operator.getByTestId(testId).click();
    await operator.getByRole('option', { name: label, exact: true }).click();
    await operator.keyboard.press('Escape');
  }

  /** Finds the monitor in a component picker by typing its name, and adds it. */
  async function pickMonitor(testId: string): Promise<void> {
    await operator.getByTestId(`${testId}-search-search`).fill('Check');
    await operator.getByTestId(`${testId}-search-add-monitor-${monitor.id}`).click();
    await operator.getByTestId(`${testId}-chosen-item-monitor:${monitor.id}`).waitFor();
  }

  /** Posts the next update of the incident from its detail page, and waits for its timeline to hold `count` updates. */
  async function postUpdate(status: string, message: string, count: number): Promise<void> {
    await choose('incident-update-status', status);
    await operator.getByTestId('incident-update-message').fill(message);
    await operator.getByTestId('incident-update-post').click();
    await operator.waitForFunction(
      (expected) => document.querySelectorAll('[data-testid="incident-timeline"] [data-testid^="incident-update-"]').length === expected,
      count,
    );
  }

  step('signs the operator in, and the visitor opens /status/shop with the component up, live', async () => {
    await operator.goto('/login');
    await operator.locator('input[name="username"]').fill(admin.user.username);
    await operator.locator('input[name="password"]').fill(admin.password);
    await operator.locator('button[type="submit"]').click();
    await operator.waitForURL('**/dashboard');

    await visitor.goto('/status/shop');
    await visitor.locator(`[data-testid="status-monitor-status-${monitor.id}"][data-status="up"]`).waitFor();
    await visitor.locator(`[data-testid="status-monitor-status-${bystander.id}"][data-status="up"]`).waitFor();
    expect(await visitor.getByTestId('status-title').innerText()).toBe('Shop');
    expect(await visitor.getByTestId('status-overall').getAttribute('data-overall')).toBe('operational');
    await visitor.locator('[data-testid="live-badge"][data-connected="true"]').waitFor();
    expect(await visitor.getByTestId('status-maintenance').count()).toBe(0);
    expect(await visitor.getByTestId('status-incidents').count()).toBe(0);
    expect(await visitor.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await markDocument(visitor);
  });

  step('creates a manual maintenance window on the monitor, shown on shop, with the form', async () => {
    await operator.goto('/maintenance/create');
    await operator.getByTestId('maintenance-form').waitFor();
    await operator.getByTestId('maintenance-title').fill('Database upgrade');
    await operator.getByTestId('maintenance-description').fill('Moving to **PostgreSQL 17**.');
    await choose('maintenance-strategy', 'Manual');
    // A manual window is on from its save until switched off.
    expect(await operator.getByTestId('maintenance-manual-on').isChecked()).toBe(true);
    await pickMonitor('maintenance-components');
    await choose('maintenance-pages', 'Shop (shop)');
    await operator.getByTestId('maintenance-submit').click();
    await operator.waitForURL(/\/maintenance$/);

    const { body } = await request(app.url).get('/api/maintenance').set(admin.auth).expect(200);
    planned = (body as MaintenanceListResponse).maintenance.find((row) => row.title === 'Database upgrade')!;
    expect(planned).toMatchObject({
      strategy: 'manual',
      enabled: true,
      scope: { all: false, monitors: [monitor.id] },
      pages: ['shop'],
    });
    await operator.getByTestId(`maintenance-card-${planned.id}`).waitFor();
  });

  step('the visitor sees the window and the component in maintenance (blue), without a reload', async () => {
    const card = visitor.locator(`[data-testid="status-maintenance-${planned.id}"][data-phase="active"]`);
    await card.waitFor({ timeout: LIVE_MS });
    expect(await card.innerText()).toContain('Database upgrade');
    expect(await card.locator('.vp-md strong').innerText()).toBe('PostgreSQL 17');
    expect(await card.innerText()).toContain('Affects Checkout');
    await visitor.locator(`[data-testid="status-monitor-status-${monitor.id}"][data-status="maintenance"]`).waitFor({ timeout: LIVE_MS });
    expect(await componentStatus().innerText()).toBe('Maintenance');
    expect(await componentStatus().evaluate((pill) => getComputedStyle(pill).color)).toBe(MAINTENANCE_BLUE);
    expect(await visitor.getByTestId(`status-monitor-status-${bystander.id}`).getAttribute('data-status')).toBe('up');
    // Nothing is wrong, so the banner says maintenance.
    await visitor.locator('[data-testid="status-overall"][data-overall="maintenance"]').waitFor({ timeout: LIVE_MS });
    expect(await documentKept(visitor)).toBe(true);
  });

  step('opens an incident on shop with the form: title, impact, Markdown message and the monitor', async () => {
    await operator.goto('/incidents/create');
    await operator.getByTestId('incident-form').waitFor();
    await operator.getByTestId('incident-title').fill('Checkout errors');
    await operator.getByTestId('incident-impact').getByText('Major', { exact: true }).click();
    await operator
      .getByTestId('incident-message')
      .fill('Payments **fail** for some cards.\n\n- retry later\n- <script>window.__pwned=1</script>');
    await pickMonitor('incident-components');
    // The form starts on the default page: this incident is shop's alone.
    await operator.getByTestId('incident-pages').click();
    await operator.keyboard.press('Backspace');
    await operator.getByRole('option', { name: 'Shop (shop)', exact: true }).click();
    await operator.keyboard.press('Escape');
    await operator.getByTestId('incident-submit').click();
    await operator.waitForURL(/\/incidents\/\d+$/);

    const id = Number(/\/incidents\/(\d+)$/.exec(operator.url())![1]);
    const { body } = await request(app.url).get(`/api/incidents/${id}`).set(admin.auth).expect(200);
    incident = (body as IncidentResponse).incident;
    expect(incident).toMatchObject({
      title: 'Checkout errors',
      impact: 'major',
      status: 'investigating',
      monitors: [monitor.id],
      pages: ['shop'],
      published: true,
    });
    await operator.getByTestId('incident-detail-title').waitFor();
  });

  step('the visitor sees the incident with its rendered Markdown, without a reload', async () => {
    const card = visitor.locator(`[data-testid="status-incident-${incident.id}"][data-impact="major"]`);
    await card.waitFor({ timeout: LIVE_MS });
    expect(await card.locator('h3').innerText()).toBe('Checkout errors');
    expect(await card.innerText()).toContain('Affects Checkout');
    // A major incident raises the banner to an outage.
    expect(await visitor.getByTestId('status-overall').getAttribute('data-overall')).toBe('outage');
    const update = card.getByTestId(`status-incident-update-${incident.id}`);
    expect(await update.count()).toBe(1);
    expect(await update.locator('.vp-md strong').innerText()).toBe('fail');
    expect(await update.locator('.vp-md li').allInnerTexts()).toContain('retry later');
    // The script tag was rendered harmless on the server: never an element, never run.
    expect(await update.locator('script').count()).toBe(0);
    expect(await visitor.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await documentKept(visitor)).toBe(true);
  });

  step('posts an update on the incident’s detail page, and the visitor sees it arrive, newest first', async () => {
    await postUpdate('Identified', 'A **certificate** expired at the card processor.', 2);
    const updates = visitor.getByTestId(`status-incident-update-${incident.id}`);
    await visitor.waitForFunction(
      (id) => document.querySelectorAll(`[data-testid="status-incident-update-${id}"]`).length === 2,
      incident.id,
      { timeout: LIVE_MS },
    );
    expect(await updates.first().innerText()).toContain('Identified');
    expect(await updates.first().locator('.vp-md strong').innerText()).toBe('certificate');
    expect(await updates.last().innerText()).toContain('Investigating');
    expect(await documentKept(visitor)).toBe(true);
  });

  step('the visitor subscribes by email and confirms by the mailed link, landing on the notice', async () => {
    await visitor.getByTestId('subscribe-email').fill(READER);
    await visitor.getByTestId('subscribe-email-submit').click();
    await visitor.locator('[data-testid="subscribe-email-result"][data-ok="true"]').waitFor();

    const confirmation = await nextMailTo(READER, 0);
    expect(confirmation.mail.subject).toBe('Confirm your subscription to Shop');
    const link = linkIn(confirmation.mail.text ?? '', '/api/subscriptions/confirm');
    expect(link.startsWith(`${app.url}/api/subscriptions/confirm?token=`)).toBe(true);
    await visitor.goto(link);
    await visitor.waitForURL(/\/status\/shop\?subscribed=1$/);
    expect(await visitor.getByTestId('subscribed-notice').innerText()).toBe(
      'Your subscription is confirmed. You will hear about incidents and maintenance of this page.',
    );
    await visitor.locator(`[data-testid="status-incident-${incident.id}"]`).waitFor();
    // The link opened a new document: it follows the page live again before the next update is posted.
    await visitor.locator('[data-testid="live-badge"][data-connected="true"]').waitFor();
    await markDocument(visitor);

    const { body } = await request(app.url).get(`/api/status-pages/shop/subscribers?search=reader`).set(admin.auth).expect(200);
    expect(body).toMatchObject({ total: 1, subscribers: [{ kind: 'email', address: READER, confirmed: true }] });
  });

  step('the next update of the incident reaches the confirmed address as a mail', async () => {
    await postUpdate('Monitoring', 'A new certificate is in place; payments **recover**.', 3);
    const notice = await nextMailTo(READER, 1);
    expect(notice.mail.subject).toBe('[Shop] Update: Checkout errors');
    expect(notice.mail.text).toContain('Status: Monitoring');
    expect(notice.mail.html).toContain('<strong>recover</strong>');
    expect(linkIn(notice.mail.text ?? '', '/api/subscriptions/unsubscribe')).not.toBe('');
    // The visitor's page follows too, and nothing was mailed before the confirmation but the request for it.
    await visitor.waitForFunction(
      (id) => document.querySelectorAll(`[data-testid="status-incident-update-${id}"]`).length === 3,
      incident.id,
      { timeout: LIVE_MS },
    );
    expect(await documentKept(visitor)).toBe(true);
    expect(mailsTo(READER).map((mail) => mail.mail.subject)).toEqual([
      'Confirm your subscription to Shop',
      '[Shop] Update: Checkout errors',
    ]);
  });

  step('fits a 390 px phone: the public page and the operator’s maintenance and incidents pages', async () => {
    const fits = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    await visitor.setViewportSize({ width: 390, height: 844 });
    await operator.setViewportSize({ width: 390, height: 844 });

    await visitor.goto('/status/shop');
    await visitor.locator(`[data-testid="status-incident-${incident.id}"]`).waitFor();
    await visitor.getByTestId(`status-maintenance-${planned.id}`).waitFor();
    await componentStatus().waitFor();
    expect(await fits(visitor)).toBeLessThanOrEqual(0);
    const pill = await componentStatus().boundingBox();
    expect(pill && pill.x >= 0 && pill.x + pill.width <= 390).toBe(true);

    await operator.goto('/maintenance');
    await operator.getByTestId(`maintenance-card-${planned.id}`).waitFor();
    expect(await fits(operator)).toBeLessThanOrEqual(0);
    await operator.goto('/incidents');
    await operator.getByTestId(`incident-card-${incident.id}`).waitFor();
    expect(await fits(operator)).toBeLessThanOrEqual(0);
  });
});
