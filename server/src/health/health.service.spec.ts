import { Logger } from '@nestjs/common';
import type { DatabaseWrites } from './database-writes';
import type { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

type Step = 'up' | 'down' | 'full';

describe('HealthService', () => {
  let step: Step;
  let sut: HealthService;
  let lines: string[];

  beforeEach(() => {
    step = 'up';
    lines = [];
    const database = {
      ping: () => (step === 'down' ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve()),
      writeProbe: () => Promise.resolve(),
    } as unknown as HealthRepository;
    const writes = { failing: () => step === 'full', sinceLastOutcome: () => 0 } as unknown as DatabaseWrites;
    sut = new HealthService(database, writes);
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void lines.push(`${level}: ${String(args[0])}`));
    }
  });
  afterEach(() => jest.restoreAllMocks());

  /** Polls health once per step, as a load balancer does every second; answers the statuses. */
  async function poll(steps: Step[]): Promise<number[]> {
    const statuses: number[] = [];
    for (const next of steps) {
      step = next;
      statuses.push(
        await sut.check().then(
          () => 200,
          (error: { getStatus(): number }) => error.getStatus(),
        ),
      );
    }
    return statuses;
  }

  it('says nothing while the database is healthy', async () => {
    expect(await poll(['up', 'up', 'up'])).toEqual([200, 200, 200]);
    expect(lines).toEqual([]);
  });

  it.each<[string, Step[], string[]]>([
    [
      'a full disk for a minute of polls, then space again',
      [...Array<Step>(60).fill('full'), 'up', 'up'],
      [
        'warn: Database is refusing writes (disk full or read-only): /api/health answers 503 until that changes',
        'log: Database answers and accepts writes again: /api/health answers 200',
      ],
    ],
    [
      'a database that stops answering',
      ['up', 'down', 'down', 'down', 'up'],
      [
        'warn: Database is not reachable: /api/health answers 503 until that changes',
        'log: Database answers and accepts writes again: /api/health answers 200',
      ],
    ],
    [
      'a full disk whose database then stops answering',
      ['full', 'full', 'down', 'down', 'full', 'up'],
      [
        'warn: Database is refusing writes (disk full or read-only): /api/health answers 503 until that changes',
        'warn: Database is not reachable: /api/health answers 503 until that changes',
        'warn: Database is refusing writes (disk full or read-only): /api/health answers 503 until that changes',
        'log: Database answers and accepts writes again: /api/health answers 200',
      ],
    ],
  ])('logs %s once per change of state, never per poll', async (_case, steps, expected) => {
    const statuses = await poll(steps);
    expect(statuses).toEqual(steps.map((state) => (state === 'up' ? 200 : 503)));
    expect(lines).toEqual(expected);
  });
});
