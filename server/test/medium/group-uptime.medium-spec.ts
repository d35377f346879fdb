import { DomainEvents } from '../../src/events/domain-events.service';
import { MonitorFields, MonitorsRepository, ResultInput } from '../../src/monitors/monitors.repository';
import { httpMonitorFields } from '../../src/monitors/monitor-fixtures.testing';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const FIELDS: MonitorFields = httpMonitorFields({ name: 'member' });

/**
 * A group's uptime on PostgreSQL: its members' checks fold one observation of the group per batch into its hourly
 * aggregates, so a group down for a while reads below 100 %, and a paused group is not observed.
 */
describe('group uptime', () => {
  let database: MediumDatabase;
  let sut: MonitorsRepository;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const medium = await newMediumService(MonitorsRepository, database, { real: [MonitorsRepository, DomainEvents] });
    sut = medium.sut;
    close = medium.close;
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  async function insert(patch: Partial<MonitorFields>): Promise<number> {
    const row = await sut.insert({ ...FIELDS, ...patch }, null);
    await database.dataSource.query(`UPDATE monitors SET status = 'up' WHERE id = $1`, [row.id]);
    return row.id;
  }
  const result = (monitorId: number, ok: boolean): ResultInput => ({
    monitorId,
    ok,
    statusCode: ok ? 200 : null,
    responseTime: ok ? 12 : null,
    error: ok ? null : 'Connection refused',
    checkedAt: new Date(),
    rhythmNext: null,
  });
  const uptimeOf = async (id: number) => (await sut.uptime24h([id])).get(id);

  it('counts the time a group spends down against its uptime, one observation per batch', async () => {
    const group = await insert({ name: 'edge', type: 'group', settings: { groupRule: 'any' }, url: 'group://members' });
    const [web, api] = [await insert({ parentId: group }), await insert({ parentId: group })];
    // Up for two batches, then one member fails for three batches (the group is down), then it recovers.
    await sut.recordResults([result(web, true), result(api, true)]);
    await sut.recordResults([result(web, true)]);
    for (let i = 0; i < 3; i++) await sut.recordResults([result(web, false), result(api, true)]);
    await sut.recordResults([result(web, true)]);

    expect((await sut.findById(group))!.status).toBe('up');
    expect(await uptimeOf(group)).toEqual({ up: 3, checks: 6 });
  });

  it('observes a nested group and its outer group from one member check, and skips a paused group', async () => {
    const outer = await insert({ name: 'outer', type: 'group', settings: { groupRule: 'any' }, url: 'group://members' });
    const inner = await insert({ name: 'inner', type: 'group', settings: { groupRule: 'any' }, url: 'group://members', parentId: outer });
    const paused = await insert({ name: 'paused', type: 'group', settings: { groupRule: 'any' }, url: 'group://members' });
    await database.dataSource.query(`UPDATE monitors SET active = false WHERE id = $1`, [paused]);
    const leaf = await insert({ parentId: inner });
    const lone = await insert({ parentId: paused });

    await sut.recordResults([result(leaf, false), result(lone, false)]);

    expect(await uptimeOf(inner)).toEqual({ up: 0, checks: 1 });
    expect(await uptimeOf(outer)).toEqual({ up: 0, checks: 1 });
    expect(await uptimeOf(paused)).toBeUndefined();
  });
});
