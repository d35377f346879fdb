import { Client } from 'pg';
import request from 'supertest';
import type { AvailabilityPage, MonitorDto } from '@vigil/proto';
import { enrollAgent } from '../factories/agents';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/** Raw checks one export may hold in this spec's server (EXPORT_MAX_ROWS), small enough to fill in a test. */
const MAX_ROWS = 20_000;
const HOUR = 3_600_000;

/** Reads a download as text, noting how many chunks it arrived in. */
function download(url: string, path: string, auth: Record<string, string>) {
  return request(url)
    .get(path)
    .set(auth)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      let chunks = 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        chunks += 1;
        text += chunk;
      });
      res.on('end', () => done(null, { text, chunks }));
    });
}

const lines = (text: string) => text.split('\r\n').filter(Boolean);

describe('data export', () => {
  let database: TestDatabase;
  let app: TestApp;
  let target: TargetServer;
  let admin: Session;
  let member: Session;
  let viewer: Session;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase('url');
    [app, target] = await Promise.all([
      startTestApp({ database, env: { ...USERS_REACH_LOOPBACK, EXPORT_MAX_ROWS: String(MAX_ROWS) } }),
      startTargetServer(),
    ]);
    admin = await registerFirstAdmin(app.url);
    [member, viewer] = await Promise.all([createUser(app.url, admin, 'user'), createUser(app.url, admin, 'viewer')]);
    db = new Client({ connectionString: database.url! });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.destroy();
    await target?.close();
    await database?.drop();
  });

  /** A monitor of the target, its creation check stored; paused, so no scheduled check adds rows during the spec. */
  async function createMonitor(name: string, path: string, checks: number[] = []): Promise<number> {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(member.auth)
      .send({ name, url: `${target.url}${path}`, retries: 0, interval: 86_400 })
      .expect(201);
    const id: number = body.monitor.id;
    // The creation check runs in the background: wait for it before counting checks.
    await waitFor(
      async () => (await request(app.url).get(`/api/monitors/${id}`).set(member.auth).expect(200)).body.monitor as MonitorDto,
      (monitor) => monitor.status !== 'pending',
    );
    for (const status of checks) {
      target.respondFor(path, status);
      await request(app.url).post(`/api/monitors/${id}/check`).set(member.auth).expect(200);
    }
    await request(app.url).post(`/api/monitors/${id}/pause`).set(member.auth).expect(200);
    return id;
  }

  /** The monitor's stored checks as the API lists them, oldest first: what an export must hold. */
  async function storedChecks(id: number): Promise<Array<{ status: string; status_code: number | null }>> {
    const { body } = await request(app.url).get(`/api/monitors/${id}/checks?pageSize=100`).set(member.auth).expect(200);
    return (body.checks as Array<{ status: string; status_code: number | null }>).reverse();
  }

  describe('a monitor stored with real checks', () => {
    let id: number;
    let stored: Array<{ status: string; status_code: number | null }>;

    beforeAll(async () => {
      target.respondFor('/exported', 200);
      id = await createMonitor('exported', '/exported', [503, 200]);
      stored = await storedChecks(id);
      expect(stored.map((c) => c.status)).toEqual(expect.arrayContaining(['up', 'down']));
    });

    it('downloads the raw checks as CSV, oldest first, with a file name and the tier that answered', async () => {
      const res = await download(app.url, `/api/monitors/${id}/checks/export?format=csv`, member.auth).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="vigil-monitor-\d+-checks-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.csv"$/,
      );
      expect(res.headers['x-vigil-export-tier']).toBe('raw');
      const [header, ...rows] = lines(res.body.text);
      expect(header).toBe('time,status,status_code,response_time_ms,error');
      expect(rows.map((row) => row.split(',').slice(1, 3).join(','))).toEqual(stored.map((c) => `${c.status},${c.status_code}`));
      expect(rows.map((row) => row.split(',').slice(1, 3).join(','))).toEqual(expect.arrayContaining(['up,200', 'down,503']));
      const times = rows.map((row) => Date.parse(row.split(',')[0]));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });

    it('downloads the same checks as a JSON document naming the monitor and the range', async () => {
      const res = await request(app.url).get(`/api/monitors/${id}/checks/export?format=json`).set(viewer.auth).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/filename="vigil-monitor-\d+-checks-.*\.json"$/);
      expect(res.body).toMatchObject({ monitor: { id, name: 'exported' }, tier: 'raw' });
      expect(res.body.rows.map((r: { status: string; status_code: number }) => ({ status: r.status, status_code: r.status_code }))).toEqual(
        stored.map((c) => ({ status: c.status, status_code: c.status_code })),
      );
      expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(24 * HOUR);
    });

    it('counts the real down episode in this month’s availability report', async () => {
      const month = new Date().toISOString().slice(0, 7);
      const { body } = await request(app.url)
        .get(`/api/reports/availability?month=${month}&format=json&limit=1000`)
        .set(viewer.auth)
        .expect(200);
      const row = (body as AvailabilityPage).monitors.find((m) => m.monitor_id === id)!;
      const up = stored.filter((c) => c.status === 'up').length;
      expect(row).toMatchObject({ name: 'exported', type: 'http', checks: stored.length, up, incidents: 1 });
      expect(row.uptime).toBeCloseTo((up / stored.length) * 100, 3);
      expect(row.downtime_minutes).toBeGreaterThanOrEqual(0);
    });
  });

  it('prefixes text a spreadsheet would run as a formula and quotes separators', async () => {
    const id = await createMonitor('escaping', '/escaping');
    await db.query(
      `INSERT INTO monitor_checks (monitor_id, status, status_code, response_time, error, checked_at)
       VALUES ($1, 'down', NULL, NULL, '=HYPERLINK("http://evil.test","x")', now() - interval '1 minute'),
              ($1, 'down', NULL, NULL, 'refused, then "closed"', now() - interval '30 seconds')`,
      [id],
    );
    const res = await download(app.url, `/api/monitors/${id}/checks/export`, member.auth).expect(200);
    const rows = lines(res.body.text).slice(1);
    expect(rows.some((row) => row.endsWith(`,"'=HYPERLINK(""http://evil.test"",""x"")"`))).toBe(true);
    expect(rows.some((row) => row.endsWith(`,"refused, then ""closed"""`))).toBe(true);
  });

  it('answers older ranges from the hourly aggregates, per hour or per UTC day', async () => {
    const id = await createMonitor('aggregated', '/aggregated');
    const day = new Date(Date.now() - 10 * 24 * HOUR);
    day.setUTCHours(0, 0, 0, 0);
    await db.query(
      `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count, response_max, degraded, unreachable, maintenance)
       VALUES ($1, $2, 60, 60, 600, 60, 30, 0, 0, 0), ($1, $2::timestamptz + interval '1 hour', 60, 45, 1200, 60, 90, 5, 0, 2)`,
      [id, day],
    );
    const from = new Date(day.getTime() - 24 * HOUR).toISOString();
    const to = new Date(day.getTime() + 2 * 24 * HOUR).toISOString();
    const hourly = await request(app.url)
      .get(`/api/monitors/${id}/checks/export?format=json&from=${from}&to=${to}`)
      .set(member.auth)
      .expect(200);
    expect(hourly.headers['x-vigil-export-tier']).toBe('hourly');
    expect(hourly.body.rows).toEqual([
      expect.objectContaining({ time: day.toISOString(), checks: 60, up: 60, down: 0, uptime: 100, avg_response_time_ms: 10 }),
      expect.objectContaining({ checks: 60, up: 45, down: 15, degraded: 5, maintenance: 2, uptime: 75, max_response_time_ms: 90 }),
    ]);
    const daily = await download(app.url, `/api/monitors/${id}/checks/export?tier=daily&from=${from}&to=${to}`, member.auth).expect(200);
    expect(daily.headers['x-vigil-export-tier']).toBe('daily');
    expect(lines(daily.body.text)).toEqual([
      'time,checks,up,down,degraded,unreachable,maintenance,uptime,avg_response_time_ms,max_response_time_ms',
      `${day.toISOString()},120,105,15,5,0,2,87.5,15,90`,
    ]);
  });

  it('exports an agent’s metrics from the finest tier that holds the range', async () => {
    const { agentId } = await enrollAgent(app.url, admin, 'export-host');
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000);
    const hour = new Date(Math.floor(Date.now() / HOUR) * HOUR - 5 * 24 * HOUR);
    await db.query(
      `INSERT INTO agent_metrics (agent_id, tier, bucket, samples, cpu_sum, cpu_max, memory_sum, memory_n, disk_sum, disk_n,
         rx_sum, tx_sum, load_sum, load_n)
       VALUES ($1, 60, $2, 4, 100, 40, 200, 4, 120, 4, 4000, 2000, 2, 4), ($1, 3600, $3, 60, 600, 90, 3000, 60, 1800, 60, 0, 0, 30, 60)`,
      [agentId, minute, hour],
    );
    const recent = await download(
      app.url,
      `/api/agents/${agentId}/metrics/export?from=${new Date(Date.now() - HOUR).toISOString()}`,
      member.auth,
    ).expect(200);
    expect(recent.headers['x-vigil-export-tier']).toBe('60');
    expect(lines(recent.body.text)).toEqual([
      'time,samples,cpu_percent,cpu_max_percent,memory_percent,disk_percent,rx_bytes_per_second,tx_bytes_per_second,load1',
      `${minute.toISOString()},4,25,40,50,30,1000,500,0.5`,
    ]);
    const older = await request(app.url)
      .get(`/api/agents/${agentId}/metrics/export?format=json&from=${new Date(Date.now() - 40 * 24 * HOUR).toISOString()}`)
      .set(viewer.auth)
      .expect(200);
    expect(older.body).toMatchObject({ agent: { id: agentId, name: 'export-host' }, tier: '3600' });
    expect(older.body.rows).toEqual([expect.objectContaining({ time: hour.toISOString(), cpu_percent: 10, memory_percent: 50 })]);
    await request(app.url).get(`/api/agents/999999/metrics/export`).set(member.auth).expect(404);
  });

  it('builds the monthly availability report from day and hour counts and down episodes clipped to the month', async () => {
    const id = await createMonitor('=SUM(A1)', '/monthly');
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const month = start.toISOString().slice(0, 7);
    // The report reads the days the roll-up holds from monitor_daily: wait for its first run, then store both tiers
    // as the roll-up would have them.
    await waitFor(
      async () => (await db.query(`SELECT 1 FROM settings WHERE key = 'monitor_daily'`)).rowCount,
      (rows) => rows === 1,
      40_000,
    );
    await db.query(
      `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count, response_max)
       VALUES ($1, $2::timestamptz + interval '2 days', 100, 97, 0, 0, NULL), ($1, $2::timestamptz + interval '3 days', 100, 100, 0, 0, NULL)`,
      [id, start],
    );
    await db.query(
      `INSERT INTO monitor_daily (monitor_id, day, checks, up)
       VALUES ($1, ($2::timestamptz + interval '2 days')::date, 100, 97), ($1, ($2::timestamptz + interval '3 days')::date, 100, 100)
       ON CONFLICT (monitor_id, day) DO UPDATE SET checks = excluded.checks, up = excluded.up`,
      [id, start],
    );
    // One outage inside the month (30 minutes), one begun 10 minutes before it that ended 20 minutes into it.
    await db.query(
      `INSERT INTO alerts (target_kind, target_id, target_name, metric, episode, opened_at, closed_at)
       VALUES ('monitor', $1, 'x', 'status', 101, $2::timestamptz + interval '2 days', $2::timestamptz + interval '2 days 30 minutes'),
              ('monitor', $1, 'x', 'status', 100, $2::timestamptz - interval '10 minutes', $2::timestamptz + interval '20 minutes'),
              ('monitor', $1, 'x', 'degraded', 1, $2::timestamptz + interval '4 days', $2::timestamptz + interval '5 days')`,
      [id, start],
    );
    const csv = await download(app.url, `/api/reports/availability?month=${month}`, viewer.auth).expect(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="vigil-availability-${month}.csv"`);
    const [header, ...rows] = lines(csv.body.text);
    expect(header).toBe('monitor_id,name,type,checks,up,uptime,incidents,downtime_minutes');
    expect(rows).toContain(`${id},'=SUM(A1),http,200,197,98.5,2,50`);

    // No month: this one.
    const current = await request(app.url).get('/api/reports/availability?format=json&limit=1').set(member.auth).expect(200);
    expect(current.body.month).toBe(now.toISOString().slice(0, 7));

    const first = await request(app.url).get(`/api/reports/availability?month=${month}&format=json&limit=1`).set(member.auth).expect(200);
    expect(first.body).toMatchObject({ success: true, month, monitors: [expect.objectContaining({ monitor_id: expect.any(Number) })] });
    const ids: number[] = [];
    for (let after = 0; ;) {
      const { body } = await request(app.url)
        .get(`/api/reports/availability?month=${month}&format=json&limit=2&after=${after}`)
        .set(member.auth);
      ids.push(...(body as AvailabilityPage).monitors.map((m) => m.monitor_id));
      if (body.next_after === null) break;
      after = body.next_after;
    }
    expect(ids).toEqual(
      lines(csv.body.text)
        .slice(1)
        .map((row) => Number(row.split(',')[0])),
    );
  });

  it.each([
    [
      'a range longer than 366 days',
      '/api/monitors/{id}/checks/export?from=2024-01-01T00:00:00Z&to=2025-01-02T00:00:00Z',
      'exports.rangeTooLong',
    ],
    ['to before from', '/api/monitors/{id}/checks/export?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z', 'exports.rangeInvalid'],
    ['a date that is not ISO 8601', '/api/monitors/{id}/checks/export?from=yesterday', 'exports.rangeInvalid'],
    ['an unknown format', '/api/monitors/{id}/checks/export?format=xlsx', 'exports.formatInvalid'],
    [
      'raw checks older than their window',
      `/api/monitors/{id}/checks/export?tier=raw&from=${new Date(Date.now() - 5 * 24 * HOUR).toISOString()}`,
      'exports.tierNotKept',
    ],
    ['an unknown agent tier', '/api/agents/1/metrics/export?tier=5', 'exports.tierInvalid'],
    ['a month in the future', '/api/reports/availability?month=2999-01', 'reports.monthInvalid'],
    ['a month that is no month', '/api/reports/availability?month=2026-13', 'reports.monthInvalid'],
    ['a month older than the aggregates', '/api/reports/availability?month=2001-01', 'reports.monthNotKept'],
    [
      'a page larger than 1,000',
      `/api/reports/availability?month=${new Date().toISOString().slice(0, 7)}&limit=1001`,
      'reports.limitInvalid',
    ],
  ])('refuses %s with a 400', async (_, path, code) => {
    const res = await request(app.url).get(path.replace('{id}', '1')).set(member.auth).expect(400);
    expect(res.body).toMatchObject({ success: false, code });
  });

  it('refuses whoever may not read monitors and agents: no credential, a forged one, a metrics key', async () => {
    const id = await createMonitor('guarded', '/guarded');
    const { body: key } = await request(app.url)
      .post('/api/api-keys')
      .set(admin.auth)
      .send({ name: 'scrape', scope: 'metrics' })
      .expect(201);
    for (const path of [`/api/monitors/${id}/checks/export`, '/api/agents/1/metrics/export', '/api/reports/availability?month=2026-01']) {
      await request(app.url).get(path).expect(401);
      await request(app.url).get(path).set({ Authorization: 'Bearer not-a-token' }).expect(401);
      await request(app.url)
        .get(path)
        .set({ Authorization: `Bearer ${key.secret}` })
        .expect(403);
    }
    await request(app.url).get('/api/monitors/999999/checks/export').set(member.auth).expect(404);
  });

  describe('a range of many raw checks', () => {
    let id: number;

    beforeAll(async () => {
      id = await createMonitor('busy', '/busy');
      await db.query(`DELETE FROM monitor_checks WHERE monitor_id = $1`, [id]);
      // Three checks to a timestamp, as a batch of results stored at once can be.
      await db.query(
        `INSERT INTO monitor_checks (monitor_id, status, status_code, response_time, error, checked_at)
         SELECT $1, 'up', 200, n % 1000, NULL, now() - interval '40 hours' + (n / 3) * interval '5 milliseconds' FROM generate_series(1, $2) n`,
        [id, MAX_ROWS],
      );
    });

    it('streams every check of the bound in order, in many chunks, without a Content-Length', async () => {
      const res = await download(
        app.url,
        `/api/monitors/${id}/checks/export?from=${new Date(Date.now() - 47 * HOUR).toISOString()}`,
        member.auth,
      ).expect(200);
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.body.chunks).toBeGreaterThan(1);
      const rows = lines(res.body.text).slice(1);
      expect(rows).toHaveLength(MAX_ROWS);
      // Checks three to a timestamp: pages that end inside a timestamp go on by id, nothing twice, nothing left out.
      expect(rows.map((row) => Number(row.split(',')[3]))).toEqual(Array.from({ length: MAX_ROWS }, (_, i) => (i + 1) % 1000));
      const json = await request(app.url)
        .get(`/api/monitors/${id}/checks/export?format=json&from=${new Date(Date.now() - 47 * HOUR).toISOString()}`)
        .set(member.auth)
        .expect(200);
      expect(json.body.rows).toHaveLength(MAX_ROWS);
    });

    it('refuses a range holding one check more than the bound', async () => {
      await db.query(
        `INSERT INTO monitor_checks (monitor_id, status, status_code, response_time, error, checked_at) VALUES ($1, 'up', 200, 1, NULL, now() - interval '1 hour')`,
        [id],
      );
      const res = await request(app.url)
        .get(`/api/monitors/${id}/checks/export?from=${new Date(Date.now() - 47 * HOUR).toISOString()}`)
        .set(member.auth)
        .expect(400);
      expect(res.body).toMatchObject({ success: false, code: 'exports.tooManyRows' });
      const hourly = await request(app.url)
        .get(`/api/monitors/${id}/checks/export?tier=hourly&from=${new Date(Date.now() - 47 * HOUR).toISOString()}`)
        .set(member.auth)
        .expect(200);
      expect(hourly.headers['x-vigil-export-tier']).toBe('hourly');
    });
  });
});
