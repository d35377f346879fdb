import type { AgentContainerReport } from '@vigil/proto';
import type { Browser, Page } from 'playwright-core';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { registerFirstAdmin, type Session } from '../factories/users';
import { failureScreenshots, launchBrowser, newPage } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

const PHONE = { width: 390, height: 844 };

const container = (name: string, overrides: Partial<AgentContainerReport> = {}): AgentContainerReport => ({
  id: `${Buffer.from(name).toString('hex')}000000000000`.slice(0, 12),
  name,
  image: 'registry.example.com/team/a-rather-long-image-name:1.27.3',
  state: 'running',
  health: 'healthy',
  cpu: 2.5,
  memory_used: 50 * 1024 ** 2,
  memory_limit: 512 * 1024 ** 2,
  net_rx_rate: 10,
  net_tx_rate: 5,
  block_read_rate: 0,
  block_write_rate: 1,
  ...overrides,
});

/**
 * Issue 32, requirement 10 (agent detail): a protocol 2 agent's containers, sensors and services on the detail page
 * of a phone, kept live by its reports; a protocol 1 agent's page says to update it.
 */
describe('agent host insight in the browser', () => {
  let app: TestApp;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  const sockets: AgentSocket[] = [];
  let agentId = 0;
  let socket: AgentSocket;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
    await page.setViewportSize(PHONE);
  });
  afterAll(async () => {
    for (const open of sockets) open.disconnect();
    await closeBrowser?.();
    await app?.destroy();
  });

  const step = failureScreenshots(() => [page]);
  const parts = {
    disk_io: [{ device: 'nvme0n1', read_rate: 120.5, write_rate: 40, busy: 12.5 }],
    sensors: [{ name: 'coretemp Package id 0', celsius: 91, high: 84, critical: 100 }],
    containers: [
      container('web'),
      container('db', { state: 'exited', health: 'none', cpu: 0 }),
      container('cache', { health: 'unhealthy' }),
    ],
    services: [
      { name: 'nginx.service', state: 'active' as const, sub_state: 'running' },
      { name: 'backup.service', state: 'failed' as const, sub_state: 'failed' },
    ],
  };
  const report = async (extra: Parameters<typeof agentReport>[0]) => {
    const ack = await socket.timeout(5000).emitWithAck('report', agentReport(extra));
    expect(ack).toEqual({ ok: true });
  };
  const fitsPhone = () => page.evaluate(() => document.documentElement.scrollWidth);
  const inView = async (locator: ReturnType<Page['locator']>) => {
    const box = await locator.boundingBox();
    return Boolean(box && box.x >= 0 && box.x + box.width <= PHONE.width);
  };

  step('signs in', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
  });

  step('a phone shows the containers with their badges in view, the table scrolling inside its card', async () => {
    const enrolled = await enrollAgent(app.url, admin, 'insight-phone');
    agentId = enrolled.agentId;
    socket = await connectAgent(app.url, enrolled.credential, 'insight-phone');
    sockets.push(socket);
    await report({
      disk_io: [{ device: 'nvme0n1', read_rate: 120.5, write_rate: 40, busy: 12.5 }],
      sensors: [{ name: 'coretemp Package id 0', celsius: 91, high: 84, critical: 100 }],
      containers: [
        container('web'),
        container('db', { state: 'exited', health: 'none', cpu: 0 }),
        container('cache', { health: 'unhealthy' }),
      ],
      services: [
        { name: 'nginx.service', state: 'active', sub_state: 'running' },
        { name: 'backup.service', state: 'failed', sub_state: 'failed' },
      ],
    });
    await page.goto(`/agents/${agentId}?tab=containers`);
    const first = page.getByTestId('agent-container-row').first();
    await first.waitFor();
    expect(await first.getByTestId('container-state').textContent()).toBe('Exited');
    expect(await inView(first.getByTestId('container-state'))).toBe(true);
    expect(await inView(page.getByTestId('agent-container-row').nth(1).getByTestId('container-health'))).toBe(true);
    expect(await fitsPhone()).toBeLessThanOrEqual(PHONE.width);
  });

  step('a report that stops a container shows on the open tab without a reload', async () => {
    // Each report carries the whole set: the page shows the newest.
    await report({ ...parts, containers: [container('web', { state: 'exited', health: 'none' })] });
    const only = page.getByTestId('agent-container-row');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="agent-container-row"]').length === 1);
    expect(await only.getByTestId('container-state').textContent()).toBe('Exited');
  });

  step('sensors, services and the disk and network charts fit the phone too', async () => {
    await page.getByTestId('agent-tab-sensors').click();
    const sensor = page.getByTestId('sensor-celsius').first();
    await sensor.waitFor();
    expect(await sensor.getAttribute('data-level')).toBe('high');
    expect(await fitsPhone()).toBeLessThanOrEqual(PHONE.width);

    await page.getByTestId('agent-tab-services').click();
    const failed = page.getByTestId('agent-service-row').filter({ hasText: 'backup.service' }).getByTestId('service-state');
    await failed.waitFor();
    expect(await failed.getAttribute('data-color')).toBe('red');
    expect(await inView(failed)).toBe(true);
    expect(await fitsPhone()).toBeLessThanOrEqual(PHONE.width);

    for (const [tab, device] of [
      ['disks', 'nvme0n1'],
      ['network', 'eth0'],
    ]) {
      await page.getByTestId(`agent-tab-${tab}`).click();
      const series = page.getByTestId('agent-device-series').filter({ hasText: device });
      // One report so far: each line shows as its dot.
      await series.locator('.recharts-line-dot').first().waitFor();
      expect(await fitsPhone()).toBeLessThanOrEqual(PHONE.width);
    }
  });

  step('a protocol 1 agent is told to update', async () => {
    const enrolled = await enrollAgent(app.url, admin, 'insight-old');
    const old = await connectAgent(app.url, enrolled.credential, 'insight-old', 1);
    sockets.push(old);
    expect(await old.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await page.goto(`/agents/${enrolled.agentId}?tab=containers`);
    const notice = page.getByTestId('agent-insight-old');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('update the agent');
  });
});
