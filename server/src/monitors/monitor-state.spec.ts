import type { MonitorStatus } from '@vigil/proto';
import {
  applyResult,
  applyResults,
  DEFAULT_FLAPPING,
  enterMaintenance,
  nextCheckAt,
  nextOnRhythm,
  nextRun,
  onGrain,
  spreadOffsetMs,
} from './monitor-state';
import { at, outcome, state } from './monitor-state.testing';
import { TRANSITION_TABLE } from './transition-table.testing';

describe('applyResult', () => {
  it.each(TRANSITION_TABLE)('%s with %s failures, ok=%s, retries=%s → %s (%s)', (status, failures, ok, retries, next, nextFailures) => {
    const decision = applyResult(state({ status, consecutiveFailures: failures, retries }), outcome({ ok }));
    expect(decision).toMatchObject({ kind: 'apply', next: { status: next, consecutiveFailures: nextFailures } });
  });

  it('takes the check time and response time, and plans the retry while pending, else the regular slot', () => {
    expect(applyResult(state(), outcome({ ok: false, responseTime: null }))).toEqual({
      kind: 'apply',
      check: 'down',
      next: state({
        status: 'pending',
        consecutiveFailures: 1,
        responseTime: null,
        lastChecked: at(30),
        nextCheckAt: at(50),
        recentChanges: [at(30)],
      }),
    });
    expect(applyResult(state(), outcome())).toEqual({
      kind: 'apply',
      check: 'up',
      next: state({ responseTime: 12, lastChecked: at(30), nextCheckAt: at(90) }),
    });
  });

  it('keeps the stored next check time when the result brings no rhythm', () => {
    expect(applyResult(state(), outcome({ rhythmNext: null }))).toMatchObject({ next: { nextCheckAt: at(60) } });
  });

  it.each([
    ['a scheduled check of a paused monitor', state({ active: false }), outcome({ slotAt: at(25) }), 'drop'],
    ['a scheduled check whose slot a stored check covers', state({ lastChecked: at(25) }), outcome({ slotAt: at(25) }), 'drop'],
    ['a scheduled check after the last stored one', state(), outcome({ slotAt: at(25) }), 'apply'],
    ['a manual check of a paused monitor', state({ active: false }), outcome(), 'apply'],
    ['a check older than the last stored one', state({ lastChecked: at(40) }), outcome(), 'stale'],
    ['the first check of a new monitor', state({ status: 'pending', lastChecked: null }), outcome(), 'apply'],
  ])('%s: %s', (_name, current, result, kind) => {
    expect(applyResult(current, result).kind).toBe(kind);
  });
});

describe('applyResults', () => {
  it('applies results of one monitor oldest first, each on the state the one before left', () => {
    const states = new Map([[1, state()]]);
    const late = { ...outcome({ ok: false, checkedAt: at(40) }), monitorId: 1 };
    const early = { ...outcome({ ok: false, checkedAt: at(30) }), monitorId: 1 };
    const { steps, final } = applyResults(states, [late, early]);
    expect(steps.map((s) => [s.outcome, s.previous.status, s.state.status])).toEqual([
      [early, 'up', 'pending'],
      [late, 'pending', 'down'],
    ]);
    expect(final.get(1)).toMatchObject({ status: 'down', consecutiveFailures: 2, lastChecked: at(40) });
  });

  it('leaves out results of unknown monitors and dropped ones, and keeps stale ones without a change', () => {
    const states = new Map([
      [1, state({ active: false })],
      [2, state({ lastChecked: at(45) })],
    ]);
    const { steps, final } = applyResults(states, [
      { ...outcome({ slotAt: at(30) }), monitorId: 1 },
      { ...outcome({ ok: false }), monitorId: 2 },
      { ...outcome(), monitorId: 3 },
    ]);
    expect(steps.map((s) => [s.outcome.monitorId, s.previous.status, s.state.status])).toEqual([[2, 'up', 'up']]);
    expect(final.size).toBe(0);
  });
});

describe('maintenance as an input', () => {
  const covered = { dependencyDown: false, maintenance: true, flapping: DEFAULT_FLAPPING };

  it.each([
    ['an up monitor failing', state(), outcome({ ok: false }), 1],
    ['a down monitor failing on', state({ status: 'down', consecutiveFailures: 4 }), outcome({ ok: false }), 5],
    ['a down monitor coming back', state({ status: 'down', consecutiveFailures: 4 }), outcome(), 0],
    ['a pending monitor with no retries left', state({ status: 'pending', consecutiveFailures: 1, retries: 0 }), outcome({ ok: false }), 2],
    ['a slow success', state({ degradedAfterMs: 5 }), outcome({ responseTime: 50 }), 0],
  ])('keeps %s in maintenance, recorded as such, counting its failures', (_name, current, result, failures) => {
    expect(applyResult(current, result, covered)).toMatchObject({
      kind: 'apply',
      check: 'maintenance',
      next: { status: 'maintenance', consecutiveFailures: failures },
    });
  });

  it('plans no retry in maintenance and counts the moves in and out as no flapping', () => {
    const failing = applyResult(state(), outcome({ ok: false }), covered);
    expect(failing).toMatchObject({ next: { nextCheckAt: at(90), recentChanges: [] } });
    const after = applyResult(state({ status: 'maintenance', consecutiveFailures: 5 }), outcome({ ok: false }));
    expect(after).toMatchObject({ check: 'down', next: { status: 'down', recentChanges: [] } });
  });

  it('decides a batch with the covered monitors in maintenance and the others as usual', () => {
    const states = new Map([
      [1, state()],
      [2, state()],
    ]);
    const { final } = applyResults(
      states,
      [
        { ...outcome({ ok: false }), monitorId: 1 },
        { ...outcome({ ok: false }), monitorId: 2 },
      ],
      { maintenance: new Set([1]) },
    );
    expect([final.get(1)?.status, final.get(2)?.status]).toEqual(['maintenance', 'pending']);
  });

  it.each([
    ['an up monitor', state(), 'maintenance'],
    ['a down one', state({ status: 'down', consecutiveFailures: 3 }), 'maintenance'],
    ['a paused one', state({ active: false }), null],
    ['one in maintenance already', state({ status: 'maintenance' }), null],
  ])('moves %s into maintenance when a window starts: %s', (_name, current, expected) => {
    const next = enterMaintenance(current);
    expect(next?.status ?? null).toBe(expected);
    if (next) expect(next).toEqual({ ...current, status: 'maintenance' });
  });
});

describe('nextCheckAt', () => {
  it.each([
    ['pending', at(50)],
    ['up', at(90)],
    ['down', at(90)],
  ] as Array<[MonitorStatus, Date]>)('%s → %s', (status, expected) => {
    expect(nextCheckAt(status, at(30), 20, at(90))).toEqual(expected);
  });
});

describe('nextRun', () => {
  const rhythm = at(90).getTime();
  it.each([
    ['a pending monitor, retry before the regular slot', 'pending', true, at(50), { at: at(50).getTime(), retry: true }],
    ['a pending monitor, retry after the regular slot', 'pending', true, at(120), { at: at(120).getTime(), retry: true }],
    ['an up monitor', 'up', true, at(50), { at: rhythm, retry: false }],
    ['a down monitor', 'down', true, at(50), { at: rhythm, retry: false }],
    ['a pending monitor without a stored time', 'pending', true, null, { at: rhythm, retry: false }],
    ['a paused pending monitor', 'pending', false, at(50), { at: rhythm, retry: false }],
  ] as Array<[string, MonitorStatus, boolean, Date | null, { at: number; retry: boolean }]>)(
    '%s',
    (_name, status, active, stored, expected) => {
      expect(nextRun({ status, active, nextCheckAt: stored }, rhythm)).toEqual(expected);
    },
  );
});

describe('nextOnRhythm', () => {
  it.each([
    [0, 60_000, 30_000, 60_000],
    [0, 60_000, 60_000, 120_000],
    [0, 60_000, 61_000, 120_000],
    [5_000, 60_000, 3_605_000, 3_665_000],
    [90_000, 60_000, 30_000, 90_000],
  ])('anchor %s every %s at %s → %s', (anchor, interval, now, next) => {
    expect(nextOnRhythm(anchor, interval, now)).toBe(next);
  });
});

describe('spreadOffsetMs', () => {
  it('spreads consecutive monitors over the whole interval', () => {
    const offsets = Array.from({ length: 600 }, (_, i) => spreadOffsetMs(i + 1, 60_000));
    expect(offsets.every((o) => o >= 0 && o < 60_000)).toBe(true);
    const buckets = new Set(offsets.map((o) => Math.floor(o / 6_000)));
    expect(buckets.size).toBe(10);
  });

  it('puts the slots of a batched type on whole seconds, still spread over the interval', () => {
    const offsets = Array.from({ length: 600 }, (_, i) => spreadOffsetMs(i + 1, 60_000, 1000));
    expect(offsets.every((o) => o % 1000 === 0 && o >= 0 && o < 60_000)).toBe(true);
    expect(new Set(offsets).size).toBe(60);
    expect(spreadOffsetMs(7, 60_000, 1000)).toBe(spreadOffsetMs(7, 60_000) - (spreadOffsetMs(7, 60_000) % 1000));
    // Anchored on whole seconds, a rhythm of whole-second intervals stays on them.
    expect(nextOnRhythm(spreadOffsetMs(7, 20_000, 1000), 20_000, 1_795_000_123_456) % 1000).toBe(0);
  });
});

describe('onGrain', () => {
  it.each([
    [12_000, 1000, 12_000],
    [12_001, 1000, 13_000],
    [12_999, 1000, 13_000],
    [12_345, 1, 12_345],
  ])('%s on a grain of %s → %s', (at, grain, expected) => {
    expect(onGrain(at, grain)).toBe(expected);
  });
});
