import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import type { MonitorResponse } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';

/** What a page reported breaking its CSP: `securitypolicyviolation` events and the console's CSP lines. */
interface Violations {
  events(): Promise<string[]>;
  console: string[];
}

async function watchViolations(context: BrowserContext, page: Page): Promise<Violations> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { vigilCspViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) console.push(message.text());
  });
  return {
    events: () => page.evaluate(() => (window as unknown as { vigilCspViolations?: string[] }).vigilCspViolations ?? []),
    console,
  };
}

/** A page on another origin (another loopback port) that frames the given addresses. */
async function startFramer(): Promise<{ url: string; frame(paths: string[]): void; close(): Promise<void> }> {
  let body = '';
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    frame(urls) {
      body = `<!doctype html><title>framer</title>${urls.map((url, index) => `<iframe name="f${index}" src="${url}" width="800" height="600"></iframe>`).join('')}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Issue 14, finding 8: the app works under its strict CSP (no violation on the login page, dashboard, monitor
 * dialog, status page and wall; style elements carry the nonce), the status page applies its scoped custom CSS,
 * and other sites may frame only the wall and the status page, and only where FRAME_ANCESTORS allows.
 */
describe('browser hardening in the browser', () => {
  let app: TestApp;
  let target: TargetServer;
  let framer: Awaited<ReturnType<typeof startFramer>>;
  let admin: Session;
  let monitorId: number;
  let displayKey: string;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let context: BrowserContext;
  let violations: Violations;

  beforeAll(async () => {
    [app, target, framer] = await Promise.all([startTestApp(), startTargetServer(), startFramer()]);
    admin = await registerFirstAdmin(app.url);
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'Public API', url: `${target.url}/`, interval: 60, timeout: 5, retries: 0 })
      .expect(201);
    monitorId = (body as MonitorResponse).monitor.id;
    await request(app.url).post(`/api/monitors/${monitorId}/check`).set(admin.auth).expect(200);
    await request(app.url)
      .post('/api/status/config')
      .set(admin.auth)
      .send({
        title: 'Acme status',
        customCss:
          'body { background-color: rgb(1, 2, 3) } h1 { color: rgb(255, 0, 0) } .vigil-status-page > * { outline-color: rgb(4, 5, 6) }',
        monitors: [monitorId],
        agents: [],
      })
      .expect(200);
    displayKey = (await request(app.url).post('/api/wall/keys').set(admin.auth).send({ name: 'NOC' }).expect(201)).body.secret;
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page, context } = await newPage(browser, app.url, 'en-US'));
    violations = await watchViolations(context, page);
  });
  afterAll(async () => {
    await closeBrowser?.();
    await Promise.all([app?.destroy(), target?.close(), framer?.close()]);
  });

  const step = failureScreenshots(() => [page], { prefix: 'hardening-' });

  async function expectNoViolations(): Promise<void> {
    expect(await violations.events()).toEqual([]);
    expect(violations.console).toEqual([]);
    // Every style element the app created at run time carries the page's nonce (else the CSP would have refused it).
    const unsigned = await page.evaluate(() => [...document.querySelectorAll('style')].filter((style) => !style.nonce).length);
    expect(unsigned).toBe(0);
  }

  step('signs in and uses the dashboard, a menu and a dialog without a CSP violation', async () => {
    const response = await page.goto('/login');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('dashboard-title').waitFor();
    expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBeGreaterThan(0);
    await page.getByTestId('nav-user-menu').click();
    await page.getByTestId('nav-profile').waitFor();
    await page.keyboard.press('Escape');
    await page.goto(`/monitors/${monitorId}`);
    await page.getByTestId('monitor-delete').click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expectNoViolations();
  });

  step('shows the status page with its custom CSS scoped to the page, without a CSP violation', async () => {
    await page.goto('/status');
    await page.getByTestId('status-title').waitFor();
    expect(await page.getByTestId('status-title').evaluate((element) => getComputedStyle(element).color)).toBe('rgb(255, 0, 0)');
    const styled = await page.evaluate(() => {
      const root = document.querySelector('.vigil-status-page');
      return {
        page: root ? getComputedStyle(root).backgroundColor : null,
        body: getComputedStyle(document.body).backgroundColor,
        child: root?.firstElementChild ? getComputedStyle(root.firstElementChild).outlineColor : null,
      };
    });
    expect(styled).toEqual({ page: 'rgb(1, 2, 3)', body: expect.not.stringMatching(/rgb\(1, 2, 3\)/), child: 'rgb(4, 5, 6)' });
    // The rule for h1 reaches only the page's own headings, not the rest of the app.
    expect(await page.locator('style[data-vigil-custom-css]').evaluate((style) => style.textContent)).not.toMatch(/(^|\})\s*h1/);
    await expectNoViolations();
  });

  step('shows the wall opened with a display key without a CSP violation', async () => {
    await page.goto(`/wall?key=${encodeURIComponent(displayKey)}`);
    await page.locator(`[data-testid="wall-monitor-${monitorId}"]`).waitFor();
    await page.locator('[data-testid="wall-connection"][data-state="connected"]').waitFor();
    await expectNoViolations();
  });

  step('refuses to be framed by another site by default, the wall included', async () => {
    const { page: host } = await newPage(browser, framer.url, 'en-US');
    const refused: string[] = [];
    host.on('console', (message) => message.text().includes('frame-ancestors') && refused.push(message.text()));
    framer.frame([`${app.url}/wall?key=${encodeURIComponent(displayKey)}`, `${app.url}/login`]);
    await host.goto('/');
    await waitUntil(() => refused.length >= 2);
    for (const name of ['f0', 'f1']) expect(await hasApp(host.frame({ name }))).toBe(false);
    await host.close();
  });

  describe('with FRAME_ANCESTORS naming the other site', () => {
    let allowing: TestApp;
    let key: string;

    beforeAll(async () => {
      allowing = await startTestApp({ env: { FRAME_ANCESTORS: `'self' ${framer.url}` } });
      const owner = await registerFirstAdmin(allowing.url);
      key = (await request(allowing.url).post('/api/wall/keys').set(owner.auth).send({ name: 'NOC' }).expect(201)).body.secret;
    });
    afterAll(async () => {
      await allowing?.destroy();
    });

    step('lets that site frame the wall and the status page, but not the sign-in page, also when reached inside the frame', async () => {
      const { page: host } = await newPage(browser, framer.url, 'en-US');
      const refused: string[] = [];
      host.on('console', (message) => message.text().includes('frame-ancestors') && refused.push(message.text()));
      framer.frame([`${allowing.url}/wall?key=${encodeURIComponent(key)}`, `${allowing.url}/status`, `${allowing.url}/login`]);
      await host.goto('/');
      await host.frame({ name: 'f0' })!.locator('[data-testid="wall-connection"][data-state="connected"]').waitFor();
      await host.frame({ name: 'f1' })!.getByTestId('status-overall').waitFor();
      await waitUntil(() => refused.length >= 1);
      expect(await hasApp(host.frame({ name: 'f2' }))).toBe(false);
      // Moving from the embedded status page to the sign-in page inside the frame reloads it, and the reload is refused.
      await host.frame({ name: 'f1' })!.getByTestId('login-button').click();
      await waitUntil(() => refused.length >= 2);
      await waitUntil(async () => !(await hasApp(host.frame({ name: 'f1' }))));
      await host.close();
    });
  });
});

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a frame shows the app (its root rendered) rather than the browser's refusal page. */
async function hasApp(frame: Frame | null): Promise<boolean> {
  if (!frame) return false;
  return frame.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0).catch(() => false);
}
