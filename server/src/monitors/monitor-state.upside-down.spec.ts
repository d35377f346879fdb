import { applyResult, oriented, stateOf, UPSIDE_DOWN_ERROR } from './monitor-state';
import { at, outcome } from './monitor-state.testing';
import { monitorRow } from './monitor-fixtures.testing';

type Result = { ok: boolean; error: string | null; soft?: boolean; unreachable?: boolean };

describe('oriented (upside-down mode)', () => {
  it.each<[string, Result, Result]>([
    ['a success is a failure named as such', { ok: true, error: null }, { ok: false, error: UPSIDE_DOWN_ERROR }],
    [
      'a success with a failed soft assertion is a failure, not degraded',
      { ok: true, error: 'body contains "warn"', soft: true },
      { ok: false, error: UPSIDE_DOWN_ERROR },
    ],
    [
      'a failure is a success keeping what was seen',
      { ok: false, error: 'connect ECONNREFUSED' },
      { ok: true, error: 'connect ECONNREFUSED' },
    ],
    ['a timeout is a success', { ok: false, error: 'Timeout after 5 s' }, { ok: true, error: 'Timeout after 5 s' }],
    ['a push monitor’s silence is a success', { ok: false, error: 'No push within 60 s' }, { ok: true, error: 'No push within 60 s' }],
    [
      'a verdict no location could give stays unreachable',
      { ok: false, error: 'No location could check', unreachable: true },
      { ok: false, error: 'No location could check', unreachable: true },
    ],
  ])('%s', (_case, result, expected) => {
    expect(oriented(result, true)).toEqual(expected);
  });

  it('leaves every result of a monitor that is not upside down as it is', () => {
    const result = { ok: true, error: 'slow', soft: true };
    expect(oriented(result, false)).toBe(result);
  });
});

describe('an upside-down monitor in the state machine', () => {
  const upsideDown = stateOf(monitorRow({ upside_down: true, degraded_after_ms: 100, retries: 0, consecutive_failures: 0 }));

  it.each([
    ['a failure (oriented) is up, never degraded however slow', false, 5000, 'up', 'up'],
    ['a success (oriented) is down once the retries are spent', true, 20, 'down', 'down'],
  ] as const)('%s', (_case, probeOk, responseTime, check, status) => {
    const result = oriented({ ok: probeOk, error: probeOk ? null : 'refused' }, true);
    const decision = applyResult(upsideDown, outcome({ ok: result.ok, responseTime, checkedAt: at(30) }));
    expect(decision).toMatchObject({ kind: 'apply', check, next: { status } });
  });

  it('is unreachable when its (oriented) failure comes while a dependency is down', () => {
    const result = oriented({ ok: true, error: null }, true);
    const decision = applyResult(upsideDown, outcome({ ok: result.ok }), {
      dependencyDown: true,
      flapping: { changes: 5, windowMs: 600_000 },
    });
    expect(decision).toMatchObject({ kind: 'apply', check: 'unreachable' });
  });

  it('keeps the slow threshold of a monitor that is not upside down', () => {
    const plain = stateOf(monitorRow({ degraded_after_ms: 100 }));
    expect(applyResult(plain, outcome({ ok: true, responseTime: 5000 }))).toMatchObject({ check: 'degraded' });
  });
});
