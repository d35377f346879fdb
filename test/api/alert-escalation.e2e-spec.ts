import request from 'supertest';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService, type ServiceRequest } from '../support/channel-e2e';
import { useTestRedis, type TestRedis } from '../support/redis';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

/** A "minute" of reminders and escalation is 500 ms here (ALERT_MINUTE_MS), and the sweep runs every 100 ms. */
const MINUTE_MS = 500;

/**
 * Issue 29, requirement 7: reminders and escalation on a short test clock, acknowledgement (once; 409 after, the first
 * kept) stopping both and reaching PagerDuty, mute — on two instances sharing one database and Redis, so an
 * acknowledgement taken by one stops the reminders the other would send.
 */
describe('reminders, escalation, acknowledgement and mute across two instances', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;
  let admin: Session;
  let user: Session;
  let viewer: Session;
  let hook: FakeService;
  let pagerduty: FakeService;
  let target: TargetServer;

  beforeAll(async () => {
    redis = await useTestRedis();
    [database, hook, pagerduty, target] = await Promise.all([
      createTestDatabase('url'),
      startFakeService(),
      startFakeService(),
      startTargetServer(),
    ]);
    pagerduty.answer = () => ({ status: 202, body: { status: 'success', message: 'Event processed' } });
    const env = {
      ...USERS_REACH_LOOPBACK,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      PAGERDUTY_API_URL: pagerduty.url,
      ALERT_MINUTE_MS: String(MINUTE_MS),
      ALERT_SWEEP_MS: '100',
    };
    [a, b] = await Promise.all([0, 1].map(() => startTestApp({ database, env })));
    admin = await registerFirstAdmin(a.url);
    [user, viewer] = await Promise.all([createUser(a.url, admin, 'user'), createUser(a.url, admin, 'viewer')]);
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    await Promise.all([a, b].map((app) => app?.stop()));
    await database?.drop();
    await Promise.all([hook?.close(), pagerduty?.close(), redis?.cleanup()]);
  }, 60_000);

  const events = (path: string, event: string) => hook.to(path).filter((req: ServiceRequest) => req.json?.event === event);

  async function channel(name: string, type: 'webhook' | 'pagerduty', config: Record<string, unknown>): Promise<number> {
    const { body } = await request(a.url)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name, type, language: 'en-US', config, groupWaitSeconds: 0 })
      .expect(201);
    return body.data.id;
  }

  async function downMonitor(name: string, path: string): Promise<number> {
    target.respondFor(path, 503);
    const { body } = await request(a.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, url: `${target.url}${path}`, interval: 3600, retries: 0 })
      .expect(201);
    await waitFor(
      async () => (await request(a.url).post(`/api/monitors/${body.monitor.id}/check`).set(admin.auth)).body.monitor?.status,
      (status) => status === 'down',
    );
    return body.monitor.id;
  }

  async function openAlert(monitorId: number) {
    const { body } = await waitFor(
      () => request(b.url).get(`/api/alerts?kind=monitor&targetId=${monitorId}`).set(viewer.auth),
      (res) => res.status === 200 && res.body.alerts.length === 1,
    );
    return body.alerts[0];
  }

  it('reminds and escalates until acknowledged; the first acknowledgement stands and reaches PagerDuty', async () => {
    const main = await channel('main', 'webhook', { url: `${hook.url}/main` });
    const escalate = await channel('on call', 'webhook', { url: `${hook.url}/escalate` });
    const pd = await channel('pd', 'pagerduty', { integrationKey: 'a'.repeat(32), severity: 'error' });
    const settings = { target_type: 'global-monitor', enabled: true, channels: [main, pd], reminder_minutes: 2 };
    // An escalation step naming a channel that does not exist is refused, naming the field.
    const { body: refused } = await request(a.url)
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ ...settings, escalation: [{ afterMinutes: 3, channels: [9999] }] })
      .expect(400);
    expect(refused).toMatchObject({ success: false, code: 'notifications.escalationChannelsUnknown' });
    expect(refused.message).toMatch(/^escalation: /);
    await request(a.url)
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ ...settings, escalation: [{ afterMinutes: 3, channels: [escalate] }] })
      .expect(200);

    const monitorId = await downMonitor('core-router', '/router');
    const alert = await openAlert(monitorId);
    expect(alert).toMatchObject({ target_name: 'core-router', metric: 'status', state: 'open', acknowledged_by: null });

    // Two reminders (every 2 "minutes") and the escalation step (after 3) arrive.
    await waitFor(
      async () => ({ reminders: events('/main', 'alert.reminder').length, escalations: events('/escalate', 'alert.escalation').length }),
      (seen) => seen.reminders >= 2 && seen.escalations === 1,
      20_000,
    );
    expect(events('/escalate', 'alert.escalation')[0].json.subject).toBe('[Escalated] core-router down');
    expect(events('/main', 'alert.reminder')[0].json.subject).toBe('[Still down] core-router');

    // A viewer only reads; a user acknowledges on instance A, once.
    await request(a.url).post(`/api/alerts/${alert.id}/ack`).set(viewer.auth).send({}).expect(403);
    const { body: acked } = await request(a.url).post(`/api/alerts/${alert.id}/ack`).set(user.auth).send({ note: 'on it' }).expect(200);
    expect(acked.alert).toMatchObject({ state: 'acknowledged', ack_note: 'on it' });
    const { body: again } = await request(b.url).post(`/api/alerts/${alert.id}/ack`).set(admin.auth).send({ note: 'me too' }).expect(409);
    expect(again).toMatchObject({ success: false, code: 'alerts.alreadyAcknowledged' });
    const { body: kept } = await request(b.url).get(`/api/alerts/${alert.id}`).set(viewer.auth).expect(200);
    expect(kept.alert.ack_note).toBe('on it');
    expect(kept.alert.acknowledged_by.username).toBe(acked.alert.acknowledged_by.username);
    expect(acked.alert.acknowledged_by.username).not.toBe('admin');

    // PagerDuty: the acknowledgement carries the trigger's dedup_key.
    const enqueued = await waitFor(
      async () => pagerduty.to('/v2/enqueue').map((req) => req.json),
      (list) => list.some((event) => event.event_action === 'acknowledge'),
    );
    const trigger = enqueued.find((event) => event.event_action === 'trigger');
    expect(enqueued.find((event) => event.event_action === 'acknowledge').dedup_key).toBe(trigger.dedup_key);

    // Neither instance reminds again. A sweep under way at the acknowledgement held the row, so the acknowledgement
    // waited for it: every reminder written is in the alert's messages; wait for those to arrive, then three more
    // reminder periods, and count.
    const written = kept.alert.messages.filter(
      (m: { event: string; channel_name: string }) => m.event === 'alert.reminder' && m.channel_name === 'main',
    );
    const reminders = written.length;
    await waitFor(
      async () => events('/main', 'alert.reminder').length,
      (count) => count >= reminders,
    );
    await sleep(6 * MINUTE_MS);
    expect(events('/main', 'alert.reminder').length).toBe(reminders);
    const { body: still } = await request(a.url).get(`/api/alerts/${alert.id}`).set(admin.auth).expect(200);
    expect(still.alert.reminders_sent).toBe(kept.alert.reminders_sent);
    expect(still.alert.messages).toHaveLength(kept.alert.messages.length);
  }, 90_000);

  it('records alerts of a muted monitor without sending anything', async () => {
    const past = await request(a.url).post('/api/monitors/1/mute').set(admin.auth).send({ until: '2020-01-01T00:00:00Z' }).expect(400);
    expect(past.body.code).toBe('alerts.muteInvalid');
    target.respondFor('/quiet', 200);
    const { body } = await request(a.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'quiet-box', url: `${target.url}/quiet`, interval: 3600, retries: 0 })
      .expect(201);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await request(b.url).post(`/api/monitors/${body.monitor.id}/mute`).set(viewer.auth).send({ until }).expect(403);
    const { body: muted } = await request(b.url).post(`/api/monitors/${body.monitor.id}/mute`).set(user.auth).send({ until }).expect(200);
    expect(muted.data.muted_until).toBe(until);
    const { body: read } = await request(a.url).get(`/api/monitors/${body.monitor.id}`).set(admin.auth).expect(200);
    expect(read.monitor.muted_until).toBe(until);

    const before = hook.received.length + pagerduty.received.length;
    target.respondFor('/quiet', 503);
    await waitFor(
      async () => (await request(a.url).post(`/api/monitors/${body.monitor.id}/check`).set(admin.auth)).body.monitor?.status,
      (status) => status === 'down',
    );
    const alert = await openAlert(body.monitor.id);
    expect(alert.messages).toEqual([]);
    // Reminders are muted too: two reminder periods pass with nothing sent.
    await sleep(5 * MINUTE_MS);
    expect(hook.received.length + pagerduty.received.length).toBe(before);
  }, 60_000);
});
