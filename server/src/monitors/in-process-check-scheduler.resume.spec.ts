import type { MonitorStatus } from '@vigil/proto';
import type { AppConfig } from '../config/config';
import type { CheckResultsWriter } from './check-results.writer';
import type { CheckPipeline } from './check-pipeline';
import type { ProbeResult } from './checkers/checker';
import { HTTP_TARGET_EXTRAS, monitorRow } from './monitor-fixtures.testing';
import { InProcessCheckScheduler } from './in-process-check-scheduler.service';
import { applyResult, stateOf, withState } from './monitor-state';
import type { MonitorRow, ScheduledMonitor } from './monitor.types';
import type { MonitorsRepository, RecordedResult, ResultInput } from './monitors.repository';

/** The restart: the scheduler starts here, from the rows the killed process left. */
const RESTART = Date.UTC(2026, 0, 1, 12, 0, 0);
const INTERVAL_S = 60;
const S = 1000;

/** Stores results on one in-memory row through the real state machine, as the writer does. */
class MemoryWriter {
  readonly inputs: ResultInput[] = [];
  readonly room = Number.POSITIVE_INFINITY;

  constructor(public row: MonitorRow) {}

  async record(input: ResultInput): Promise<RecordedResult | null> {
    this.inputs.push(input);
    const decision = applyResult(stateOf(this.row), { ...input, slotAt: input.slotAt ?? null });
    if (decision.kind === 'drop') return null;
    const previous = this.row.status;
    if (decision.kind === 'apply') this.row = withState(this.row, decision.next);
    return {
      input,
      received: input,
      previous,
      check: decision.check,
      cause: null,
      wasFlapping: false,
      monitor: this.row,
      checkId: this.inputs.length,
    };
  }
}

interface LastCheck {
  status: MonitorStatus;
  /** Relative to the restart, in seconds; null: never checked. */
  lastChecked: number | null;
  nextCheckAt: number | null;
}

/**
 * Starts a scheduler on a monitor row as a kill -9 left it (no shutdown hook ran, so what the row says is all the new
 * process knows) and answers when its next checks start, in seconds after the restart.
 */
async function checksAfterRestart(last: LastCheck, within: number): Promise<number[]> {
  jest.useFakeTimers({ now: RESTART });
  const at = (seconds: number | null) => (seconds === null ? null : new Date(RESTART + seconds * S));
  const writer = new MemoryWriter(
    monitorRow({
      id: 7,
      status: last.status,
      consecutive_failures: last.status === 'up' ? 0 : 1,
      retries: 2,
      retry_interval_s: 20,
      interval_s: INTERVAL_S,
      last_checked: at(last.lastChecked),
      next_check_at: at(last.nextCheckAt),
    }),
  );
  const monitor: ScheduledMonitor = {
    ...HTTP_TARGET_EXTRAS,
    id: 7,
    url: writer.row.url,
    method: 'GET',
    headers: {},
    body: null,
    timeout: 10,
    expectedStatus: 200,
    interval: INTERVAL_S,
    retryInterval: 20,
    nextCheckAt: writer.row.next_check_at,
    status: last.status,
  };
  const started: number[] = [];
  const checker = {
    isBatched: () => false,
    originOf: () => null,
    check: async (): Promise<Omit<ProbeResult, 'observed'>> => {
      started.push((Date.now() - RESTART) / S);
      return { ok: last.status !== 'pending', statusCode: 200, responseTime: 1, error: null, checkedAt: new Date() };
    },
  };
  const sut = new InProcessCheckScheduler(
    { loadActive: async () => [monitor] } as unknown as MonitorsRepository,
    checker as unknown as CheckPipeline,
    writer as unknown as CheckResultsWriter,
    { monitors: { checkConcurrency: 16, connectionsPerOrigin: 32 } } as AppConfig,
  );
  try {
    await sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(within * S);
    return started;
  } finally {
    await sut.onModuleDestroy();
    jest.useRealTimers();
  }
}

describe('InProcessCheckScheduler after a restart (issue 27: after a kill -9, one monitor of 50 waited 120 s)', () => {
  /** The grid below is a 60 s rhythm; the scheduler's 50 ms tick makes a start up to a tick late. */
  const ticks = (seconds: number[]) => seconds.map((second) => Math.floor(second * 10) / 10);

  it.each<[string, LastCheck, number[]]>([
    [
      'checked 30 s before the kill: its next slot is still ahead, so it waits for it',
      { status: 'up', lastChecked: -33, nextCheckAt: 27 },
      [27, 87],
    ],
    [
      'its check was in flight at the kill (due 5 s before the restart, never stored): checked at once, then on its rhythm',
      { status: 'up', lastChecked: -65, nextCheckAt: -5 },
      [0, 55],
    ],
    [
      'its slot fell in the 20 s the server was down: checked at once, then on its rhythm',
      { status: 'up', lastChecked: -72, nextCheckAt: -12 },
      [0, 48],
    ],
    [
      'a down monitor whose slot passed 50 s before the restart: checked at once, then on its rhythm',
      { status: 'down', lastChecked: -110, nextCheckAt: -50 },
      [0, 10, 70],
    ],
    [
      'a pending monitor whose retry was due during the outage: retried at once, then as its retries say',
      { status: 'pending', lastChecked: -22, nextCheckAt: -2 },
      [0, 20, 58],
    ],
    [
      'down for ten minutes (its slot missed by more than an interval): the next slot on its rhythm, not a burst at start',
      { status: 'up', lastChecked: -590, nextCheckAt: -530 },
      [10, 70],
    ],
  ])('%s', async (_case, last, expected) => {
    expect(ticks(await checksAfterRestart(last, 100))).toEqual(expected);
  });

  it('gives a monitor never checked a spread slot within its first interval, then its interval', async () => {
    const [first, second] = await checksAfterRestart({ status: 'up', lastChecked: null, nextCheckAt: null }, 130);
    expect(first).toBeLessThan(INTERVAL_S);
    expect(second - first).toBeCloseTo(INTERVAL_S, 0);
  });
});
