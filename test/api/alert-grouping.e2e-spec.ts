import request from 'supertest';
import { Client } from 'pg';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const STORM = 500;
/** The channel's default windows at ALERT_SECOND_MS 100: a 10 s wait is 1 s, a 60 s interval 6 s. */
const WAIT_MS = 1000;
const INTERVAL_MS = 6000;

/**
 * Issue 29, requirement 6: 500 monitors going down at once reach a grouping channel as a handful of messages, each
 * transition named in one of them. A "second" of the grouping windows is 100 ms here (ALERT_SECOND_MS), so the
 * default 10 s wait is 1 s and the 60 s interval 6 s.
 */
describe('storm grouping per channel', () => {
  let database: TestDatabase;
  let app: TestApp;
  let admin: Session;
  let hook: FakeService;
  let target: TargetServer;
  let db: Client;

  beforeAll(async () => {
    [database, hook, target] = await Promise.all([createTestDatabase('url'), startFakeService(), startTargetServer()]);
    app = await startTestApp({ database, env: { ...USERS_REACH_LOOPBACK, ALERT_SECOND_MS: '100' } });
    admin = await registerFirstAdmin(app.url);
    db = new Client({ connectionString: database.url! });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await target?.close();
    await app?.stop();
    await database?.drop();
    await hook?.close();
  }, 60_000);

  const api = () => request(app.url);
  const names = (body: { subject: string; text: string; items?: Array<{ target: { name: string } }> }) =>
    body.items ? body.items.map((item) => item.target.name) : [body.subject.replace(/^\[Down\] /, '')];

  it('sends 500 monitors going down as a handful of messages naming every one', async () => {
    const { body: channel } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'ops hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` } })
      .expect(201);
    const { body: read } = await api().get('/api/notifications').set(admin.auth).expect(200);
    expect(read.data.channels[0]).toMatchObject({ group_wait_seconds: 10, group_interval_seconds: 60 });
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, channels: [channel.data.id] })
      .expect(200);

    target.respondFor('/storm', 503);
    const { body: first } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'storm-0', url: `${target.url}/storm`, interval: 3600, retries: 0, active: false })
      .expect(201);
    // The other 499 as copies of the first, written at once; the restart schedules all of them together.
    await db.query(
      `INSERT INTO monitors SELECT (jsonb_populate_record(NULL::monitors,
         to_jsonb(m) || jsonb_build_object('id', nextval('monitors_id_seq'), 'name', 'storm-' || g, 'key', 'storm-' || g))).*
       FROM monitors m, generate_series(1, ${STORM - 1}) g WHERE m.id = $1`,
      [first.monitor.id],
    );
    await db.query(`UPDATE monitors SET active = true, next_check_at = now()`);
    await app.restart();

    const seen = await waitFor(
      async () => new Set(hook.to('/hook').flatMap((req) => names(req.json))),
      (set) => set.size >= STORM,
      90_000,
    );
    for (let i = 0; i < STORM; i += 1) expect(seen.has(`storm-${i}`)).toBe(true);
    const messages = hook.to('/hook');
    // A handful, by the grouping rule rather than by how fast this machine checks 500 monitors: the first message
    // after the wait, then at most one per interval while transitions keep coming (their outbox rows' times, the
    // clock the rule reads), and one for a last straggler.
    const { rows } = await db.query<{ spread: number }>(
      `SELECT (extract(epoch FROM max(created_at) - min(created_at)) * 1000)::float8 AS spread FROM notification_outbox WHERE channel_id = $1`,
      [channel.data.id],
    );
    const allowed = 2 + Math.floor(Math.max(0, rows[0].spread - WAIT_MS) / INTERVAL_MS);
    expect(messages.length).toBeLessThanOrEqual(allowed);
    // The storm of one restart lands within a few intervals even on a busy machine: still a handful.
    expect(messages.length).toBeLessThanOrEqual(8);
    const grouped = messages.find((req) => req.json.items);
    if (!grouped) throw new Error('no combined message among ' + messages.length);
    expect(grouped.json.event).toBe('group');
    expect(grouped.json.subject).toMatch(/^\d+ monitors down: storm-/);
    // Each transition once: no monitor is named in two messages.
    expect(messages.flatMap((req) => names(req.json))).toHaveLength(STORM);

    // The fake has the message before the dispatcher hears its answer and marks the rows sent.
    const { body: alerts } = await waitFor(
      () => api().get('/api/alerts?state=open&pageSize=5').set(admin.auth).expect(200),
      (res) => res.body.alerts[0]?.messages[0]?.status === 'sent',
    );
    expect(alerts.total).toBe(STORM);
    expect(alerts.counts.open).toBe(STORM);
    expect(alerts.alerts[0].messages[0]).toMatchObject({ channel_name: 'ops hook', event: 'monitor.down', status: 'sent' });
  }, 180_000);

  it('refuses grouping windows out of bounds, naming them', async () => {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'x', type: 'webhook', config: { url: `${hook.url}/x` }, groupWaitSeconds: 601 })
      .expect(400);
    expect(body).toMatchObject({ success: false, code: 'notifications.groupWindowInvalid' });
  });
});
