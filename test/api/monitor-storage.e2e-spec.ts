import { Client } from 'pg';
import request from 'supertest';
import type { MonitorDto } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('check scheduling and storage', () => {
  let database: TestDatabase;
  let app: TestApp;
  let target: TargetServer;
  let admin: Session;

  beforeAll(async () => {
    database = await createTestDatabase('url');
    [app, target] = await Promise.all([startTestApp({ database }), startTargetServer()]);
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
    await database?.drop();
  });

  async function read(id: number): Promise<MonitorDto> {
    return (await request(app.url).get(`/api/monitors/${id}`).set(admin.auth).expect(200)).body.monitor;
  }

  it('re-checks a pending monitor every retry interval until it is down', async () => {
    target.respond(500);
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'retrying', url: `${target.url}/retry`, retries: 2, retryInterval: 10 })
      .expect(201);
    const id = body.monitor.id;
    const seen: string[] = [];
    for (let i = 0; i < 60 && seen.at(-1) !== 'down'; i += 1) {
      const { status } = await read(id);
      if (seen.at(-1) !== status) seen.push(status);
      await sleep(500);
    }
    target.respond(200);
    // Created pending, first failure keeps it pending, two scheduled retries 10 s apart make it down.
    expect(seen).toEqual(['pending', 'down']);
    // Three checks made it down; the monitor's regular slot (spread anywhere in its first minute) may add a fourth
    // right after, so the retry rhythm is read from the three oldest stored checks.
    const times = target.received.filter((r) => r.path === '/retry').length;
    expect(times).toBeGreaterThanOrEqual(3);
    const checks = (await read(id)).checks.map((c) => new Date(c.checked_at).getTime()).reverse();
    expect(checks[1] - checks[0]).toBeGreaterThanOrEqual(9_500);
    expect(checks[2] - checks[1]).toBeGreaterThanOrEqual(9_500);
    expect(checks[2] - checks[1]).toBeLessThan(13_000);
  });

  it('prunes raw checks past the retention window but keeps the hourly aggregates', async () => {
    const { body } = await request(app.url).post('/api/monitors').set(admin.auth).send({ name: 'old', url: target.url }).expect(201);
    const id = body.monitor.id;
    const client = new Client({ connectionString: database.url! });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO monitor_checks (monitor_id, status, status_code, response_time, error, checked_at)
         SELECT $1, 'up', 200, 5, NULL, now() - interval '3 days' - (n || ' minutes')::interval FROM generate_series(1, 50) n`,
        [id],
      );
      await client.query(
        `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count, response_max)
         VALUES ($1, date_trunc('hour', now() - interval '3 days'), 50, 50, 250, 50, 5)`,
        [id],
      );
      await app.restart();
      let old = 50;
      for (let i = 0; i < 40 && old > 0; i += 1) {
        await sleep(250);
        old = (
          await client.query(
            `SELECT count(*)::int AS n FROM monitor_checks WHERE monitor_id = $1 AND checked_at < now() - interval '2 days'`,
            [id],
          )
        ).rows[0].n;
      }
      expect(old).toBe(0);
      const hourly = await client.query(`SELECT checks FROM monitor_hourly WHERE monitor_id = $1 AND hour < now() - interval '2 days'`, [
        id,
      ]);
      expect(hourly.rows).toEqual([{ checks: 50 }]);
      const { body: stats } = await request(app.url).get(`/api/monitors/${id}/stats?range=7d`).set(admin.auth).expect(200);
      expect(stats.stats.checks).toBeGreaterThanOrEqual(50);
    } finally {
      await client.end();
    }
  });

  it('tells in /api/metrics where each check’s time went and how full the write queue is', async () => {
    const metrics = async () => {
      const { text } = await request(app.url).get('/api/metrics').set(admin.auth).expect(200);
      const values = new Map(
        text
          .split('\n')
          .filter((line) => line && !line.startsWith('#'))
          .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
      );
      return (name: string) => values.get(name) ?? NaN;
    };
    const before = await metrics();
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'timed', url: `${target.url}/timed` })
      .expect(201);
    for (let i = 0; i < 40 && (await read(body.monitor.id)).status === 'pending'; i += 1) await sleep(250);
    const after = await metrics();
    for (const part of ['slot_wait', 'request', 'write_wait', 'write']) {
      const name = `vigil_check_${part}_ms`;
      expect(after(`${name}_count`) - before(`${name}_count`)).toBeGreaterThanOrEqual(1);
      expect(after(`${name}_bucket{le="+Inf"}`)).toBe(after(`${name}_count`));
    }
    expect(after('vigil_check_results_waiting_limit')).toBe(5000);
    // At most one result per monitor of this file can be waiting for its batch.
    expect(after('vigil_check_results_waiting')).toBeLessThanOrEqual(3);
    expect(after('vigil_check_scheduling_held_ms_total')).toBe(0);
  });
});
