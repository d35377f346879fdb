import type { AgentStatus, DependencyRef, MonitorStatus } from '@vigil/proto';
import { applyResult, applyResults, checkStatus, CheckOutcome, dependencyRank, flappingAfter, MonitorState } from './monitor-state';
import { at, outcome, state } from './monitor-state.testing';

const flapping = { changes: 5, windowMs: 600_000 };
const monitor = (id: number): DependencyRef => ({ type: 'monitor', id });
const agent = (id: number): DependencyRef => ({ type: 'agent', id });

describe('checkStatus', () => {
  it.each([
    ['a success', outcome(), null, false, 'up'],
    ['a success under the threshold', outcome({ responseTime: 200 }), 200, false, 'up'],
    ['a success over the threshold', outcome({ responseTime: 201 }), 200, false, 'degraded'],
    ['a success without a response time', outcome({ responseTime: null }), 200, false, 'up'],
    ['a success with a soft assertion failed', outcome({ soft: true }), null, false, 'degraded'],
    ['a success while a dependency is down', outcome(), null, true, 'up'],
    ['a failure', outcome({ ok: false }), null, false, 'down'],
    ['a failure while a dependency is down', outcome({ ok: false }), null, true, 'unreachable'],
    ['a slow failure', outcome({ ok: false, responseTime: 5000 }), 200, false, 'down'],
  ] as Array<[string, CheckOutcome, number | null, boolean, string]>)('%s → %s', (_name, result, threshold, dependencyDown, expected) => {
    expect(checkStatus(result, threshold, dependencyDown)).toBe(expected);
  });
});

describe('transitions with dependencies and degraded', () => {
  // status, failures, check ok, response time, retries, dependency down → next status
  it.each([
    ['up', 0, false, 1, true, 'unreachable'],
    ['pending', 1, false, 3, true, 'unreachable'],
    ['unreachable', 5, false, 1, true, 'unreachable'],
    ['unreachable', 5, false, 3, false, 'down'],
    ['unreachable', 5, true, 3, false, 'up'],
    ['unreachable', 5, true, 3, true, 'up'],
    ['down', 2, false, 1, true, 'down'],
    ['down', 2, true, 1, true, 'up'],
    ['degraded', 0, false, 1, false, 'pending'],
    ['degraded', 0, false, 0, false, 'down'],
    ['degraded', 0, false, 0, true, 'unreachable'],
  ] as Array<[MonitorStatus, number, boolean, number, boolean, MonitorStatus]>)(
    '%s with %s failures, ok=%s, retries=%s, dependency down=%s → %s',
    (status, failures, ok, retries, dependencyDown, next) => {
      const decision = applyResult(state({ status, consecutiveFailures: failures, retries }), outcome({ ok }), {
        dependencyDown,
        flapping,
      });
      expect(decision).toMatchObject({ kind: 'apply', next: { status: next } });
    },
  );

  it.each([
    ['up', 'degraded'],
    ['pending', 'degraded'],
    ['down', 'degraded'],
    ['unreachable', 'degraded'],
  ] as Array<[MonitorStatus, MonitorStatus]>)('a slow success of a %s monitor makes it %s at once, retries or not', (status, next) => {
    const decision = applyResult(state({ status, degradedAfterMs: 100, retries: 3 }), outcome({ responseTime: 150 }));
    expect(decision).toMatchObject({ kind: 'apply', check: 'degraded', next: { status: next, consecutiveFailures: 0 } });
  });

  it('a degraded monitor answering fast again is up', () => {
    expect(applyResult(state({ status: 'degraded', degradedAfterMs: 100 }), outcome({ responseTime: 50 }))).toMatchObject({
      next: { status: 'up' },
    });
  });

  it('records the check of a stale result with what it said', () => {
    expect(applyResult(state({ lastChecked: at(40) }), outcome({ ok: false }), { dependencyDown: true, flapping })).toEqual({
      kind: 'stale',
      check: 'unreachable',
    });
  });
});

describe('applyResults with dependencies', () => {
  const failing = (monitorId: number, seconds = 30) => ({ ...outcome({ ok: false, checkedAt: at(seconds) }), monitorId });
  const passing = (monitorId: number, seconds = 30) => ({ ...outcome({ checkedAt: at(seconds) }), monitorId });
  const run = (
    states: Record<number, Partial<MonitorState>>,
    dependsOn: Record<number, DependencyRef[]>,
    outcomes: Array<CheckOutcome & { monitorId: number }>,
    outside: { monitors?: Record<number, MonitorStatus>; agents?: Record<number, AgentStatus>; paused?: number[] } = {},
  ) => {
    const { steps } = applyResults(new Map(Object.entries(states).map(([id, patch]) => [Number(id), state(patch)])), outcomes, {
      dependsOn: new Map(Object.entries(dependsOn).map(([id, refs]) => [Number(id), refs])),
      monitors: new Map(
        Object.entries(outside.monitors ?? {}).map(([id, status]) => [
          Number(id),
          { status, active: !(outside.paused ?? []).includes(Number(id)) },
        ]),
      ),
      agents: new Map(Object.entries(outside.agents ?? {}).map(([id, status]) => [Number(id), status])),
      flapping,
    });
    return steps.map((s) => [s.outcome.monitorId, s.state.status, s.cause]);
  };

  it('a failing dependent of a down monitor outside the batch is unreachable, naming it', () => {
    expect(run({ 2: {} }, { 2: [monitor(1)] }, [failing(2)], { monitors: { 1: 'down' } })).toEqual([[2, 'unreachable', monitor(1)]]);
  });

  it.each([
    ['up', 'pending'],
    ['pending', 'pending'],
    ['degraded', 'pending'],
    ['unreachable', 'unreachable'],
  ] as Array<[MonitorStatus, MonitorStatus]>)('a dependency that is %s leaves a failing dependent %s', (dependency, expected) => {
    expect(run({ 2: {} }, { 2: [monitor(1)] }, [failing(2)], { monitors: { 1: dependency } })[0][1]).toBe(expected);
  });

  it('a paused dependency never excuses a failure', () => {
    expect(run({ 2: {} }, { 2: [monitor(1)] }, [failing(2)], { monitors: { 1: 'down' }, paused: [1] })[0][1]).toBe('pending');
  });

  it('an offline agent makes its failing dependents unreachable; a connecting or online one does not', () => {
    expect(run({ 2: {} }, { 2: [agent(7)] }, [failing(2)], { agents: { 7: 'inactive' } })).toEqual([[2, 'unreachable', agent(7)]]);
    expect(run({ 2: {} }, { 2: [agent(7)] }, [failing(2)], { agents: { 7: 'connecting' } })[0][1]).toBe('pending');
    expect(run({ 2: {} }, { 2: [agent(7)] }, [failing(2)], { agents: { 7: 'active' } })[0][1]).toBe('pending');
  });

  it('decides a dependency in the batch first, whatever order the checks ended in', () => {
    // The service's check ended before the router's: the router still goes first.
    expect(run({ 1: { retries: 0 }, 2: { retries: 0 } }, { 2: [monitor(1)] }, [failing(2, 30), failing(1, 35)])).toEqual([
      [1, 'down', null],
      [2, 'unreachable', monitor(1)],
    ]);
  });

  it('a chain: the router down makes the switch behind it unreachable, and the server behind the switch too', () => {
    expect(run({ 1: { retries: 0 }, 2: {}, 3: {} }, { 2: [monitor(1)], 3: [monitor(2)] }, [failing(3), failing(2), failing(1)])).toEqual([
      [1, 'down', null],
      [2, 'unreachable', monitor(1)],
      [3, 'unreachable', monitor(2)],
    ]);
  });

  it('a chain where the middle still works: the end is down on its own', () => {
    expect(
      run({ 1: { retries: 0 }, 2: {}, 3: { retries: 0 } }, { 2: [monitor(1)], 3: [monitor(2)] }, [failing(3), passing(2), failing(1)]),
    ).toEqual([
      [1, 'down', null],
      [2, 'up', null],
      [3, 'down', null],
    ]);
  });

  it('a diamond: one path down is enough', () => {
    const dependsOn = { 2: [monitor(1)], 3: [monitor(1)], 4: [monitor(2), monitor(3)] };
    expect(run({ 2: {}, 3: { status: 'unreachable' }, 4: {} }, dependsOn, [failing(4), passing(2)], { monitors: { 1: 'down' } })).toEqual([
      [2, 'up', null],
      [4, 'unreachable', monitor(3)],
    ]);
  });

  it('the dependency recovering in the batch leaves a still failing unreachable dependent down', () => {
    expect(run({ 1: { status: 'down' }, 2: { status: 'unreachable' } }, { 2: [monitor(1)] }, [failing(2), passing(1)])).toEqual([
      [1, 'up', null],
      [2, 'down', null],
    ]);
  });

  it('a cycle stored by a race still gets an order, and decides every result', () => {
    expect(
      dependencyRank(
        [1, 2],
        new Map([
          [1, [monitor(2)]],
          [2, [monitor(1)]],
        ]),
      ).size,
    ).toBe(2);
    expect(run({ 1: {}, 2: {} }, { 1: [monitor(2)], 2: [monitor(1)] }, [failing(1), failing(2)]).map((s) => s[1])).toEqual([
      'pending',
      'pending',
    ]);
  });
});

describe('flapping', () => {
  const rule = { changes: 3, windowMs: 60_000 };
  /** Runs statuses through flappingAfter, one each 10 s from `start`, and answers the flag after each. */
  function flags(statuses: MonitorStatus[], start: Partial<MonitorState> = {}, everyS = 10): boolean[] {
    let current = { status: 'up' as MonitorStatus, flapping: false, recentChanges: [] as Date[], ...start };
    return statuses.map((status, i) => {
      current = { ...current, status, ...flappingAfter(current, status, at((i + 1) * everyS), rule) };
      return current.flapping;
    });
  }

  it('flags a monitor with more than N changes within the window', () => {
    expect(flags(['down', 'up', 'down', 'up'])).toEqual([false, false, false, true]);
  });

  it('does not flag N changes, nor changes spread wider than the window', () => {
    expect(flags(['down', 'up', 'down', 'down'])).toEqual([false, false, false, false]);
    expect(flags(['down', 'up', 'down', 'up'], {}, 25)).toEqual([false, false, false, false]);
  });

  it('stays flapping while it changes, and settles at the first result after a whole quiet window', () => {
    const seen = flags(['down', 'up', 'down', 'up', 'up', 'up', 'up', 'up', 'up', 'up', 'up']);
    // Last change at 40 s; the window is 60 s: still flapping at 90 s, settled at 100 s (a whole window without a change).
    expect(seen).toEqual([false, false, false, true, true, true, true, true, true, false, false]);
  });

  it('keeps no more change times than it needs', () => {
    const after = flappingAfter({ status: 'up', flapping: true, recentChanges: [at(1), at(2), at(3), at(4), at(5)] }, 'down', at(6), rule);
    expect(after.recentChanges).toEqual([at(3), at(4), at(5), at(6)]);
  });

  it('applyResult raises the flag with its check time as the clock', () => {
    const recentChanges = [at(1), at(2), at(3), at(4), at(5)];
    const decision = applyResult(state({ status: 'pending', consecutiveFailures: 1, recentChanges }), outcome(), {
      dependencyDown: false,
      flapping: { changes: 5, windowMs: 600_000 },
    });
    expect(decision).toMatchObject({ next: { status: 'up', flapping: true } });
  });
});
