import type { MonitorStatus } from '@vigil/proto';
import { DomainEvents } from '../../src/events/domain-events.service';
import type { EventMap, EventName } from '../../src/events/event-map';
import { MaintenanceRepository } from '../../src/maintenance/maintenance.repository';
import { MaintenanceSweep } from '../../src/maintenance/maintenance-sweep.service';
import type { MaintenanceFields } from '../../src/maintenance/maintenance.types';
import { CheckScheduler } from '../../src/monitors/check-scheduler.service';
import { DependenciesRepository } from '../../src/monitors/dependencies/dependencies.repository';
import { MonitorsRepository, type ResultInput } from '../../src/monitors/monitors.repository';
import { Fake, MediumDatabase, mediumDatabase, newMediumService } from './medium';

type Heard = Array<[EventName, unknown]>;

/** One "instance": the sweep with its own event bus and a faked scheduler, on the shared database. */
async function instance(database: MediumDatabase) {
  const medium = await newMediumService(MaintenanceSweep, database, { real: [MaintenanceRepository, DomainEvents] });
  const heard: Heard = [];
  const events = medium.get(DomainEvents);
  for (const name of ['monitor.status_changed', 'agent.maintenance_ended'] as const)
    events.on(name, { phase: 'transaction', everyInstance: false }, (payloads) => {
      for (const payload of payloads as unknown[]) heard.push([name, payload]);
    });
  events.on(
    'maintenance.changed',
    { phase: 'commit', everyInstance: false },
    (payload) => void heard.push(['maintenance.changed', payload]),
  );
  return { sweep: medium.sut, scheduler: medium.get(CheckScheduler) as unknown as Fake<CheckScheduler>, heard, close: medium.close };
}

const WINDOW: MaintenanceFields = {
  title: 'Database upgrade',
  description: '',
  strategy: 'single',
  timezone: 'UTC',
  start_at: null,
  end_at: null,
  weekdays: [],
  days_of_month: [],
  start_time: null,
  end_time: null,
  interval_days: null,
  cron: null,
  duration_minutes: null,
  enabled: true,
  notify: false,
  end_when_healthy_minutes: null,
  all_targets: false,
};

/**
 * The sweep on PostgreSQL with two instances on one database: each start and end of a span is decided once under the
 * window's row lock whichever instance gets there, moves what the window covers (monitors through the state machine,
 * agents' flag), and an end releases only what no other window covers. The writer, meanwhile, records results in a
 * window as `maintenance` and leaves them out of uptime.
 */
describe('maintenance sweep across two instances', () => {
  let database: MediumDatabase;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  let windows: MaintenanceRepository;
  let writer: MonitorsRepository;
  let closeWriter: () => Promise<void>;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    database.dataSource.query(text, params) as Promise<T[]>;

  beforeAll(async () => {
    database = await mediumDatabase();
    [a, b] = [await instance(database), await instance(database)];
    windows = new MaintenanceRepository(database.dataSource);
    const medium = await newMediumService(MonitorsRepository, database, { real: [DomainEvents, DependenciesRepository] });
    writer = medium.sut;
    closeWriter = medium.close;
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), closeWriter?.()]);
    await database?.close();
  });
  beforeEach(() => {
    for (const side of [a, b]) {
      side.heard.length = 0;
      side.scheduler.schedule.mockReset().mockResolvedValue(undefined);
    }
  });

  const monitor = async (name: string, patch: { status?: MonitorStatus; parent?: number; type?: string } = {}) =>
    (
      await sql<{ id: number }>(
        `INSERT INTO monitors (name, url, status, parent_id, type, last_checked) VALUES ($1, 'https://example.com/', $2, $3, $4, now()) RETURNING id`,
        [name, patch.status ?? 'up', patch.parent ?? null, patch.type ?? 'http'],
      )
    )[0].id;
  const agent = async (name: string, status = 'active') =>
    (
      await sql<{ id: number }>(
        `INSERT INTO agents (name, hostname, status, protocol, interval_s) VALUES ($1, $1, $2, 'socket', 60) RETURNING id`,
        [name, status],
      )
    )[0].id;
  const statusOf = async (id: number) => (await sql<{ status: string }>(`SELECT status FROM monitors WHERE id = $1`, [id]))[0].status;
  const flagOf = async (id: number) =>
    (await sql<{ maintenance: boolean }>(`SELECT maintenance FROM agents WHERE id = $1`, [id]))[0].maintenance;

  /** A single window from `startMinutes` to `endMinutes` from now, covering these. */
  async function window(scope: { monitors?: number[]; groups?: number[]; agents?: number[] }, startMinutes = -1, endMinutes = 60) {
    const row = await windows.insert(database.dataSource, {
      ...WINDOW,
      start_at: new Date(Date.now() + startMinutes * 60_000),
      end_at: new Date(Date.now() + endMinutes * 60_000),
    });
    await windows.setScope(database.dataSource, row.id, { all: false, monitors: [], agents: [], groups: [], ...scope });
    return row.id;
  }
  const endNow = (id: number) => sql(`UPDATE maintenance SET end_at = now() - interval '1 second' WHERE id = $1`, [id]);
  const bothSweep = () => Promise.all([a.sweep.sweep(), b.sweep.sweep(), a.sweep.sweep(), b.sweep.sweep()]);
  const heard = (name: EventName) => [...a.heard, ...b.heard].filter(([event]) => event === name).map(([, payload]) => payload);

  it('starts and ends each span once, whichever instance gets there, moving what the window covers', async () => {
    const covered = await monitor('db-primary');
    const apart = await monitor('web');
    const host = await agent('db-host', 'inactive');
    const id = await window({ monitors: [covered], agents: [host] });

    await bothSweep();
    expect(await statusOf(covered)).toBe('maintenance');
    expect(await statusOf(apart)).toBe('up');
    expect(await flagOf(host)).toBe(true);
    const moves = heard('monitor.status_changed') as Array<EventMap['monitor.status_changed']>;
    expect(moves.map((m) => [m.monitor.id, m.previous, m.status])).toEqual([[covered, 'up', 'maintenance']]);
    expect((heard('maintenance.changed') as Array<EventMap['maintenance.changed']>).map((e) => [e.action, e.maintenance.phase])).toEqual([
      ['started', 'active'],
    ]);
    expect(await sql(`SELECT end_at FROM maintenance_occurrences WHERE maintenance_id = $1`, [id])).toEqual([{ end_at: null }]);

    a.heard.length = b.heard.length = 0;
    await endNow(id);
    await bothSweep();
    expect((heard('maintenance.changed') as Array<EventMap['maintenance.changed']>).map((e) => e.action)).toEqual(['ended']);
    // The released monitor is checked at once, by the instance that ended the window only; the agent alerts once.
    const checked = [...a.scheduler.schedule.mock.calls, ...b.scheduler.schedule.mock.calls];
    expect(checked.map(([monitor, options]) => [monitor.id, options])).toEqual([[covered, { checkNow: true }]]);
    expect(await flagOf(host)).toBe(false);
    expect((heard('agent.maintenance_ended') as Array<EventMap['agent.maintenance_ended']>).map((e) => e.agent.id)).toEqual([host]);
    const [logged] = await sql<{ end_at: Date | null }>(`SELECT end_at FROM maintenance_occurrences WHERE maintenance_id = $1`, [id]);
    expect(logged.end_at).not.toBeNull();
    expect(await windows.findById(id)).toMatchObject({ applied_start: null, next_start: null });
    // What the re-check would record (the scheduler is faked here).
    await sql(`UPDATE monitors SET status = 'up' WHERE id = $1`, [covered]);
  });

  it('keeps a monitor in maintenance while another window still covers it', async () => {
    const shared = await monitor('shared');
    const first = await window({ monitors: [shared] });
    const second = await window({ monitors: [shared] });
    await bothSweep();
    expect(await statusOf(shared)).toBe('maintenance');
    await endNow(first);
    await bothSweep();
    expect([...a.scheduler.schedule.mock.calls, ...b.scheduler.schedule.mock.calls]).toEqual([]);
    await endNow(second);
    await bothSweep();
    expect([...a.scheduler.schedule.mock.calls, ...b.scheduler.schedule.mock.calls].map(([m]) => m.id)).toEqual([shared]);
  });

  it('covers a group and every monitor inside it, and follows a scope grown while active', async () => {
    const group = await monitor('cluster', { type: 'group' });
    const inner = await monitor('node-1', { parent: group });
    const deeper = await monitor('node-2', { parent: inner });
    const later = await monitor('node-3');
    const id = await window({ groups: [group] });
    await bothSweep();
    expect([await statusOf(group), await statusOf(inner), await statusOf(deeper), await statusOf(later)]).toEqual([
      'maintenance',
      'maintenance',
      'maintenance',
      'up',
    ]);
    // Joining the group later: the next sweep moves it, once.
    await sql(`UPDATE monitors SET parent_id = $2 WHERE id = $1`, [later, group]);
    await bothSweep();
    expect(await statusOf(later)).toBe('maintenance');
    expect(
      (heard('monitor.status_changed') as Array<EventMap['monitor.status_changed']>).filter((m) => m.monitor.id === later),
    ).toHaveLength(1);
    await endNow(id);
  });

  it('records a result in a window as maintenance, counted neither up nor down, and decides on the failures after it', async () => {
    const api = await monitor('api');
    await sql(`UPDATE monitors SET retries = 1 WHERE id = $1`, [api]);
    const id = await window({ monitors: [api] });
    await bothSweep();
    const result = (ok: boolean, seconds: number): ResultInput => ({
      monitorId: api,
      ok,
      statusCode: ok ? 200 : 503,
      responseTime: 20,
      error: ok ? null : 'Expected status 200-299, got 503',
      checkedAt: new Date(Date.now() + seconds * 1000),
      rhythmNext: null,
    });
    const inWindow = await writer.recordResults([result(false, 1), result(false, 2)]);
    expect(inWindow.recorded.map((r) => [r.check, r.monitor.status])).toEqual([
      ['maintenance', 'maintenance'],
      ['maintenance', 'maintenance'],
    ]);
    const [hourly] = await sql<{ checks: number; up: number; maintenance: number }>(
      `SELECT sum(checks)::int AS checks, sum(up)::int AS up, sum(maintenance)::int AS maintenance FROM monitor_hourly WHERE monitor_id = $1`,
      [api],
    );
    expect(hourly).toEqual({ checks: 0, up: 0, maintenance: 2 });

    await endNow(id);
    await bothSweep();
    // Failing all through the window: down at its first check after it (a normal down transition, which alerts).
    const after = await writer.recordResults([result(false, 3)]);
    expect(after.recorded.map((r) => [r.previous, r.check, r.monitor.status])).toEqual([['maintenance', 'down', 'down']]);
  });
});
