import type { AppConfig } from '../config/config';
import type { CheckResultsWriter } from './check-results.writer';
import { CheckPipeline } from './check-pipeline';
import type { ProbeResult } from './checkers/checker';
import { HTTP_TARGET_EXTRAS } from './monitor-fixtures.testing';
import { InProcessCheckScheduler } from './in-process-check-scheduler.service';
import type { ScheduledMonitor } from './monitor.types';
import type { MonitorsRepository, RecordedResult } from './monitors.repository';

type CheckResult = Omit<ProbeResult, 'observed'>;

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const monitor = (id: number): ScheduledMonitor => ({
  ...HTTP_TARGET_EXTRAS,
  id,
  url: `http://127.0.0.1:1/${id}`,
  method: 'GET',
  headers: {},
  body: null,
  timeout: 5,
  expectedStatus: 200,
  interval: 60,
  retryInterval: 20,
  nextCheckAt: null,
  status: 'up',
});

const up = (): CheckResult => ({ ok: true, statusCode: 200, responseTime: 1, error: null, checkedAt: new Date() });

function setup({ concurrency = 256, room = 5000, perOrigin = 32 } = {}) {
  /** Set when the test ends: whatever runs on settles at once. */
  let ending = false;
  const checks: Array<{ id: number; done: ReturnType<typeof deferred<CheckResult>> }> = [];
  const writes: Array<{
    id: number;
    input: { ok: boolean; error: string | null; checkedAt: Date };
    done: ReturnType<typeof deferred<RecordedResult | null>>;
  }> = [];
  const checker = {
    isBatched: (type: string) => type === 'ping',
    originOf: (target: ScheduledMonitor) => (target.type === 'http' ? new URL(target.url).host : null),
    waitedOut: CheckPipeline.prototype.waitedOut,
    check: (target: ScheduledMonitor) => {
      const done = deferred<CheckResult>();
      checks.push({ id: target.id, done });
      if (ending) done.resolve(up());
      return done.promise;
    },
  };
  const writer = {
    room,
    record: (input: { monitorId: number; ok: boolean; error: string | null; checkedAt: Date }) => {
      const done = deferred<RecordedResult | null>();
      writes.push({ id: input.monitorId, input, done });
      if (ending) done.resolve(null);
      return done.promise;
    },
  };
  const sut = new InProcessCheckScheduler(
    { loadActive: async () => [] } as unknown as MonitorsRepository,
    checker as unknown as CheckPipeline,
    writer as unknown as CheckResultsWriter,
    { monitors: { checkConcurrency: concurrency, connectionsPerOrigin: perOrigin } } as AppConfig,
  );
  const end = async () => {
    ending = true;
    for (const write of writes) write.done.resolve(null);
    for (const check of checks) check.done.resolve(up());
    await sut.onModuleDestroy();
  };
  return { sut, checks, writes, writer, end };
}

describe('InProcessCheckScheduler', () => {
  let stop: (() => Promise<void>) | null = null;

  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(async () => {
    jest.useRealTimers();
    await stop?.();
    stop = null;
  });

  async function start(env: ReturnType<typeof setup>, ...monitors: ScheduledMonitor[]) {
    await env.sut.onApplicationBootstrap();
    stop = env.end;
    for (const m of monitors) await env.sut.schedule(m, { checkNow: true });
  }

  it('frees a check’s slot when its network work ends, before its result is written', async () => {
    const env = setup({ concurrency: 1 });
    await start(env, monitor(1), monitor(2));
    await jest.advanceTimersByTimeAsync(50);
    expect(env.checks.map((c) => c.id)).toEqual([1]);

    env.checks[0].done.resolve(up());
    await jest.advanceTimersByTimeAsync(50);
    // Monitor 1's result waits for its batch; monitor 2 already has the slot.
    expect(env.writes.map((w) => w.id)).toEqual([1]);
    expect(env.checks.map((c) => c.id)).toEqual([1, 2]);
    expect(env.sut.getStats().inFlight).toBe(1);
  });

  it('runs other types beside a burst of ping checks that wait for their echo replies', async () => {
    const env = setup({ concurrency: 2 });
    const ping = (id: number) => ({ ...monitor(id), type: 'ping', hostname: '127.0.0.1', packetCount: 3 }) as unknown as ScheduledMonitor;
    await start(env, ...Array.from({ length: 10 }, (_, i) => ping(i + 1)), monitor(11), monitor(12), monitor(13));
    await jest.advanceTimersByTimeAsync(50);
    // Every ping check and two HTTP ones (the network slots) are under way; the third HTTP check waits for a slot.
    const started = env.checks.map((c) => c.id);
    expect(started.filter((id) => id <= 10)).toHaveLength(10);
    expect(started.filter((id) => id > 10)).toHaveLength(2);
    expect(env.sut.getStats().inFlight).toBe(12);
    const waiting = [11, 12, 13].find((id) => !started.includes(id))!;
    env.checks.find((c) => c.id > 10)!.done.resolve(up());
    await jest.advanceTimersByTimeAsync(50);
    expect(env.checks.map((c) => c.id)).toContain(waiting);
  });

  it.each([
    [60, 10_000],
    [75, 5000],
    [61, 1000],
  ])('runs ping checks at %s s on a grain of %s ms, so those due together share one fping process', async (interval, grain) => {
    const env = setup();
    await start(env);
    const ping = { ...monitor(5), interval, type: 'ping', hostname: '127.0.0.1', packetCount: 3 } as unknown as ScheduledMonitor;
    // A rhythm stored off the grain (before the monitor became a ping monitor) moves to the next grain.
    const now = Date.now();
    await env.sut.schedule({ ...ping, nextCheckAt: new Date(now + 1234) });
    const due = Math.ceil((now + 1234) / grain) * grain - now;
    expect(due).toBe(grain === 1000 ? 2000 : grain);
    await jest.advanceTimersByTimeAsync(due - 50);
    expect(env.checks).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(100);
    expect(env.checks.map((c) => c.id)).toEqual([5]);
  });

  it('starts no second check of a monitor until the result of the first is written', async () => {
    const env = setup();
    await start(env, monitor(1));
    await jest.advanceTimersByTimeAsync(50);
    env.checks[0].done.resolve(up());
    // Edited while its result waits for the write: due at once, but it waits for that write.
    await env.sut.schedule(monitor(1), { checkNow: true });
    await jest.advanceTimersByTimeAsync(3000);
    expect(env.checks).toHaveLength(1);

    env.writes[0].done.resolve(null);
    await jest.advanceTimersByTimeAsync(1050);
    expect(env.checks.map((c) => c.id)).toEqual([1, 1]);
  });

  it('holds starts back while the write queue has no room, and counts the time', async () => {
    const env = setup({ room: 0 });
    await start(env, monitor(1));
    await jest.advanceTimersByTimeAsync(1000);
    expect(env.checks).toHaveLength(0);
    expect(env.sut.getStats().heldBackMs).toBeGreaterThanOrEqual(900);

    env.writer.room = 1;
    await jest.advanceTimersByTimeAsync(50);
    expect(env.checks).toHaveLength(1);
    const held = env.sut.getStats().heldBackMs;
    await jest.advanceTimersByTimeAsync(1000);
    expect(env.sut.getStats().heldBackMs).toBe(held);
  });

  it('counts a wait for the previous write that outlasts the slot as the next check’s lateness', async () => {
    const env = setup();
    await start(env);
    await env.sut.schedule({ ...monitor(1), nextCheckAt: new Date(Date.now() + 100) });
    await jest.advanceTimersByTimeAsync(150);
    env.checks[0].done.resolve(up());
    // The database is 61 s behind: the result is written a second after the monitor's next slot.
    await jest.advanceTimersByTimeAsync(61_000);
    expect(env.checks).toHaveLength(1);
    env.writes[0].done.resolve({ monitor: { next_check_at: null } } as unknown as RecordedResult);
    await jest.advanceTimersByTimeAsync(50);
    expect(env.checks).toHaveLength(2);
    expect(env.sut.getStats().latenessMaxMs).toBeGreaterThanOrEqual(1000);
  });

  describe('per origin', () => {
    const on = (host: string, id: number) => ({ ...monitor(id), url: `http://${host}/${id}` }) as ScheduledMonitor;
    const stalled = [1, 2, 3, 4].map((id) => on('black.test:81', id));
    const healthy = [5, 6].map((id) => on('ok.test:82', id));

    it('starts other origins’ checks while one origin has its budget in flight, and its others wait holding no slot', async () => {
      const env = setup({ concurrency: 4, perOrigin: 2 });
      await start(env, ...stalled, ...healthy);
      await jest.advanceTimersByTimeAsync(50);
      const started = env.checks.map((c) => c.id);
      expect(started.filter((id) => id <= 4)).toHaveLength(2);
      expect(started.filter((id) => id > 4).sort()).toEqual([5, 6]);
      expect(env.sut.getStats()).toMatchObject({ inFlight: 4, waitingForOrigin: 2 });
    });

    it('gives an origin’s freed place to its check that waited longest', async () => {
      const env = setup({ concurrency: 4, perOrigin: 2 });
      await start(env, ...stalled);
      await jest.advanceTimersByTimeAsync(50);
      const [first] = env.checks;
      first.done.resolve(up());
      await jest.advanceTimersByTimeAsync(100);
      expect(env.checks).toHaveLength(3);
      expect(env.sut.getStats()).toMatchObject({ inFlight: 2, waitingForOrigin: 1 });
    });

    it('records a check that waited its whole timeout for its origin as timed out, without connecting', async () => {
      const env = setup({ concurrency: 4, perOrigin: 2 });
      await start(env, ...stalled);
      await jest.advanceTimersByTimeAsync(50);
      const parkedAt = Date.now() - 50;
      await jest.advanceTimersByTimeAsync(4800);
      expect(env.writes).toHaveLength(0);
      // The monitors' timeout is 5 s after their due time.
      await jest.advanceTimersByTimeAsync(200);
      expect(env.checks).toHaveLength(2);
      expect(env.writes).toHaveLength(2);
      for (const write of env.writes) {
        expect(write.input).toMatchObject({ ok: false, error: 'Timeout after 5 s waiting for black.test:81 (2 checks to it in flight)' });
        expect(write.input.checkedAt.getTime()).toBeLessThanOrEqual(parkedAt + 50);
      }
      expect(env.sut.getStats().waitingForOrigin).toBe(0);
      expect(env.sut.getStats().latenessMaxMs).toBeGreaterThanOrEqual(4900);
    });

    it('waits for a network slot after its origin admits it, ahead of checks due later', async () => {
      const env = setup({ concurrency: 2, perOrigin: 1 });
      await start(env, on('a.test:1', 1), on('a.test:1', 2), on('b.test:1', 3));
      await jest.advanceTimersByTimeAsync(50);
      expect(env.checks.map((c) => c.id)).toContain(3);
      expect(env.checks).toHaveLength(2);
      const first = env.checks.find((c) => c.id !== 3)!;
      const second = 3 - first.id;
      await env.sut.schedule(on('c.test:1', 4), { checkNow: true });
      // The slots are full: 4 waits for one. The first of a.test ends: its origin admits the other, which takes the freed
      // slot ahead of 4 (due later); 4 takes 3's.
      first.done.resolve(up());
      await jest.advanceTimersByTimeAsync(100);
      env.checks.find((c) => c.id === 3)!.done.resolve(up());
      await jest.advanceTimersByTimeAsync(100);
      expect(env.checks.map((c) => c.id).slice(2)).toEqual([second, 4]);
    });
  });
});
