import type { DependencyRef, MonitorStatus } from '@vigil/proto';
import { DomainEvents } from '../../src/events/domain-events.service';
import type { EventMap } from '../../src/events/event-map';
import { DependenciesRepository } from '../../src/monitors/dependencies/dependencies.repository';
import { httpMonitorFields } from '../../src/monitors/monitor-fixtures.testing';
import { MonitorFields, MonitorsRepository, ResultInput } from '../../src/monitors/monitors.repository';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const FIELDS: MonitorFields = httpMonitorFields();

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/**
 * Dependencies, degraded and flapping as `recordResults` decides them on PostgreSQL: dependencies' states read in the
 * writing transaction, a batch's dependencies decided before their dependents, what is stored per check and per hour,
 * and the events the notification side hears inside the transaction.
 */
describe('monitor dependencies in the writer', () => {
  let database: MediumDatabase;
  let repository: MonitorsRepository;
  let dependencies: DependenciesRepository;
  let heard: Array<[string, EventMap['monitor.status_changed'] | EventMap['monitor.flapping_changed']]>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const medium = await newMediumService(MonitorsRepository, database, { real: [DomainEvents, DependenciesRepository] });
    repository = medium.sut;
    dependencies = medium.get(DependenciesRepository);
    const events = medium.get(DomainEvents);
    for (const name of ['monitor.status_changed', 'monitor.flapping_changed'] as const)
      events.on(name, { phase: 'transaction', everyInstance: false }, (payloads) => {
        for (const payload of payloads as Array<EventMap[typeof name]>) heard.push([name, payload]);
      });
    close = medium.close;
  });
  afterAll(async () => {
    await close();
    await database.close();
  });
  beforeEach(() => {
    heard = [];
  });

  async function monitor(name: string, patch: Partial<MonitorFields> = {}, status: MonitorStatus = 'up'): Promise<number> {
    const row = await repository.insert({ ...FIELDS, name, ...patch }, at(60));
    await database.dataSource.query(`UPDATE monitors SET status = $2, last_checked = $3 WHERE id = $1`, [row.id, status, at(0)]);
    return row.id;
  }
  const on = (id: number): DependencyRef[] => [{ type: 'monitor', id }];

  function result(monitorId: number, ok: boolean, seconds: number, patch: Partial<ResultInput> = {}): ResultInput {
    return {
      monitorId,
      ok,
      statusCode: ok ? 200 : null,
      responseTime: ok ? 15 : null,
      error: ok ? null : 'Connection refused',
      checkedAt: at(seconds),
      rhythmNext: at(120),
      ...patch,
    };
  }

  const stored = async (id: number) =>
    (
      await database.dataSource.query(
        `SELECT status, flapping, cardinality(recent_changes)::int AS changes,
                (SELECT array_agg(status ORDER BY checked_at) FROM monitor_checks WHERE monitor_id = $1) AS checks,
                (SELECT sum(up)::int FROM monitor_hourly WHERE monitor_id = $1) AS up,
                (SELECT sum(degraded)::int FROM monitor_hourly WHERE monitor_id = $1) AS degraded,
                (SELECT sum(unreachable)::int FROM monitor_hourly WHERE monitor_id = $1) AS unreachable
         FROM monitors WHERE id = $1`,
        [id],
      )
    )[0];

  it('decides the router before the service behind it in one batch, whatever order their checks ended in', async () => {
    const router = await monitor('router');
    const service = await monitor('service', { dependsOn: on(router) });
    await repository.recordResults([result(service, false, 10), result(router, false, 12)]);
    expect(await stored(router)).toMatchObject({ status: 'down', checks: ['down'], unreachable: 0 });
    expect(await stored(service)).toMatchObject({ status: 'unreachable', checks: ['unreachable'], unreachable: 1, up: 0 });
    const cause = heard.find(([, p]) => p.monitor.id === service)?.[1] as EventMap['monitor.status_changed'];
    expect(cause).toMatchObject({ previous: 'up', status: 'unreachable', cause: { type: 'monitor', id: router, name: 'router' } });
  });

  it('reads a dependency outside the batch in the transaction, agents included', async () => {
    const router = await monitor('router-2', {}, 'down');
    const host = await database.dataSource.query(
      `INSERT INTO agents (name, hostname, status, protocol, interval_s) VALUES ('host', 'host', 'inactive', 'socket', 60) RETURNING id`,
    );
    const behindRouter = await monitor('behind-router', { dependsOn: on(router) });
    const behindHost = await monitor('behind-host', { dependsOn: [{ type: 'agent', id: host[0].id }] });
    await repository.recordResults([result(behindRouter, false, 10)]);
    await repository.recordResults([result(behindHost, false, 10)]);
    expect((await stored(behindRouter)).status).toBe('unreachable');
    expect((await stored(behindHost)).status).toBe('unreachable');

    // Back: still failing is down at once.
    await database.dataSource.query(`UPDATE monitors SET status = 'up' WHERE id = $1`, [router]);
    await repository.recordResults([result(behindRouter, false, 20)]);
    expect((await stored(behindRouter)).status).toBe('down');
  });

  it('records a slow success degraded, counted up', async () => {
    const slow = await monitor('slow', { degradedAfterMs: 10 });
    await repository.recordResults([result(slow, true, 10)]);
    expect(await stored(slow)).toMatchObject({ status: 'degraded', checks: ['degraded'], up: 1, degraded: 1 });
  });

  it('stores the flapping flag and the change times, and raises one event when it starts', async () => {
    const flaky = await monitor('flaky');
    for (let i = 0; i < 7; i++) await repository.recordResults([result(flaky, i % 2 === 1, 10 + i * 10)]);
    expect(await stored(flaky)).toMatchObject({ status: 'down', flapping: true, changes: 6 });
    const flaps = heard.filter(([name, p]) => name === 'monitor.flapping_changed' && p.monitor.id === flaky);
    expect(flaps.map(([, p]) => (p as EventMap['monitor.flapping_changed']).flapping)).toEqual([true]);
  });

  it('lists the dependents of a target transitively with their status, and forgets a deleted one', async () => {
    const core = await monitor('core');
    const mid = await monitor('mid', { dependsOn: on(core) }, 'unreachable');
    const leafA = await monitor('leaf-a', { dependsOn: on(mid) }, 'unreachable');
    const leafB = await monitor('leaf-b', { dependsOn: [...on(mid), ...on(core)] });
    const found = await dependencies.dependentsOf(database.dataSource.manager, { type: 'monitor', id: core });
    expect(found.map((d) => [d.name, d.status, d.depth])).toEqual([
      ['leaf-b', 'up', 1],
      ['mid', 'unreachable', 1],
      ['leaf-a', 'unreachable', 2],
    ]);
    await dependencies.removeReferences(database.dataSource.manager, { type: 'monitor', id: mid });
    const [b] = await database.dataSource.query(`SELECT depends_on FROM monitors WHERE id = $1`, [leafB]);
    expect(b.depends_on).toEqual(on(core));
    const [a] = await database.dataSource.query(`SELECT depends_on FROM monitors WHERE id = $1`, [leafA]);
    expect(a.depends_on).toEqual([]);
  });
});
