import { DomainEvents } from '../../src/events/domain-events.service';
import { CheckResultsWriter } from '../../src/monitors/check-results.writer';
import { httpMonitorFields } from '../../src/monitors/monitor-fixtures.testing';
import { MonitorsRepository, ResultInput } from '../../src/monitors/monitors.repository';
import { mediumDatabase, MediumDatabase, newMediumService, undoThrough } from './medium';

const MIGRATION = 'CheckWrites1765720000000';
const HOUR = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (minutes: number) => new Date(HOUR + minutes * 60_000);

/**
 * Issue 34's leaner check writes: the hour's aggregate is added to in place, raw checks are pruned per monitor
 * without an index on the time alone, and the migration that dropped that index puts it back on its way down.
 */
describe('check storage', () => {
  let database: MediumDatabase;
  let writer: CheckResultsWriter;
  let repository: MonitorsRepository;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const medium = await newMediumService(CheckResultsWriter, database, { real: [MonitorsRepository, DomainEvents] });
    writer = medium.sut;
    repository = medium.get(MonitorsRepository);
    close = medium.close;
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  const monitor = async () => (await repository.insert(httpMonitorFields({ retries: 0 }), at(0))).id;

  function result(monitorId: number, minutes: number, ok = true): ResultInput {
    return {
      monitorId,
      ok,
      statusCode: ok ? 200 : null,
      responseTime: ok ? 10 + minutes : null,
      error: ok ? null : 'Connection refused',
      checkedAt: at(minutes),
      rhythmNext: at(minutes + 1),
    };
  }

  const hourly = async (id: number) =>
    (
      await database.dataSource.query(
        `SELECT extract(epoch FROM hour)::bigint * 1000 AS hour, checks, up, response_sum::int AS sum, response_count AS count, response_max AS max
         FROM monitor_hourly WHERE monitor_id = $1 ORDER BY hour`,
        [id],
      )
    ).map((row: Record<string, string | number>) => ({ ...row, hour: Number(row.hour) }));

  it('adds each batch to the hour it falls in, whether the hour has a row yet or not', async () => {
    const [a, b] = [await monitor(), await monitor()];
    await Promise.all([writer.record(result(a, 1)), writer.record(result(a, 2, false))]);
    // One batch: a's hour has a row now, b's has none, and a's next check opens the next hour.
    await Promise.all([writer.record(result(a, 3)), writer.record(result(b, 3)), writer.record(result(a, 61))]);
    expect(await hourly(a)).toEqual([
      { hour: HOUR, checks: 3, up: 2, sum: 11 + 13, count: 2, max: 13 },
      { hour: HOUR + 3_600_000, checks: 1, up: 1, sum: 71, count: 1, max: 71 },
    ]);
    expect(await hourly(b)).toEqual([{ hour: HOUR, checks: 1, up: 1, sum: 13, count: 1, max: 13 }]);
  });

  it('prunes every monitor’s raw checks past the retention, in chunks, and keeps the newer ones', async () => {
    const ids = [await monitor(), await monitor(), await monitor()];
    await database.dataSource.query(
      `INSERT INTO monitor_checks (monitor_id, status, checked_at)
       SELECT m, 'up', $2::timestamptz + k * interval '1 minute' FROM unnest($1::int[]) m, generate_series(0, 9) k`,
      [ids, at(-600)],
    );
    // Minutes −600 … −591 for each monitor: the first six of each are past a cutoff at −594.
    const { checks } = await repository.prune(at(-594), at(-24 * 60 * 400), 4);
    expect(checks).toBe(18);
    const left = await database.dataSource.query(
      `SELECT monitor_id, count(*)::int AS n, min(checked_at) AS oldest FROM monitor_checks
       WHERE monitor_id = ANY($1::int[]) GROUP BY monitor_id ORDER BY monitor_id`,
      [ids],
    );
    expect(left).toEqual(ids.map((id) => ({ monitor_id: id, n: 4, oldest: at(-594) })));
  });

  it('puts the index on checked_at back on the way down and drops it again on the way up', async () => {
    const index = async () =>
      (await database.dataSource.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'monitor_checks_time'`)).map(
        (row: { indexdef: string }) => row.indexdef,
      );
    expect(await index()).toEqual([]);
    await undoThrough(database.dataSource, MIGRATION);
    expect(await index()).toEqual(['CREATE INDEX monitor_checks_time ON public.monitor_checks USING btree (checked_at)']);
    await database.dataSource.runMigrations({ transaction: 'each' });
    expect(await index()).toEqual([]);
  });
});
