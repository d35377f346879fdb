import request from 'supertest';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

describe('short check intervals (issue 29 requirement 10)', () => {
  let app: TestApp;
  let floored: TestApp;
  let target: TargetServer;
  let admin: Session;
  let floorAdmin: Session;

  beforeAll(async () => {
    [app, floored, target] = await Promise.all([
      startTestApp(),
      startTestApp({ env: { MONITOR_MIN_INTERVAL_SECONDS: '20' } }),
      startTargetServer(),
    ]);
    [admin, floorAdmin] = await Promise.all([registerFirstAdmin(app.url), registerFirstAdmin(floored.url)]);
  });
  afterAll(async () => {
    await Promise.all([app?.destroy(), floored?.destroy()]);
    await target?.close();
  });

  it('tells the form the shortest interval, 10 s unless configured', async () => {
    const { body } = await request(app.url).get('/api/monitors/limits').set(admin.auth).expect(200);
    expect(body).toEqual({ success: true, intervalMin: 10 });
    expect((await request(floored.url).get('/api/monitors/limits').set(floorAdmin.auth).expect(200)).body.intervalMin).toBe(20);
  });

  it('refuses an interval below the configured floor with 400 naming interval, and keeps a 20 s monitor', async () => {
    const auth = floorAdmin.auth;
    const refused = await request(floored.url)
      .post('/api/monitors')
      .set(auth)
      .send({ name: 'too often', url: target.url, interval: 10 })
      .expect(400);
    expect(refused.body).toMatchObject({ success: false, code: 'monitors.intervalBelowFloor', field: 'interval' });
    const below = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'nine', url: target.url, interval: 9 })
      .expect(400);
    expect(below.body).toMatchObject({ success: false, code: 'monitors.intervalInvalid' });
    // A Kuma-imported 20 s monitor: its timeout left out becomes 80 % of the interval.
    const kept = await request(floored.url)
      .post('/api/monitors')
      .set(auth)
      .send({ name: 'kuma 20 s', url: target.url, interval: 20 })
      .expect(201);
    expect(kept.body.monitor).toMatchObject({ interval: 20, timeout: 16 });
  });

  it('checks a 10 s monitor about every 10 s', async () => {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'every ten', url: `${target.url}/ten`, interval: 10, timeout: 5, retries: 0 })
      .expect(201);
    expect(body.monitor).toMatchObject({ interval: 10 });
    // The check at creation, then one per 10 s slot: four arrivals take a little over 30 s.
    const arrivals = await waitFor(
      async () => target.received.filter((r) => r.path === '/ten').map((r) => r.at),
      (times) => times.length >= 4,
      45_000,
    );
    const gaps = arrivals.slice(2, 4).map((at, i) => at - arrivals[i + 1]);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThan(9_000);
      expect(gap).toBeLessThan(11_000);
    }
  }, 60_000);
});
