import type { Schedule } from './schedule';
import { nextSpan, phaseOf, sweepStep, type WindowState } from './window-state';

const at = (iso: string) => new Date(iso).getTime();
const H = 3_600_000;

const base: Schedule = {
  strategy: 'weekly',
  timezone: 'UTC',
  startAt: null,
  endAt: null,
  weekdays: [1],
  daysOfMonth: [],
  startTime: '10:00',
  endTime: '12:00',
  intervalDays: null,
  cron: null,
  durationMinutes: null,
};

function window(patch: Partial<Omit<WindowState, 'schedule'>> & { schedule?: Partial<Schedule> } = {}): WindowState {
  const { schedule, ...rest } = patch;
  return { enabled: true, appliedStart: null, appliedEnd: null, skipUntil: null, ...rest, schedule: { ...base, ...schedule } };
}

// Monday 2026-06-01, 10:00–12:00 UTC every week.
const MONDAY_10 = at('2026-06-01T10:00:00Z');

describe('sweepStep', () => {
  it.each<[string, WindowState, number, ReturnType<typeof sweepStep>]>([
    ['nothing before the span', window(), MONDAY_10 - 1, { kind: 'none' }],
    ['a start when the span begins', window(), MONDAY_10, { kind: 'start', span: { start: MONDAY_10, end: MONDAY_10 + 2 * H } }],
    [
      'nothing while the applied span runs',
      window({ appliedStart: MONDAY_10, appliedEnd: MONDAY_10 + 2 * H }),
      MONDAY_10 + H,
      { kind: 'none' },
    ],
    ['an end once it is over', window({ appliedStart: MONDAY_10, appliedEnd: MONDAY_10 + 2 * H }), MONDAY_10 + 2 * H, { kind: 'end' }],
    [
      'an end when switched off',
      window({ enabled: false, appliedStart: MONDAY_10, appliedEnd: MONDAY_10 + 2 * H }),
      MONDAY_10 + H,
      { kind: 'end' },
    ],
    ['no start within a span ended early', window({ skipUntil: MONDAY_10 + 2 * H }), MONDAY_10 + H, { kind: 'none' }],
    [
      'a restart when the sweep missed the gap to the next span',
      window({ appliedStart: MONDAY_10 - 7 * 24 * H, appliedEnd: MONDAY_10 - 7 * 24 * H + 2 * H }),
      MONDAY_10 + H,
      { kind: 'restart', span: { start: MONDAY_10, end: MONDAY_10 + 2 * H } },
    ],
    [
      'an extension when an edit moved the end',
      window({ appliedStart: MONDAY_10, appliedEnd: MONDAY_10 + H, schedule: { endTime: '13:00' } }),
      MONDAY_10 + 30 * 60_000,
      { kind: 'extend', end: MONDAY_10 + 3 * H },
    ],
    [
      'a manual window starts when switched on',
      window({ schedule: { strategy: 'manual' } }),
      MONDAY_10,
      { kind: 'start', span: { start: MONDAY_10, end: null } },
    ],
    [
      'a manual window runs on',
      window({ schedule: { strategy: 'manual' }, appliedStart: MONDAY_10 }),
      MONDAY_10 + 99 * H,
      { kind: 'none' },
    ],
    [
      'a manual window switched off ends',
      window({ schedule: { strategy: 'manual' }, appliedStart: MONDAY_10, enabled: false }),
      MONDAY_10 + H,
      { kind: 'end' },
    ],
  ])('%s', (_name, state, now, expected) => {
    expect(sweepStep(state, now)).toEqual(expected);
  });

  it('joins back-to-back occurrences into one span: no end and start between them', () => {
    // Every hour for an hour: one span from the first run to the last.
    const hourly = window({ schedule: { strategy: 'cron', cron: '0 * * * *', durationMinutes: 60, endAt: new Date(MONDAY_10 + 3 * H) } });
    const started = sweepStep(hourly, MONDAY_10 - H / 2);
    expect(started).toEqual({ kind: 'start', span: { start: MONDAY_10 - H, end: MONDAY_10 + 3 * H } });
    const applied = { ...hourly, appliedStart: MONDAY_10 - H, appliedEnd: MONDAY_10 + 3 * H };
    expect(sweepStep(applied, MONDAY_10 + H / 2)).toEqual({ kind: 'none' });
    expect(sweepStep(applied, MONDAY_10 + 3 * H)).toEqual({ kind: 'end' });
  });
});

describe('nextSpan and phaseOf', () => {
  it('names the next span, none for a manual window or one switched off', () => {
    expect(nextSpan(window(), MONDAY_10)).toEqual({ start: MONDAY_10 + 7 * 24 * H, end: MONDAY_10 + 7 * 24 * H + 2 * H });
    expect(nextSpan(window({ schedule: { strategy: 'manual' } }), MONDAY_10)).toBeNull();
    expect(nextSpan(window({ enabled: false }), MONDAY_10)).toBeNull();
  });

  it.each([
    [{ enabled: false, appliedStart: 1, nextStart: 2 }, 'paused'],
    [{ enabled: true, appliedStart: 1, nextStart: null }, 'active'],
    [{ enabled: true, appliedStart: null, nextStart: 2 }, 'scheduled'],
    [{ enabled: true, appliedStart: null, nextStart: null }, 'ended'],
  ])('%j is %s', (state, phase) => {
    expect(phaseOf(state)).toBe(phase);
  });
});
