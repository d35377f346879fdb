import request from 'supertest';
import { ChannelScenario, startFakeService, type FakeService, type ServiceRequest } from '../support/channel-e2e';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, type TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

const PUBLIC_URL = 'https://vigil.example';
const INTEGRATION_KEY = 'R0UT1NGk3yR0UT1NGk3yR0UT1NGk3y12';
const GENIE_KEY = 'eb243592-faa2-4ba2-a551-1afdf565c889';
const APPRISE_URLS = 'tgram://123456789:AAFsecretBotToken0123456789abcdef/-100123 mailto://ops:mail-Passw0rd@example.com';

/**
 * The incident channels end to end (PagerDuty, Opsgenie) and the Apprise gateway: a monitor goes down and recovers,
 * and each service's fake receives the real request: path, key, payload; an alert and its recovery share one
 * incident key per episode, also across retries.
 */
describe('channels: incident response and gateways', () => {
  let app: TestApp;
  let member: Session;
  let target: TargetServer;
  let pagerduty: FakeService;
  let opsgenie: FakeService;
  let apprise: FakeService;
  let scenario: ChannelScenario;

  beforeAll(async () => {
    [pagerduty, opsgenie, apprise, target] = await Promise.all([
      startFakeService(),
      startFakeService(),
      startFakeService(),
      startTargetServer(),
    ]);
    pagerduty.answer = () => ({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: 'x' } });
    opsgenie.answer = () => ({ status: 202, body: { result: 'Request will be processed', took: 0.2, requestId: 'r-1' } });
    apprise.answer = () => ({ status: 200, body: { error: null, details: [] } });
    app = await startTestApp({
      env: {
        ...USERS_REACH_LOOPBACK,
        PAGERDUTY_API_URL: pagerduty.url,
        OPSGENIE_API_URL: opsgenie.url,
        PUBLIC_URL,
        NOTIFICATION_RETRY_BASE_MS: '300',
      },
    });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    scenario = new ChannelScenario(app.url, member, target);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([pagerduty?.close(), opsgenie?.close(), apprise?.close(), target?.close()]);
  });

  const api = () => request(app.url);

  describe('pagerduty', () => {
    const enqueued = () => pagerduty.to('/v2/enqueue');

    it('triggers an incident on down and resolves it on recovery, under one key per episode', async () => {
      const channel = await scenario.createChannel('pagerduty', { integrationKey: INTEGRATION_KEY, severity: 'error' });
      const { monitorId } = await scenario.downAndUp(channel, () => enqueued().length);

      const [down, up] = enqueued().slice(-2);
      const key = `vigil-monitor-${monitorId}-status-1`;
      expect(down.method).toBe('POST');
      expect(down.json).toEqual({
        routing_key: INTEGRATION_KEY,
        dedup_key: key,
        event_action: 'trigger',
        payload: {
          summary: expect.stringContaining('Shop API'),
          source: 'Shop API',
          severity: 'error',
          timestamp: expect.any(String),
          component: 'monitor',
          class: 'monitor.down',
          custom_details: { details: expect.stringContaining('Shop API'), link: `${PUBLIC_URL}/monitors/${monitorId}` },
        },
        client: 'Vigil',
        client_url: `${PUBLIC_URL}/monitors/${monitorId}`,
        links: [{ href: `${PUBLIC_URL}/monitors/${monitorId}`, text: 'Shop API' }],
      });
      expect(up.json).toEqual({ routing_key: INTEGRATION_KEY, dedup_key: key, event_action: 'resolve' });
      expect((await scenario.history(channel)).map((row) => [row.event, row.status])).toEqual([
        ['monitor.recovery', 'sent'],
        ['monitor.down', 'sent'],
      ]);
    });

    it('keeps the key across a retry after 429, and opens the next episode under a new key', async () => {
      const channel = await scenario.createChannel('pagerduty', { integrationKey: INTEGRATION_KEY });
      let throttled = false;
      pagerduty.answer = () => {
        if (throttled) return { status: 202, body: { status: 'success', message: 'Event processed' } };
        throttled = true;
        return { status: 429, body: { status: 'throttle event', message: 'Requests for this service are arriving too quickly' } };
      };
      const before = enqueued().length;
      const monitor = await monitorOf(channel);

      await goes(monitor, 'down', () => enqueued().length >= before + 2);
      await goes(monitor, 'up', () => enqueued().length >= before + 3);
      await goes(monitor, 'down', () => enqueued().length >= before + 4);

      const [refused, retried, resolved, again] = enqueued()
        .slice(before)
        .map((req: ServiceRequest) => ({ ...req.json, delivery: req.headers['x-vigil-delivery'] }));
      expect(refused).toMatchObject({
        event_action: 'trigger',
        dedup_key: `vigil-monitor-${monitor.id}-status-1`,
        payload: { severity: 'critical' },
      });
      expect(retried).toEqual(refused);
      expect(resolved).toMatchObject({ event_action: 'resolve', dedup_key: refused.dedup_key });
      expect(again).toMatchObject({ event_action: 'trigger', dedup_key: `vigil-monitor-${monitor.id}-status-2` });
      await api().delete(`/api/monitors/${monitor.id}`).set(member.auth);
    });

    it('sends a test as an info alert under a key of its own', async () => {
      const channel = await scenario.createChannel('pagerduty', { integrationKey: INTEGRATION_KEY });

      expect(await scenario.test(channel)).toMatchObject({ success: true, data: { status: 202, detail: 'Accepted' } });
      const sent = enqueued().at(-1)!;
      expect(sent.json).toMatchObject({
        event_action: 'trigger',
        dedup_key: `vigil-test-${sent.headers['x-vigil-delivery']}`,
        payload: { severity: 'info', source: 'pagerduty channel' },
      });
    });

    it('shows PagerDuty’s reason for an invalid event, without the key', async () => {
      pagerduty.answer = () => ({
        status: 400,
        body: { status: 'invalid event', message: 'Event object is invalid', errors: [`Unknown routing_key ${INTEGRATION_KEY}`] },
      });
      const channel = await scenario.createChannel('pagerduty', { integrationKey: INTEGRATION_KEY });

      const answer = await scenario.test(channel);

      expect(answer).toMatchObject({
        success: false,
        message: 'Test message failed: HTTP 400 Bad Request: Event object is invalid: Unknown routing_key [redacted]',
      });
      expect(JSON.stringify(answer)).not.toContain(INTEGRATION_KEY);
    });
  });

  describe('opsgenie', () => {
    it('creates an alert on down and closes it by its alias on recovery', async () => {
      const channel = await scenario.createChannel('opsgenie', { apiKey: GENIE_KEY, priority: 'P2', region: 'eu' });
      const { monitorId } = await scenario.downAndUp(channel, () => opsgenie.received.length);

      const [down, up] = opsgenie.received.slice(-2);
      const alias = `vigil-monitor-${monitorId}-status-1`;
      for (const req of [down, up]) {
        expect(req.method).toBe('POST');
        expect(req.headers.authorization).toBe(`GenieKey ${GENIE_KEY}`);
      }
      expect(down.path).toBe('/v2/alerts');
      expect(down.json).toEqual({
        message: expect.stringContaining('Shop API'),
        alias,
        description: expect.stringMatching(new RegExp(`Shop API[\\s\\S]*\\n\\n${PUBLIC_URL}/monitors/${monitorId}$`)),
        priority: 'P2',
        source: 'Vigil',
        entity: 'Shop API',
        tags: ['vigil', 'monitor', 'monitor.down'],
        details: { event: 'monitor.down', link: `${PUBLIC_URL}/monitors/${monitorId}` },
      });
      expect(down.json.message.length).toBeLessThanOrEqual(130);
      expect(up.path).toBe(`/v2/alerts/${alias}/close?identifierType=alias`);
      expect(up.json).toEqual({ source: 'Vigil', note: expect.stringContaining('Shop API') });
    });
  });

  describe('apprise', () => {
    it('posts the URLs to the stateless /notify/ as a failure, then a success', async () => {
      const channel = await scenario.createChannel('apprise', { serverUrl: `${apprise.url}/`, urls: APPRISE_URLS });
      const { monitorId } = await scenario.downAndUp(channel, () => apprise.to('/notify/').length);

      const [down, up] = apprise.to('/notify/').slice(-2);
      for (const req of [down, up]) {
        expect(req).toMatchObject({ method: 'POST', path: '/notify/' });
        expect(req.headers['content-type']).toBe('application/json');
      }
      expect(down.json).toEqual({
        urls: APPRISE_URLS,
        title: expect.stringContaining('Shop API'),
        body: expect.stringMatching(new RegExp(`\\n\\n${PUBLIC_URL}/monitors/${monitorId}$`)),
        type: 'failure',
        format: 'text',
      });
      expect(up.json).toMatchObject({ urls: APPRISE_URLS, title: expect.stringContaining('Shop API'), type: 'success' });
    });

    it('posts to a saved configuration by its key', async () => {
      const channel = await scenario.createChannel('apprise', { serverUrl: apprise.url, configKey: 'vigil-ops' });
      await scenario.downAndUp(channel, () => apprise.to('/notify/vigil-ops').length);

      const [down, up] = apprise.to('/notify/vigil-ops').slice(-2);
      expect(down.json).toEqual({ title: expect.stringContaining('Shop API'), body: expect.any(String), type: 'failure', format: 'text' });
      expect(up.json).toMatchObject({ type: 'success' });
    });

    it('never shows the URLs in a failure, in the answer or the history', async () => {
      apprise.answer = () => ({
        status: 424,
        body: { error: `Could not notify ${APPRISE_URLS}`, details: [{ message: 'tgram://123456789:AAFsecretBotToken0123456789abcdef' }] },
      });
      const channel = await scenario.createChannel('apprise', { serverUrl: apprise.url, urls: APPRISE_URLS });

      const answer = await scenario.test(channel);
      const history = await scenario.history(channel);

      expect(answer).toMatchObject({
        success: false,
        message: expect.stringMatching(/^Test message failed: HTTP 424 Failed Dependency: Could not notify \[redacted\]/),
      });
      for (const text of [JSON.stringify(answer), JSON.stringify(history)]) expect(text).not.toMatch(/AAFsecretBotToken|mail-Passw0rd/);
    });
  });

  /** A monitor of `target` whose notifications go to `channel` only; it starts up and is checked by hand. */
  async function monitorOf(channel: number): Promise<{ id: number; path: string }> {
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: JSON.stringify([channel]) })
      .expect(200);
    const path = `/episodes-${channel}`;
    target.respondFor(path, 200);
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name: 'Episodes', url: `${target.url}${path}`, interval: 3600, retries: 0 })
      .expect(201);
    return { id: body.monitor.id, path };
  }

  /** Makes the monitor's target answer as `status` says, checks until the monitor shows it, then waits for `delivered`. */
  async function goes(monitor: { id: number; path: string }, status: 'up' | 'down', delivered: () => boolean): Promise<void> {
    target.respondFor(monitor.path, status === 'up' ? 200 : 503);
    await waitFor(
      async () => (await api().post(`/api/monitors/${monitor.id}/check`).set(member.auth).expect(200)).body.monitor?.status,
      (value) => value === status,
    );
    await waitFor(async () => delivered(), Boolean);
  }
});
