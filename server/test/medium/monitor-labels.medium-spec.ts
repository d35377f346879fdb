import { createFields } from '../../src/monitors/monitor-fields';
import type { CreateMonitorDto } from '../../src/monitors/monitors.dto';
import { MonitorsRepository } from '../../src/monitors/monitors.repository';
import { mediumDatabase, MediumDatabase, newMediumService, undoThrough } from './medium';

const MIGRATION = 'MonitorLabels1765770000000';

/**
 * Issue 34: monitors' tags filter the list in SQL through the GIN index monitors_tags (`tags @>`), so the filter and
 * its count stay index scans at 10,000 monitors; the migration's down path takes the three columns away.
 */
describe('monitor labels', () => {
  let database: MediumDatabase;
  let repository: MonitorsRepository;

  beforeAll(async () => {
    database = await mediumDatabase();
    repository = (await newMediumService(MonitorsRepository, database)).sut;
  });
  afterAll(() => database.close());

  it('finds the monitors carrying a tag among 10,000 through the GIN index', async () => {
    const { dataSource } = database;
    const template = await repository.insert(
      createFields({ name: 'template', url: 'https://example.com/', tags: ['env:prod'] } as CreateMonitorDto),
      null,
    );
    const columns = (
      await dataSource.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_name = 'monitors' AND column_name NOT IN ('id', 'key', 'name', 'tags') AND is_generated = 'NEVER'`,
      )
    ).map((row: { column_name: string }) => `"${row.column_name}"`);
    // Every 100th monitor is tagged `rare`; every one `env:prod` or `env:test`.
    await dataSource.query(
      `INSERT INTO monitors (name, tags, ${columns.join(', ')})
       SELECT 'bulk-' || g, CASE WHEN g % 100 = 0 THEN ARRAY['rare', 'env:prod'] WHEN g % 2 = 0 THEN ARRAY['env:prod'] ELSE ARRAY['env:test'] END,
              ${columns.map((column: string) => `m.${column}`).join(', ')}
       FROM monitors m, generate_series(1, 9999) g WHERE m.id = $1`,
      [template.id],
    );
    await dataSource.query('ANALYZE monitors');

    const rare = await repository.list({ offset: 0, limit: 50, filter: 'all', tag: 'rare' });
    expect(rare.total).toBe(99);
    expect(rare.rows).toHaveLength(50);
    expect(rare.rows.every((row) => row.tags.includes('rare'))).toBe(true);
    expect((await repository.list({ offset: 0, limit: 1, filter: 'all', tag: 'env:prod' })).total).toBe(5000);

    const [{ 'QUERY PLAN': plan }] = await dataSource.query(
      `EXPLAIN (FORMAT JSON) SELECT count(*)::int AS total FROM monitors WHERE tags @> $1::text[]`,
      [['rare']],
    );
    expect(JSON.stringify(plan)).toContain('"Index Name":"monitors_tags"');
  }, 60_000);

  it('takes the columns and the index away on the way down, and puts them back', async () => {
    const { dataSource } = database;
    await undoThrough(dataSource, MIGRATION);
    try {
      const left = await dataSource.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_name = 'monitors' AND column_name IN ('description', 'tags', 'upside_down')`,
      );
      expect(left).toEqual([]);
      expect(await dataSource.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'monitors_tags'`)).toEqual([]);
    } finally {
      await dataSource.runMigrations({ transaction: 'each' });
    }
    const row = await repository.insert(
      createFields({ name: 'after', url: 'https://example.com/', upsideDown: true } as CreateMonitorDto),
      null,
    );
    expect(row).toMatchObject({ description: null, tags: [], upside_down: true });
  });
});
