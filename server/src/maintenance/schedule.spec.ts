import type { MonthDay } from '@vigil/proto';
import { merge, nextOccurrence, occurrenceAt, occurrencesBetween, spanEnd, type Schedule } from './schedule';
import { canonicalZone, zonedInstant } from './zone';

const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));
const shown = (list: Array<{ start: number; end: number | null }>) => list.map((o) => [iso(o.start), iso(o.end)]);

function schedule(fields: Partial<Schedule>): Schedule {
  return {
    strategy: 'weekly',
    timezone: 'UTC',
    startAt: null,
    endAt: null,
    weekdays: [],
    daysOfMonth: [],
    startTime: null,
    endTime: null,
    intervalDays: null,
    cron: null,
    durationMinutes: null,
    ...fields,
  };
}

const weekly = (timezone: string, weekdays: number[], startTime: string, endTime: string) =>
  schedule({ strategy: 'weekly', timezone, weekdays, startTime, endTime });
const monthly = (daysOfMonth: MonthDay[], startTime = '10:00', endTime = '11:00', timezone = 'UTC') =>
  schedule({ strategy: 'monthly', timezone, daysOfMonth, startTime, endTime });

describe('zone arithmetic', () => {
  it.each([
    ['europe/berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['America/New_York', 'America/New_York'],
    ['Mars/Olympus', null],
    ['+01:00', null],
    ['../etc/passwd', null],
    ['', null],
  ])('reads %j as the zone %j', (name, expected) => {
    expect(canonicalZone(name)).toBe(expected);
  });

  // Day numbers: days since 1970-01-01.
  const day = (date: string) => at(`${date}T00:00:00Z`) / 86_400_000;
  it.each([
    // Spring forward: the skipped local time is the instant the clocks jumped.
    ['Europe/Berlin', '2026-03-29', '02:30', '2026-03-29T01:00:00Z'],
    ['Europe/Berlin', '2026-03-29', '03:00', '2026-03-29T01:00:00Z'],
    ['Europe/Berlin', '2026-03-29', '01:59', '2026-03-29T00:59:00Z'],
    // Fall back: a repeated local time is its first, earlier instant.
    ['Europe/Berlin', '2026-10-25', '02:30', '2026-10-25T00:30:00Z'],
    ['Europe/Berlin', '2026-10-25', '03:00', '2026-10-25T02:00:00Z'],
    ['America/New_York', '2026-03-08', '02:15', '2026-03-08T07:00:00Z'],
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00Z'],
    ['Australia/Sydney', '2026-10-04', '02:30', '2026-10-03T16:00:00Z'],
    ['Australia/Sydney', '2026-04-05', '02:30', '2026-04-04T15:30:00Z'],
    ['UTC', '2028-02-29', '23:59', '2028-02-29T23:59:00Z'],
  ])('in %s, %s %s is %s', (zone, date, time, expected) => {
    const [hours, minutes] = time.split(':').map(Number);
    expect(iso(zonedInstant(zone, day(date), hours * 60 + minutes))).toBe(expected);
  });
});

describe('weekly windows across daylight-saving changes', () => {
  it.each([
    // [zone, weekday, start, end, a Sunday of the change, expected occurrence]
    ['Europe/Berlin', '02:30', '04:00', '2026-03-29', ['2026-03-29T01:00:00Z', '2026-03-29T02:00:00Z']],
    ['Europe/Berlin', '01:00', '03:30', '2026-03-29', ['2026-03-29T00:00:00Z', '2026-03-29T01:30:00Z']],
    ['Europe/Berlin', '02:30', '03:30', '2026-10-25', ['2026-10-25T00:30:00Z', '2026-10-25T02:30:00Z']],
    ['Europe/Berlin', '01:00', '02:00', '2026-10-25', ['2026-10-24T23:00:00Z', '2026-10-25T00:00:00Z']],
    ['America/New_York', '02:15', '03:15', '2026-03-08', ['2026-03-08T07:00:00Z', '2026-03-08T07:15:00Z']],
    ['America/New_York', '01:30', '02:30', '2026-11-01', ['2026-11-01T05:30:00Z', '2026-11-01T07:30:00Z']],
    ['Australia/Sydney', '02:30', '04:00', '2026-10-04', ['2026-10-03T16:00:00Z', '2026-10-03T17:00:00Z']],
    ['Australia/Sydney', '02:30', '03:30', '2026-04-05', ['2026-04-04T15:30:00Z', '2026-04-04T17:30:00Z']],
    // A window wholly inside the skipped hour has no length that day.
    ['Europe/Berlin', '02:10', '02:50', '2026-03-29', null],
  ])('%s Sunday %s–%s on %s', (zone, start, end, sunday, expected) => {
    const window = weekly(zone, [0], start, end);
    const from = at(`${sunday}T00:00:00Z`) - 86_400_000;
    const found = occurrencesBetween(window, from, from + 2 * 86_400_000);
    expect(shown(found)).toEqual(expected ? [expected] : []);
  });

  it('keeps the local time of day on both sides of a change (Berlin, a week apart)', () => {
    const window = weekly('Europe/Berlin', [3], '22:00', '23:00');
    const found = occurrencesBetween(window, at('2026-03-20T00:00:00Z'), at('2026-04-05T00:00:00Z'));
    expect(shown(found)).toEqual([
      ['2026-03-25T21:00:00Z', '2026-03-25T22:00:00Z'],
      ['2026-04-01T20:00:00Z', '2026-04-01T21:00:00Z'],
    ]);
  });

  it('runs past midnight when the end is at or before the start', () => {
    const window = weekly('UTC', [5], '22:00', '02:00');
    expect(shown(occurrencesBetween(window, at('2026-06-01T00:00:00Z'), at('2026-06-08T00:00:00Z')))).toEqual([
      ['2026-06-05T22:00:00Z', '2026-06-06T02:00:00Z'],
    ]);
    const whole = weekly('UTC', [1], '06:00', '06:00');
    expect(shown(occurrencesBetween(whole, at('2026-06-01T00:00:00Z'), at('2026-06-03T00:00:00Z')))).toEqual([
      ['2026-06-01T06:00:00Z', '2026-06-02T06:00:00Z'],
    ]);
  });
});

describe('monthly, interval and single windows across daylight-saving changes', () => {
  const everyDays = (timezone: string, startAt: string, intervalDays: number, startTime: string, endTime: string) =>
    schedule({ strategy: 'interval', timezone, startAt: new Date(startAt), intervalDays, startTime, endTime });
  it.each([
    // [name, window, from, to, expected occurrences]
    [
      'monthly 29th in the skipped hour',
      monthly([29], '02:30', '03:30', 'Europe/Berlin'),
      '2026-03-01',
      '2026-04-01',
      [['2026-03-29T01:00:00Z', '2026-03-29T01:30:00Z']],
    ],
    [
      'monthly 25th over the repeated hour',
      monthly([25], '02:30', '03:30', 'Europe/Berlin'),
      '2026-10-01',
      '2026-11-01',
      [['2026-10-25T00:30:00Z', '2026-10-25T02:30:00Z']],
    ],
    [
      'monthly "last" before and after spring',
      monthly(['last'], '10:00', '11:00', 'Europe/Berlin'),
      '2026-02-01',
      '2026-04-01',
      [
        ['2026-02-28T09:00:00Z', '2026-02-28T10:00:00Z'],
        ['2026-03-31T08:00:00Z', '2026-03-31T09:00:00Z'],
      ],
    ],
    [
      'daily interval over spring',
      everyDays('Europe/Berlin', '2026-03-28T00:00:00Z', 1, '10:00', '11:00'),
      '2026-03-28',
      '2026-03-31',
      [
        ['2026-03-28T09:00:00Z', '2026-03-28T10:00:00Z'],
        ['2026-03-29T08:00:00Z', '2026-03-29T09:00:00Z'],
        ['2026-03-30T08:00:00Z', '2026-03-30T09:00:00Z'],
      ],
    ],
    [
      'weekly interval over autumn',
      everyDays('America/New_York', '2026-10-25T04:00:00Z', 7, '01:30', '02:30'),
      '2026-10-25',
      '2026-11-09',
      [
        ['2026-10-25T05:30:00Z', '2026-10-25T06:30:00Z'],
        ['2026-11-01T05:30:00Z', '2026-11-01T07:30:00Z'],
        ['2026-11-08T06:30:00Z', '2026-11-08T07:30:00Z'],
      ],
    ],
    [
      'single across the change (instants, not local times)',
      schedule({
        strategy: 'single',
        timezone: 'Europe/Berlin',
        startAt: new Date('2026-03-29T00:30:00Z'),
        endAt: new Date('2026-03-29T01:30:00Z'),
      }),
      '2026-03-28',
      '2026-03-30',
      [['2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z']],
    ],
  ] as Array<[string, Schedule, string, string, string[][]]>)('%s', (_name, window, from, to, expected) => {
    expect(shown(occurrencesBetween(window, at(`${from}T00:00:00Z`), at(`${to}T00:00:00Z`)))).toEqual(expected);
  });
});

describe('cron windows across daylight-saving changes', () => {
  it.each([
    ['Europe/Berlin', '30 2 * * *', '2026-03-28T00:00:00Z', 3, ['2026-03-28T01:30:00Z', '2026-03-29T01:00:00Z', '2026-03-30T00:30:00Z']],
    ['Europe/Berlin', '30 2 * * *', '2026-10-24T00:00:00Z', 3, ['2026-10-24T00:30:00Z', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z']],
    ['America/New_York', '0 2 * * 0', '2026-03-01T00:00:00Z', 15, ['2026-03-01T07:00:00Z', '2026-03-08T07:00:00Z', '2026-03-15T06:00:00Z']],
    ['Australia/Sydney', '30 2 * * *', '2026-10-02T12:00:00Z', 3, ['2026-10-02T16:30:00Z', '2026-10-03T16:00:00Z', '2026-10-04T15:30:00Z']],
  ])('%s %s from %s', (timezone, cron, from, days, starts) => {
    const window = schedule({ strategy: 'cron', timezone, cron, durationMinutes: 30 });
    const found = occurrencesBetween(window, at(from), at(from) + days * 86_400_000 - 1);
    expect(found.map((o) => iso(o.start))).toEqual(starts);
    for (const occurrence of found) expect(occurrence.end! - occurrence.start).toBe(30 * 60_000);
  });

  it('finds a run that started less than a duration ago', () => {
    const window = schedule({ strategy: 'cron', cron: '0 * * * *', durationMinutes: 20 });
    expect(shown([occurrenceAt(window, at('2026-06-01T10:15:00Z'))!])).toEqual([['2026-06-01T10:00:00Z', '2026-06-01T10:20:00Z']]);
    expect(occurrenceAt(window, at('2026-06-01T10:20:00Z'))).toBeNull();
  });
});

describe('month ends and leap days', () => {
  const year = (from: string, to: string, window: Schedule) => shown(occurrencesBetween(window, at(from), at(to))).map(([start]) => start);

  it.each([
    ['the 31st skips the months without one', [31], '2026-01-01', '2026-06-01', ['2026-01-31', '2026-03-31', '2026-05-31']],
    [
      '"last" is the last day of each month',
      ['last'],
      '2026-01-01',
      '2026-05-01',
      ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'],
    ],
    ['"last" in a leap February is the 29th', ['last'], '2028-02-01', '2028-03-01', ['2028-02-29']],
    ['the 29th of February happens in leap years only', [29], '2027-02-01', '2027-03-01', []],
    ['the 29th of February in 2028', [29], '2028-02-01', '2028-03-01', ['2028-02-29']],
    ['the 31st and "last" on one day make one occurrence', [31, 'last'], '2026-01-01', '2026-03-01', ['2026-01-31', '2026-02-28']],
    ['the 30th and the 1st', [1, 30], '2026-02-01', '2026-04-01', ['2026-02-01', '2026-03-01', '2026-03-30']],
  ] as Array<[string, MonthDay[], string, string, string[]]>)('%s', (_name, days, from, to, dates) => {
    expect(year(`${from}T00:00:00Z`, `${to}T00:00:00Z`, monthly(days))).toEqual(dates.map((date) => `${date}T10:00:00Z`));
  });

  it('runs "last" 23:00–01:00 into the next month', () => {
    const found = occurrencesBetween(monthly(['last'], '23:00', '01:00'), at('2028-02-01T00:00:00Z'), at('2028-03-02T00:00:00Z'));
    expect(shown(found)).toEqual([
      ['2028-01-31T23:00:00Z', '2028-02-01T01:00:00Z'],
      ['2028-02-29T23:00:00Z', '2028-03-01T01:00:00Z'],
    ]);
  });

  it('counts an interval through a leap day, from the start date in the window zone', () => {
    const window = schedule({
      strategy: 'interval',
      timezone: 'Europe/Berlin',
      // 2028-02-27 23:30 UTC is already the 28th in Berlin: days count from the 28th.
      startAt: new Date('2028-02-27T23:30:00Z'),
      intervalDays: 1,
      startTime: '23:30',
      endTime: '00:30',
    });
    const found = occurrencesBetween(window, at('2028-02-27T00:00:00Z'), at('2028-03-02T00:00:00Z'));
    expect(shown(found)).toEqual([
      ['2028-02-28T22:30:00Z', '2028-02-28T23:30:00Z'],
      ['2028-02-29T22:30:00Z', '2028-02-29T23:30:00Z'],
      ['2028-03-01T22:30:00Z', '2028-03-01T23:30:00Z'],
    ]);
  });

  it('steps an interval of 3 days from its anchor and knows the next one', () => {
    const window = schedule({
      strategy: 'interval',
      startAt: new Date('2026-01-01T00:00:00Z'),
      intervalDays: 3,
      startTime: '04:00',
      endTime: '05:00',
    });
    expect(year('2026-01-01T00:00:00Z', '2026-01-10T00:00:00Z', window)).toEqual([
      '2026-01-01T04:00:00Z',
      '2026-01-04T04:00:00Z',
      '2026-01-07T04:00:00Z',
    ]);
    expect(iso(nextOccurrence(window, at('2026-01-07T04:00:00Z'))!.start)).toBe('2026-01-10T04:00:00Z');
  });
});

describe('bounds, single windows and what covers an instant', () => {
  it('clips a recurrence to its start and end', () => {
    const window = {
      ...weekly('UTC', [1, 3], '10:00', '12:00'),
      startAt: new Date('2026-06-01T11:00:00Z'),
      endAt: new Date('2026-06-03T11:30:00Z'),
    };
    expect(shown(occurrencesBetween(window, at('2026-05-25T00:00:00Z'), at('2026-06-15T00:00:00Z')))).toEqual([
      ['2026-06-01T11:00:00Z', '2026-06-01T12:00:00Z'],
      ['2026-06-03T10:00:00Z', '2026-06-03T11:30:00Z'],
    ]);
    expect(nextOccurrence(window, at('2026-06-03T10:00:00Z'))).toBeNull();
  });

  it('has one occurrence for a single window, none for a manual one', () => {
    const single = schedule({ strategy: 'single', startAt: new Date('2026-06-01T10:00:00Z'), endAt: new Date('2026-06-01T12:00:00Z') });
    expect(occurrenceAt(single, at('2026-06-01T09:59:59Z'))).toBeNull();
    expect(shown([occurrenceAt(single, at('2026-06-01T10:00:00Z'))!])).toEqual([['2026-06-01T10:00:00Z', '2026-06-01T12:00:00Z']]);
    expect(occurrenceAt(single, at('2026-06-01T12:00:00Z'))).toBeNull();
    expect(nextOccurrence(single, at('2026-05-01T00:00:00Z'))!.start).toBe(at('2026-06-01T10:00:00Z'));
    expect(occurrencesBetween(schedule({ strategy: 'manual' }), 0, at('2030-01-01T00:00:00Z'))).toEqual([]);
  });

  it('skips occurrences before `notBefore` (one ended early)', () => {
    const window = weekly('UTC', [1], '10:00', '12:00');
    const monday = at('2026-06-01T11:00:00Z');
    expect(occurrenceAt(window, monday, at('2026-06-01T12:00:00Z'))).toBeNull();
    expect(iso(nextOccurrence(window, monday, at('2026-06-01T12:00:00Z'))!.start)).toBe('2026-06-08T10:00:00Z');
  });

  it('takes the earliest of overlapping occurrences, and joins them into one span', () => {
    // Every hour for two hours: each run overlaps the next.
    const window = schedule({ strategy: 'cron', cron: '0 * * * *', durationMinutes: 120, endAt: new Date('2026-06-01T05:00:00Z') });
    const covering = occurrenceAt(window, at('2026-06-01T02:30:00Z'))!;
    expect(iso(covering.start)).toBe('2026-06-01T01:00:00Z');
    expect(iso(spanEnd(window, covering))).toBe('2026-06-01T05:00:00Z');
    const spans = merge(occurrencesBetween(window, at('2026-06-01T00:00:00Z'), at('2026-06-02T00:00:00Z')));
    // The run of 23:00 the day before still runs at midnight.
    expect(shown(spans)).toEqual([['2026-05-31T23:00:00Z', '2026-06-01T05:00:00Z']]);
  });

  it('joins touching occurrences and keeps apart separate ones', () => {
    expect(
      shown(
        merge([
          { start: 30, end: 40 },
          { start: 0, end: 10 },
          { start: 10, end: 20 },
          { start: 35, end: null },
        ]),
      ),
    ).toEqual([
      [iso(0), iso(20)],
      [iso(30), null],
    ]);
  });
});
