import { JobClaims } from '../../src/database/job-claims';
import { JobClaimsRepository } from '../../src/database/job-claims.repository';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

describe(JobClaims.name, () => {
  let database: MediumDatabase;
  beforeAll(async () => (database = await mediumDatabase()));
  afterAll(() => database.close());

  it('lets one of several instances asking at once run a job per period, and the next period another', async () => {
    const instances = await Promise.all([1, 2, 3].map(() => newMediumService(JobClaims, database, { real: [JobClaimsRepository] })));
    const periodMs = 60_000;
    const runs: number[] = [];
    const round = () => Promise.all(instances.map(({ sut }, i) => sut.run('prune.test', periodMs, async () => void runs.push(i))));

    await round();
    expect(runs).toHaveLength(1);
    await round();
    expect(runs).toHaveLength(1);
    // The period passes.
    await database.dataSource.query(`UPDATE settings SET updated_at = updated_at - interval '1 minute' WHERE key = 'job:prune.test'`);
    await round();
    expect(runs).toHaveLength(2);
    for (const { close } of instances) await close();
  });

  it('claims each job on its own', async () => {
    const { sut, close } = await newMediumService(JobClaims, database, { real: [JobClaimsRepository] });
    expect(await sut.claim('prune.checks', 60_000)).toBe(true);
    expect(await sut.claim('prune.agent-metrics', 60_000)).toBe(true);
    expect(await sut.claim('prune.checks', 60_000)).toBe(false);
    await close();
  });
});
