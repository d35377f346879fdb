import { createFields } from '../../src/monitors/monitor-fields';
import type { CreateMonitorDto } from '../../src/monitors/monitors.dto';
import { MonitorsRepository } from '../../src/monitors/monitors.repository';
import { mediumDatabase, MediumDatabase, newMediumService, undoThrough } from './medium';

const MIGRATION = 'MonitorSettings1765600000000';

/**
 * Issue 33's storage: the added types keep their settings in one JSON object and the type list left the database;
 * the migration's down path takes the added types' monitors away and leaves the first types' as they were.
 */
describe('monitor settings', () => {
  let database: MediumDatabase;
  let repository: MonitorsRepository;

  beforeAll(async () => {
    database = await mediumDatabase();
    repository = (await newMediumService(MonitorsRepository, database)).sut;
  });
  afterAll(() => database.close());

  const create = (body: Partial<CreateMonitorDto>) => repository.insert(createFields({ name: 'm', ...body } as CreateMonitorDto), null);

  it('stores an added type with its settings and a first type with its own', async () => {
    const manual = await create({ type: 'manual' });
    const http = await create({ type: 'http', url: 'https://example.com/' });
    expect(await repository.findById(manual.id)).toMatchObject({ type: 'manual', settings: {}, url: 'manual://' });
    await database.dataSource.query(`UPDATE monitors SET settings = '{"topic":"a/b"}' WHERE id = $1`, [manual.id]);
    expect((await repository.findById(manual.id))?.settings).toEqual({ topic: 'a/b' });
    expect((await repository.findById(http.id))?.settings).toEqual({ ignoreTls: false, maxRedirects: 5 });
  });

  it('refuses settings that are not an object and a type name of the wrong shape', async () => {
    const { id } = await create({ type: 'manual' });
    await expect(database.dataSource.query(`UPDATE monitors SET settings = '[1]' WHERE id = $1`, [id])).rejects.toThrow(/check/i);
    await expect(database.dataSource.query(`UPDATE monitors SET type = 'Bad Type' WHERE id = $1`, [id])).rejects.toThrow(/check/i);
  });

  it('goes down removing the added types’ monitors and the column, keeping the first types’, and up again', async () => {
    const { dataSource } = database;
    const manual = await create({ type: 'manual' });
    const tcp = await create({ type: 'tcp', hostname: 'db.internal', port: 5432 });
    await undoThrough(dataSource, MIGRATION);
    try {
      const rows = await dataSource.query(`SELECT id, type FROM monitors WHERE id = ANY($1::int[]) ORDER BY id`, [[manual.id, tcp.id]]);
      expect(rows).toEqual([{ id: tcp.id, type: 'tcp' }]);
      const columns = await dataSource.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'monitors' AND column_name = 'settings'`,
      );
      expect(columns).toEqual([]);
      await expect(dataSource.query(`UPDATE monitors SET type = 'manual' WHERE id = $1`, [tcp.id])).rejects.toThrow(/check/i);
    } finally {
      await dataSource.runMigrations({ transaction: 'each' });
    }
    expect(await repository.findById(tcp.id)).toMatchObject({ type: 'tcp', hostname: 'db.internal', port: 5432, settings: {} });
  });
});
