import type { AppConfig } from '../config/config';
import type { CheckResultsWriter } from './check-results.writer';
import type { CheckPipeline } from './check-pipeline';
import type { ProbeResult } from './checkers/checker';
import { HTTP_TARGET_EXTRAS, monitorRow } from './monitor-fixtures.testing';
import { InProcessCheckScheduler } from './in-process-check-scheduler.service';
import { applyResult, stateOf, withState } from './monitor-state';
import type { MonitorRow, ScheduledMonitor } from './monitor.types';
import type { MonitorsRepository, RecordedResult, ResultInput } from './monitors.repository';

type CheckResult = Omit<ProbeResult, 'observed'>;

const START = Date.UTC(2026, 0, 1, 12, 0, 0);

/** A target whose checks fail and end only when the test says so. */
class HeldChecker {
  readonly started: Array<{ at: number; finish: () => void }> = [];

  isBatched(): boolean {
    return false;
  }

  originOf(): string | null {
    return null;
  }

  check(): Promise<CheckResult> {
    const checkedAt = new Date();
    return new Promise((resolve) => {
      this.started.push({
        at: checkedAt.getTime(),
        finish: () => resolve({ ok: false, statusCode: null, responseTime: null, error: 'Connection refused', checkedAt }),
      });
    });
  }
}

/** Stores results on one in-memory row through the real state machine. */
class MemoryWriter {
  readonly inputs: ResultInput[] = [];
  checkId = 0;
  /** The write queue always has room here. */
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
      checkId: ++this.checkId,
    };
  }
}

function row(): MonitorRow {
  return monitorRow({
    id: 7,
    name: 'site',
    url: 'http://127.0.0.1:9/',
    timeout_s: 10,
    expected_status: 2,
    response_time: 5,
    last_checked: new Date(START - 60_000),
    next_check_at: new Date(START + 60_000),
    created_at: new Date(START - 120_000),
  });
}

describe(InProcessCheckScheduler.name, () => {
  let checker: HeldChecker;
  let writer: MemoryWriter;
  let sut: InProcessCheckScheduler;
  let monitor: ScheduledMonitor;

  /** Lets the promise chains of a finished check settle. */
  const settle = () => jest.advanceTimersByTimeAsync(0);

  beforeEach(async () => {
    jest.useFakeTimers({ now: START });
    checker = new HeldChecker();
    writer = new MemoryWriter(row());
    const repository = { loadActive: async () => [] } as unknown as MonitorsRepository;
    const config = { monitors: { checkConcurrency: 16, connectionsPerOrigin: 32 } } as AppConfig;
    sut = new InProcessCheckScheduler(repository, checker as unknown as CheckPipeline, writer as unknown as CheckResultsWriter, config);
    await sut.onApplicationBootstrap();
    monitor = {
      ...HTTP_TARGET_EXTRAS,
      id: 7,
      url: writer.row.url,
      method: 'GET',
      headers: {},
      body: null,
      timeout: 10,
      expectedStatus: 2,
      interval: 60,
      retryInterval: 20,
      nextCheckAt: writer.row.next_check_at,
      status: 'up',
    };
    await sut.schedule(monitor);
  });

  afterEach(async () => {
    for (const check of checker.started) check.finish();
    await sut.onModuleDestroy();
    jest.useRealTimers();
  });

  it('runs a check-now asked during a running check right after it, never beside it; asks meanwhile share it', async () => {
    const first = sut.checkNow(monitor);
    const second = sut.checkNow(monitor);
    const third = sut.checkNow(monitor);
    expect(checker.started).toHaveLength(1);
    checker.started[0].finish();
    expect((await first)?.monitor.status).toBe('pending');
    await settle();
    expect(checker.started).toHaveLength(2);
    checker.started[1].finish();
    const [a, b] = await Promise.all([second, third]);
    expect(b).toBe(a);
    expect(a?.monitor.status).toBe('down');
    expect(writer.inputs).toHaveLength(2);
  });

  it('holds the regular check back while a check-now runs, then runs the retry, not the slot it covered', async () => {
    await jest.advanceTimersByTimeAsync(59_900);
    const manual = sut.checkNow(monitor);
    // The regular slot (60 s) comes while the manual check still runs: it does not start beside it.
    await jest.advanceTimersByTimeAsync(1_000);
    expect(checker.started).toHaveLength(1);
    checker.started[0].finish();
    expect((await manual)?.monitor.status).toBe('pending');
    expect(writer.inputs[0].slotAt).toBeNull();

    // Pending: the next check is the retry 20 s after the failure, a scheduled one carrying its slot.
    await jest.advanceTimersByTimeAsync(18_000);
    expect(checker.started).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(checker.started).toHaveLength(2);
    expect(checker.started[1].at - checker.started[0].at).toBeGreaterThanOrEqual(20_000);
    checker.started[1].finish();
    await settle();
    expect(writer.inputs[1].slotAt).toEqual(new Date(START + 59_900 + 20_000));
    expect(writer.row.status).toBe('down');
  });

  it('runs a check-now asked during a scheduled check right after it', async () => {
    await jest.advanceTimersByTimeAsync(60_050);
    expect(checker.started).toHaveLength(1);
    const manual = sut.checkNow(monitor);
    await settle();
    expect(checker.started).toHaveLength(1);
    checker.started[0].finish();
    await settle();
    expect(checker.started).toHaveLength(2);
    checker.started[1].finish();
    const recorded = await manual;
    expect(writer.inputs.map((input) => input.slotAt)).toEqual([new Date(START + 60_000), null]);
    expect(recorded?.previous).toBe('pending');
    expect(recorded?.monitor.status).toBe('down');
  });

  it("skips a push monitor's verdict on silence when a push came within the interval before its slot", async () => {
    await sut.unschedule(7);
    const push = { ...monitor, id: 8, type: 'push', nextCheckAt: new Date(START + 60_000) } as unknown as ScheduledMonitor;
    await sut.schedule(push);
    // A push from before the interval that ends at the slot (slot − 60 s) does not cover it.
    sut.pushed(8, new Date(START));
    sut.pushed(8, new Date(START + 70_000));
    await jest.advanceTimersByTimeAsync(30_000);
    expect(checker.started).toHaveLength(0);
    sut.pushed(8, new Date(START + 30_000));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(checker.started).toHaveLength(0);
    // The next slot's verdict runs: the silence since that push is judged there.
    await jest.advanceTimersByTimeAsync(30_500);
    expect(checker.started.map((check) => check.at)).toEqual([START + 120_000]);
  });

  it('checks a paused monitor once on request and leaves it unscheduled', async () => {
    await sut.unschedule(monitor.id);
    const manual = sut.checkNow(monitor);
    checker.started[0].finish();
    expect(await manual).not.toBeNull();
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    expect(checker.started).toHaveLength(1);
  });
});
