import { Limiter } from '../common/limits/limiter';
import type { CheckResultsWriter } from './check-results.writer';
import type { CheckScheduler } from './check-scheduler.service';
import { monitorRow } from './monitor-fixtures.testing';
import type { MonitorRow } from './monitor.types';
import type { MonitorsRepository, RecordedResult, ResultInput } from './monitors.repository';
import { PUSH_MISSES_PER_ADDRESS, PUSHES_PER_TOKEN, PushService } from './push.service';

const TOKEN = 'tok_0123456789abcdef0123456789';

function setup(initial: MonitorRow | null) {
  const store = { row: initial };
  const lookups: string[] = [];
  const recorded: ResultInput[] = [];
  const monitors = {
    findByPushToken: async (token: string) => {
      lookups.push(token);
      return store.row && store.row.push_token === token ? store.row : null;
    },
  };
  const writer = {
    record: async (input: ResultInput) => {
      recorded.push(input);
      // The writer answers null for a monitor that is gone.
      return store.row ? ({ input } as unknown as RecordedResult) : null;
    },
  };
  const told: Array<[number, Date]> = [];
  const scheduler = { pushed: (monitorId: number, at: Date) => told.push([monitorId, at]) };
  const sut = new PushService(
    monitors as unknown as MonitorsRepository,
    writer as unknown as CheckResultsWriter,
    scheduler as unknown as CheckScheduler,
    new Limiter(),
  );
  return { sut, store, lookups, recorded, told };
}

const pushMonitor = (overrides: Partial<MonitorRow> = {}) =>
  monitorRow({ id: 9, type: 'push', url: 'push', push_token: TOKEN, push_awaited_since: new Date(), ...overrides });

describe(PushService.name, () => {
  it('looks a token up once and records each push as a check of its monitor', async () => {
    const env = setup(pushMonitor());
    await env.sut.push(TOKEN, {}, '10.0.0.1');
    await env.sut.push(TOKEN, { status: 'down', msg: 'disk full' }, '10.0.0.1');
    expect(env.lookups).toHaveLength(1);
    expect(env.recorded.map(({ monitorId, ok, error, pushed }) => ({ monitorId, ok, error, pushed }))).toEqual([
      { monitorId: 9, ok: true, error: null, pushed: true },
      { monitorId: 9, ok: false, error: 'disk full', pushed: true },
    ]);
    // The scheduler hears of each stored push, dated as stored.
    expect(env.told).toEqual(env.recorded.map((input) => [9, input.checkedAt]));
  });

  it('reads the monitor again after a change on any instance: a pause answers 404 at the next push', async () => {
    const env = setup(pushMonitor());
    await env.sut.push(TOKEN, {}, '10.0.0.1');
    env.store.row = pushMonitor({ active: false });
    env.sut.changed({ monitor: { id: 9 } as never });
    await expect(env.sut.push(TOKEN, {}, '10.0.0.1')).rejects.toMatchObject({ status: 404 });
    expect(env.lookups).toHaveLength(2);
    expect(env.recorded).toHaveLength(1);
  });

  it('forgets the old token when it changes, so only the new one records', async () => {
    const env = setup(pushMonitor());
    await env.sut.push(TOKEN, {}, '10.0.0.1');
    env.store.row = pushMonitor({ push_token: `${TOKEN}x` });
    env.sut.changed({ monitor: { id: 9 } as never });
    await expect(env.sut.push(TOKEN, {}, '10.0.0.1')).rejects.toMatchObject({ status: 404 });
    await env.sut.push(`${TOKEN}x`, {}, '10.0.0.1');
    expect(env.recorded).toHaveLength(2);
  });

  it('answers 404 and forgets the monitor when the writer finds it gone (deleted without an event)', async () => {
    const env = setup(pushMonitor());
    await env.sut.push(TOKEN, {}, '10.0.0.1');
    env.store.row = null;
    await expect(env.sut.push(TOKEN, {}, '10.0.0.1')).rejects.toMatchObject({ status: 404 });
    await expect(env.sut.push(TOKEN, {}, '10.0.0.1')).rejects.toMatchObject({ status: 404 });
    // The second push looked the token up again and found nothing: nothing more was handed to the writer.
    expect(env.lookups).toHaveLength(2);
    expect(env.recorded).toHaveLength(2);
  });

  it('looks a known token up again after five minutes without a change event', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const env = setup(pushMonitor());
      await env.sut.push(TOKEN, {}, '10.0.0.1');
      jest.setSystemTime(1_000_000 + 4 * 60_000);
      await env.sut.push(TOKEN, {}, '10.0.0.1');
      expect(env.lookups).toHaveLength(1);
      jest.setSystemTime(1_000_000 + 6 * 60_000);
      await env.sut.push(TOKEN, {}, '10.0.0.1');
      expect(env.lookups).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses an address guessing tokens with 429 before any lookup, and pushes to one token beyond its rate', async () => {
    const env = setup(pushMonitor());
    for (let i = 0; i < PUSH_MISSES_PER_ADDRESS.burst; i += 1) {
      await expect(env.sut.push(`guess-${i}`, {}, '10.0.0.1')).rejects.toMatchObject({ status: 404 });
    }
    const lookups = env.lookups.length;
    await expect(env.sut.push(TOKEN, {}, '10.0.0.1')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 1 });
    expect(env.lookups).toHaveLength(lookups);
    for (let i = 0; i < PUSHES_PER_TOKEN.burst; i += 1) await env.sut.push(TOKEN, {}, '10.0.0.2');
    await expect(env.sut.push(TOKEN, {}, '10.0.0.3')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 2 });
    expect(env.recorded).toHaveLength(PUSHES_PER_TOKEN.burst);
  });
});
