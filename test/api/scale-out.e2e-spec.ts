import request from 'supertest';
import { Client } from 'pg';
import { io, Socket } from 'socket.io-client';
import type { AgentDto, ClientToServerEvents, MonitorStatusChangedEvent, ServerToClientEvents } from '@vigil/proto';
import { agentReport, connectAgent, enrollAgent, type AgentSocket } from '../factories/agents';
import { registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { useTestRedis, type TestRedis } from '../support/redis';
import { startTargetServer, TargetServer } from '../support/target-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Seconds: the API's minimum is 60, so the rhythm monitors get a short interval written straight into the database. */
const INTERVAL_S = 5;
const INTERVAL_MS = INTERVAL_S * 1000;
/** A check's arrival may drift from its slot by the queue's lateness plus the HTTP client's start. */
const JITTER_MS = 1500;
/** Each rhythm check takes this long at the target, so a killed instance surely dies with checks in flight. */
const SLOW_TARGET_MS = 3000;
/** How long after SIGKILL the documented crash window lasts: lock (15 s) + stalled sweep (5 s) + margin. */
const CRASH_WINDOW_MS = 25_000;
const GRACE_SECONDS = 3;

describe('scale-out: three instances on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let fake: FakeNotifier;
  let target: TargetServer;
  let a: TestApp;
  let b: TestApp;
  let c: TestApp;
  let admin: Session;
  let db: Client;
  const sockets: Array<BrowserSocket | AgentSocket> = [];
  /** The rhythm monitors (created across the instances) and their target paths. */
  const rhythm: Array<{ id: number; path: string }> = [];

  beforeAll(async () => {
    redis = await useTestRedis();
    [database, fake, target] = await Promise.all([createTestDatabase('url'), startFakeNotifier(), startTargetServer()]);
    const env = {
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      TELEGRAM_API_URL: fake.url,
      RESEND_API_URL: fake.url,
      AGENT_GRACE_SECONDS: String(GRACE_SECONDS),
    };
    // Started together on an empty database: the migration lock lets one migrate while the others wait.
    [a, b, c] = await Promise.all([0, 1, 2].map(() => startTestApp({ database, env })));
    admin = await registerFirstAdmin(a.url);
    db = new Client({ connectionString: database.url! });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await db?.end();
    // The target first: its closed sockets end the hanging checks, so the instances stop without waiting for them.
    await target?.close();
    await Promise.all([a, b, c].map((app) => app?.stop()));
    await database?.drop();
    await Promise.all([fake?.close(), redis?.cleanup()]);
  }, 60_000);

  const api = (app: TestApp) => request(app.url);
  const arrivals = (path: string, from: number, to = Infinity) =>
    target.received.filter((r) => r.path === path && r.at >= from && r.at <= to).map((r) => r.at);
  const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

  async function browser(app: TestApp, room: string): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, {
      auth: { token: admin.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5000).emitWithAck('subscribe', room as never)).toEqual({ ok: true });
    return socket;
  }

  async function metric(app: TestApp, name: string): Promise<number> {
    const answer = await api(app).get('/api/metrics').set(admin.auth);
    expect(answer.status).toBe(200);
    const value = new RegExp(`^${name} (\\d+)$`, 'm').exec(answer.text)?.[1];
    if (value === undefined) throw new Error(`${name} missing from /api/metrics`);
    return Number(value);
  }
  const checksStarted = (app: TestApp) => metric(app, 'vigil_checks_started_total');
  const inFlight = (app: TestApp) => metric(app, 'vigil_checks_in_flight');

  /** A webhook channel on the fake, made the global channel for monitors or agents with the given switches. */
  async function alertsTo(name: string, via: TestApp, settings: Record<string, unknown>): Promise<void> {
    const { body } = await api(a)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name, type: 'webhook', enabled: true, config: JSON.stringify({ url: `${fake.url}/hook/${name}` }) })
      .expect(201);
    await api(via)
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ ...settings, enabled: true, channels: `[${body.data.id}]` })
      .expect(200);
  }

  it('checks each monitor once per interval across the instances, and follows pause, resume and delete from any of them', async () => {
    const apps = [a, b, c];
    for (let i = 0; i < 6; i += 1) {
      const path = `/rhythm-${i}`;
      target.respondFor(path, 200, SLOW_TARGET_MS);
      const { body } = await api(apps[i % 3])
        .post('/api/monitors')
        .set(admin.auth)
        .send({ name: `rhythm ${i}`, url: `${target.url}${path}`, timeout: 4, retries: 0 })
        .expect(201);
      rhythm.push({ id: body.monitor.id, path });
    }
    // Created with the API's minimum interval and checked at once; now a short one, which a resume hands to the queue.
    await waitFor(
      async () => rhythm.filter((m) => arrivals(m.path, 0).length > 0).length,
      (n) => n === 6,
    );
    await db.query(`UPDATE monitors SET interval_s = $1 WHERE id = ANY($2::int[])`, [INTERVAL_S, rhythm.map((m) => m.id)]);

    for (const [i, m] of rhythm.entries())
      await api(apps[(i + 1) % 3])
        .post(`/api/monitors/${m.id}/pause`)
        .set(admin.auth)
        .expect(200);
    const paused = Date.now();
    await sleep(INTERVAL_MS + JITTER_MS);
    // Pausing removed the 60 s schedulers: nothing starts after the pause (a check already running may still land).
    for (const m of rhythm) expect(arrivals(m.path, paused + 100)).toEqual([]);

    for (const [i, m] of rhythm.entries())
      await api(apps[(i + 2) % 3])
        .post(`/api/monitors/${m.id}/resume`)
        .set(admin.auth)
        .expect(200);
    const resumed = Date.now();
    // Resume checks at once; measure from the first full interval on, when only the schedulers' slots remain.
    const from = resumed + INTERVAL_MS + JITTER_MS;
    const startedBefore = await Promise.all(apps.map(checksStarted));
    await sleep(from - Date.now() + 6 * INTERVAL_MS);
    const to = Date.now();
    for (const m of rhythm) {
      const times = arrivals(m.path, from, to);
      expect(times.length).toBeGreaterThanOrEqual(5);
      expect(times.length).toBeLessThanOrEqual(7);
      // A duplicate shows as a gap near 0, a miss as one near two intervals.
      for (const gap of gaps(times)) {
        expect(gap).toBeGreaterThan(INTERVAL_MS - JITTER_MS);
        expect(gap).toBeLessThan(INTERVAL_MS + JITTER_MS);
      }
    }
    // Every instance's worker took part.
    const startedAfter = await Promise.all(apps.map(checksStarted));
    const share = startedAfter.map((n, i) => n - startedBefore[i]);
    expect(share.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);

    // Deleting through C removes the scheduler: no check of it starts afterwards.
    const removed = rhythm.pop()!;
    await api(c).delete(`/api/monitors/${removed.id}`).set(admin.auth).expect(200);
    const deleted = Date.now();
    await sleep(INTERVAL_MS + JITTER_MS);
    expect(arrivals(removed.path, deleted + 100)).toEqual([]);
  }, 120_000);

  it('pushes a status change made by instance A’s check to sockets on B and C, and notifies once per transition', async () => {
    await alertsTo('cluster', b, { target_type: 'global-monitor', on_down: true, on_recovery: true });
    target.respondFor('/flip', 200);
    const { body } = await api(a)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'flip', url: `${target.url}/flip`, interval: 3600, retries: 0 })
      .expect(201);
    const id: number = body.monitor.id;
    await waitFor(
      async () => (await api(a).get(`/api/monitors/${id}`).set(admin.auth)).body.monitor.status,
      (s) => s === 'up',
    );

    const seen: Record<'b' | 'c', string[]> = { b: [], c: [] };
    for (const [name, app] of [
      ['b', b],
      ['c', c],
    ] as const) {
      const socket = await browser(app, 'monitors');
      socket.on('monitor.status_changed', (event: MonitorStatusChangedEvent) => event.monitorId === id && seen[name].push(event.status));
    }

    target.respondFor('/flip', 500);
    // The check runs inside A's process (check-now), so only A raises the transition; B and C hear it over Redis.
    await api(a).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    await waitFor(
      async () => seen,
      (s) => s.b.length === 1 && s.c.length === 1,
      5000,
    );
    target.respondFor('/flip', 200);
    await api(a).post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    await waitFor(
      async () => seen,
      (s) => s.b.length === 2 && s.c.length === 2,
      5000,
    );
    expect(seen).toEqual({ b: ['down', 'up'], c: ['down', 'up'] });

    // Three dispatchers poll the same outbox; each transition reaches the channel exactly once.
    // A down and a recovery claimed together go out as one grouped message: count the transitions in its items.
    const messages = () => fake.of('webhook', '/hook/cluster').flatMap((r) => eventsOf(r.json));
    await waitFor(
      async () => messages(),
      (m) => m.length >= 2,
      10_000,
    );
    await sleep(3000);
    expect(messages()).toEqual(['monitor.down', 'monitor.recovery']);
  }, 60_000);

  it('does not report an agent offline that dropped from A and came back on C within the grace period; once it stays away, once', async () => {
    await alertsTo('agents', c, { target_type: 'global-agent', on_offline: true, on_recovery: true });
    const { agentId, credential } = await enrollAgent(a.url, admin, 'roaming-host');
    const getAgent = async (): Promise<AgentDto> => (await api(b).get(`/api/agents/${agentId}`).set(admin.auth).expect(200)).body.agent;
    const events = () => fake.of('webhook', '/hook/agents').flatMap((r) => eventsOf(r.json));

    let socket = await connectAgent(a.url, credential, 'roaming-host');
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await waitFor(getAgent, (agent) => agent.status === 'active');
    socket.disconnect();
    await sleep(300);
    socket = await connectAgent(c.url, credential, 'roaming-host');
    sockets.push(socket);
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    await sleep((GRACE_SECONDS + 2) * 1000);
    expect((await getAgent()).status).toBe('active');
    expect(events()).toEqual([]);

    // Gone for good: whichever instance sweeps first marks it offline, and only one message goes out.
    socket.disconnect();
    await waitFor(getAgent, (agent) => agent.status === 'inactive', (GRACE_SECONDS + 5) * 1000);
    await waitFor(
      async () => events(),
      (e) => e.length >= 1,
      10_000,
    );
    await sleep(2000);
    expect(events()).toEqual(['agent.offline']);
  }, 60_000);

  it('re-runs a SIGKILLed instance’s checks within 20 s: no monitor waits longer than one interval + 20 s, none is stored twice', async () => {
    expect(rhythm.length).toBe(5);
    // Monitors whose check hangs at the target until the end: one held by B at the kill must be re-run elsewhere.
    for (const m of rhythm) target.respondFor(m.path, 200, 0);
    await sleep(SLOW_TARGET_MS + 500);
    const hanging: string[] = [];
    let heldByB = 0;
    for (let i = 0; i < 30 && heldByB === 0; i += 1) {
      const path = `/hang-${i}`;
      target.respondFor(path, 200, 290_000);
      await api(a)
        .post('/api/monitors')
        .set(admin.auth)
        .send({ name: `hang ${i}`, url: `${target.url}${path}`, interval: 3600, timeout: 300 })
        .expect(201);
      hanging.push(path);
      await waitFor(
        async () => arrivals(path, 0).length,
        (n) => n === 1,
      );
      // The fast rhythm checks may blink in B's count; the least of three reads is hanging checks only.
      const reads: number[] = [];
      for (let r = 0; r < 3; r += 1) {
        reads.push(await inFlight(b));
        await sleep(100);
      }
      heldByB = Math.min(...reads);
    }
    expect(heldByB).toBeGreaterThan(0);
    for (const m of rhythm) target.respondFor(m.path, 200, SLOW_TARGET_MS);
    await sleep(INTERVAL_MS + SLOW_TARGET_MS);

    const killedAt = Date.now();
    await b.kill();
    await sleep(CRASH_WINDOW_MS + 4 * INTERVAL_MS);
    const end = Date.now();

    // Takeover: exactly B's hanging checks were started again, by A or C, within lock (12 s) + stalled sweep (5 s) + pickup.
    const rerun = hanging.filter((path) => arrivals(path, killedAt).length > 0);
    expect(rerun).toHaveLength(heldByB);
    for (const path of rerun) expect(arrivals(path, killedAt)[0] - killedAt).toBeLessThanOrEqual(20_000 + JITTER_MS);

    for (const m of rhythm) {
      // Across the crash: the longest wait between two checks of a monitor.
      const around = arrivals(m.path, killedAt - INTERVAL_MS - JITTER_MS, end);
      expect(Math.max(...gaps([killedAt - INTERVAL_MS, ...around, end]))).toBeLessThanOrEqual(INTERVAL_MS + 20_000);
      // After the crash window the survivors keep the rhythm exactly again.
      const after = arrivals(m.path, killedAt + CRASH_WINDOW_MS, end);
      expect(after.length).toBeGreaterThanOrEqual(3);
      for (const gap of gaps(after)) {
        expect(gap).toBeGreaterThan(INTERVAL_MS - JITTER_MS);
        expect(gap).toBeLessThan(INTERVAL_MS + JITTER_MS);
      }
    }

    // A slow rhythm check B died in is re-run after another instance already checked a later slot: that re-run is
    // dropped, so the stored checks keep the rhythm: no two closer than an interval (less jitter).
    const { rows } = await db.query(
      `SELECT monitor_id, array_agg((extract(epoch FROM checked_at) * 1000)::float8 ORDER BY checked_at) AS times
       FROM monitor_checks WHERE monitor_id = ANY($1::int[]) AND checked_at >= $2 GROUP BY monitor_id`,
      [rhythm.map((m) => m.id), new Date(killedAt - INTERVAL_MS)],
    );
    expect(rows).toHaveLength(rhythm.length);
    for (const row of rows as Array<{ times: number[] }>) {
      for (const gap of gaps(row.times)) expect(gap).toBeGreaterThan(INTERVAL_MS - JITTER_MS);
    }
  }, 150_000);
});

/** The transitions a webhook message names: its own event, or each of a grouped message's items. */
function eventsOf(json: { event: string; items?: Array<{ event: string }> }): string[] {
  return json.items ? json.items.map((item) => item.event) : [json.event];
}
