import { DomainEvents } from '../../src/events/domain-events.service';
import type { EventMap } from '../../src/events/event-map';
import { MonitorFields, MonitorsRepository, ResultInput } from '../../src/monitors/monitors.repository';
import { httpMonitorFields } from '../../src/monitors/monitor-fixtures.testing';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const FIELDS: MonitorFields = httpMonitorFields({ name: 'member' });

/**
 * Group statuses derived in the writer's transaction, on PostgreSQL: members' results stored by concurrent batches
 * (as several instances would) end on the one verdict, and each group transition is raised once, inside the write.
 */
describe('group derivation', () => {
  let database: MediumDatabase;
  let repository: MonitorsRepository;
  let transitions: Array<EventMap['monitor.status_changed']>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const medium = await newMediumService(MonitorsRepository, database, { real: [MonitorsRepository, DomainEvents] });
    repository = medium.sut;
    medium.get(DomainEvents).on('monitor.status_changed', { phase: 'transaction', everyInstance: false }, (payload) => {
      transitions.push(...(payload as Array<EventMap['monitor.status_changed']>));
    });
    close = medium.close;
  });
  afterAll(async () => {
    await close();
    await database.close();
  });
  beforeEach(() => (transitions = []));

  async function insert(patch: Partial<MonitorFields>): Promise<number> {
    const row = await repository.insert({ ...FIELDS, ...patch }, null);
    await database.dataSource.query(`UPDATE monitors SET status = 'up' WHERE id = $1`, [row.id]);
    return row.id;
  }
  const failure = (monitorId: number): ResultInput => ({
    monitorId,
    ok: false,
    statusCode: null,
    responseTime: null,
    error: 'Connection refused',
    checkedAt: new Date(),
    rhythmNext: null,
  });
  const statusOf = async (id: number) => (await repository.findById(id))!.status;

  it('ends down when every member of an `all` group fails in concurrent batches, raising it once', async () => {
    const group = await insert({ name: 'all', type: 'group', settings: { groupRule: 'all' }, url: 'group://members' });
    const members = await Promise.all([1, 2, 3, 4].map(() => insert({ parentId: group })));
    await Promise.all(members.map((id) => repository.recordResults([failure(id)])));
    expect(await statusOf(group)).toBe('down');
    const moves = transitions.filter((t) => t.monitor.id === group).map((t) => `${t.previous}→${t.status}`);
    expect(moves).toEqual(['up→degraded', 'degraded→down']);
  });

  it('carries a failure up through nested groups in the same transaction', async () => {
    const outer = await insert({ name: 'outer', type: 'group', settings: { groupRule: 'any' }, url: 'group://members' });
    const inner = await insert({ name: 'inner', type: 'group', settings: { groupRule: 'any' }, url: 'group://members', parentId: outer });
    const leaf = await insert({ parentId: inner });
    await repository.recordResults([failure(leaf)]);
    expect([await statusOf(inner), await statusOf(outer)]).toEqual(['down', 'down']);
    expect(transitions.map((t) => t.monitor.id)).toEqual([leaf, inner, outer]);
  });
});
