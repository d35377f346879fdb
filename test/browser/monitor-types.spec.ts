import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { MonitorDto, MonitorsResponse } from '@vigil/proto';
import { startDnsServer, type FakeDnsServer } from '../../server/src/monitors/checkers/fakes/dns-server.testing';
import { startTcpServer, type FakeTcpServer } from '../../server/src/monitors/checkers/fakes/tcp-server.testing';
import { registerFirstAdmin, Session } from '../factories/users';
import { documentKept, failureScreenshots, launchBrowser, markDocument, newPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A TCP and a DNS monitor, each with an assertion, made through the real form (type cards, fields, assertion
 * builder, "test now") against loopback fakes; then the fakes fail (the port closes, the name answers another
 * address) and both go down on the list and the detail page without a reload, and come back up when restored.
 * Checks are run on demand ("check now", or the API while the list is shown) rather than waited for.
 */
describe('monitor types in the browser', () => {
  const address = '192.0.2.10';
  let app: TestApp;
  let tcp: FakeTcpServer;
  let dns: FakeDnsServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let admin: Session;
  let tcpMonitor: MonitorDto;
  let dnsMonitor: MonitorDto;

  beforeAll(async () => {
    [app, tcp, dns] = await Promise.all([startTestApp(), startTcpServer(), startDnsServer({ 'app.test': { A: [address] } })]);
    admin = await registerFirstAdmin(app.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
    ({ page } = await newPage(browser, app.url, 'en-US'));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await app?.destroy();
    await Promise.all([tcp?.close(), dns?.close()]);
  });

  const step = failureScreenshots(() => [page]);

  const waitForStatus = (testId: string, status: string) => page.locator(`[data-testid="${testId}"][data-status="${status}"]`).waitFor();

  async function findMonitor(byName: string): Promise<MonitorDto> {
    const { body } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
    const found = (body as MonitorsResponse).monitors.find((row) => row.name === byName);
    if (!found) throw new Error(`no monitor named ${byName}`);
    return found;
  }

  /** Runs one check through the API (as the scheduler would), leaving the page to learn of it live. */
  async function checkNow(monitor: MonitorDto): Promise<void> {
    await request(app.url).post(`/api/monitors/${monitor.id}/check`).set(admin.auth).expect(200);
  }

  /** Opens the create form and picks a type card; retries 0 so one failed check is down. */
  async function openForm(type: 'tcp' | 'dns', name: string): Promise<void> {
    await page.getByTestId('monitor-create').click();
    await page.waitForURL('**/monitors/create');
    await page.getByTestId(`monitor-type-${type}`).click();
    await page.locator(`[data-testid="monitor-form"][data-type="${type}"]`).waitFor();
    expect(await page.locator('input[name="url"]').count()).toBe(0);
    await page.locator('input[name="name"]').fill(name);
    await page.getByTestId('monitor-advanced').click();
    await page.locator('input[name="retries"]').fill('0');
  }

  /** Fills assertion row 0 through the builder. */
  async function assertionRow(source: string, operator: string, value: string): Promise<void> {
    await page.locator('select[name="assertion-source-0"]').selectOption(source);
    await page.locator('select[name="assertion-operator-0"]').selectOption(operator);
    await page.locator('input[name="assertion-value-0"]').fill(value);
  }

  /** Presses "test now" and waits for the result it shows (ok or not, with row 0's assertion outcome). */
  async function testNow(ok: boolean): Promise<string> {
    await page.getByTestId('monitor-test-now').click();
    await page.locator(`[data-testid="monitor-test-result"][data-ok="${ok}"]`).waitFor();
    const outcome = page.locator(`[data-testid="monitor-test-assertion-0"][data-ok="${ok}"]`);
    await outcome.waitFor();
    return outcome.innerText();
  }

  async function save(name: string): Promise<MonitorDto> {
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/monitors$/);
    const monitor = await findMonitor(name);
    await page.getByTestId(`monitor-row-${monitor.id}`).waitFor();
    await waitForStatus(`monitor-status-${monitor.id}`, 'up');
    return monitor;
  }

  step('signs in through the login form', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto('/monitors');
    await page.getByTestId('monitors-empty').waitFor();
  });

  step('creates a TCP monitor with a response-time assertion, tests it and saves it', async () => {
    await openForm('tcp', 'Loopback port');
    await page.locator('input[name="hostname"]').fill('127.0.0.1');
    await page.locator('input[name="port"]').fill(String(tcp.port));
    await page.getByTestId('assertion-add').click();
    await assertionRow('responseTime', 'lt', '1000');

    const outcome = await testNow(true);
    expect(outcome).toMatch(/passed/i);
    expect(await page.getByTestId('monitor-test-status').innerText()).toMatch(/up/i);
    const tested = tcp.connections;
    expect(tested).toBeGreaterThan(0);

    tcpMonitor = await save('Loopback port');
    expect(tcpMonitor).toMatchObject({
      type: 'tcp',
      hostname: '127.0.0.1',
      port: tcp.port,
      retries: 0,
      assertions: [{ source: 'responseTime', operator: 'lt', value: 1000 }],
    });
    expect(tcp.connections).toBeGreaterThan(tested);
  });

  step('creates a DNS monitor whose answer assertion fails in "test now" until corrected, then saves it', async () => {
    await openForm('dns', 'Loopback name');
    await page.locator('input[name="hostname"]').fill('app.test');
    await page.locator('select[name="dnsRecordType"]').selectOption('A');
    await page.locator('input[name="dnsServer"]').fill(dns.address);
    await page.getByTestId('assertion-add').click();
    await assertionRow('dnsAnswer', 'contains', '192.0.2.99');

    const failed = await testNow(false);
    expect(failed).toMatch(/failed/i);
    expect(failed).toContain(address);
    expect(await page.getByTestId('monitor-test-status').innerText()).toMatch(/down/i);

    await page.locator('input[name="assertion-value-0"]').fill(address);
    expect(await testNow(true)).toMatch(/passed/i);
    expect(dns.queries).toContain('app.test A');

    dnsMonitor = await save('Loopback name');
    expect(dnsMonitor).toMatchObject({
      type: 'dns',
      hostname: 'app.test',
      dns_record_type: 'A',
      dns_server: dns.address,
      assertions: [{ source: 'dnsAnswer', operator: 'contains', value: address }],
    });
  });

  step('sees both go down on the list without a reload when the fakes fail', async () => {
    await markDocument(page);
    await tcp.stop();
    dns.setZone({ 'app.test': { A: ['192.0.2.66'] } });
    await Promise.all([checkNow(tcpMonitor), checkNow(dnsMonitor)]);
    await waitForStatus(`monitor-status-${tcpMonitor.id}`, 'down');
    await waitForStatus(`monitor-status-${dnsMonitor.id}`, 'down');
    expect(await documentKept(page)).toBe(true);
  });

  step('shows the failed assertion on the DNS detail page, and the monitor back up after "check now"', async () => {
    await page.getByTestId(`monitor-view-${dnsMonitor.id}`).click();
    await page.waitForURL(`**/monitors/${dnsMonitor.id}`);
    await waitForStatus('monitor-detail-status', 'down');
    await page.getByTestId('monitor-tab-history').click();
    const newest = page.getByTestId('monitor-history').locator('tbody tr').first();
    await newest.locator('[data-status="down"]').waitFor();
    expect(await newest.locator('td').last().innerText()).toContain(`dnsAnswer contains "${address}" failed`);
    await markDocument(page);

    dns.setZone({ 'app.test': { A: [address] } });
    await page.getByTestId('monitor-check-now').click();
    await waitForStatus('monitor-detail-status', 'up');
    await newest.locator('[data-status="up"]').waitFor();
    expect(await documentKept(page)).toBe(true);
  });

  step('shows the refused TCP port on its detail page, and the list back up when the port listens again', async () => {
    await page.getByTestId('monitor-back').click();
    await page.waitForURL(/\/monitors$/);
    await page.getByTestId(`monitor-view-${tcpMonitor.id}`).click();
    await page.waitForURL(`**/monitors/${tcpMonitor.id}`);
    await waitForStatus('monitor-detail-status', 'down');
    await page.getByTestId('monitor-tab-history').click();
    const newest = page.getByTestId('monitor-history').locator('tbody tr').first();
    await newest.locator('[data-status="down"]').waitFor();
    expect(await newest.locator('td').last().innerText()).toMatch(/refused/i);

    await page.getByTestId('monitor-back').click();
    await page.waitForURL(/\/monitors$/);
    await waitForStatus(`monitor-status-${dnsMonitor.id}`, 'up');
    await markDocument(page);
    await tcp.start();
    await checkNow(tcpMonitor);
    await waitForStatus(`monitor-status-${tcpMonitor.id}`, 'up');
    expect(await documentKept(page)).toBe(true);
  });
});
