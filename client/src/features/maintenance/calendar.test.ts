import { describe, expect, it } from 'vitest';
import { dayKey, gridRange, monthGrid, occurrencesByDay, shiftMonth } from './calendar';

const occurrence = (id: number, start: string, end: string | null) => ({ id, title: `w${id}`, start, end });

describe('the month grid', () => {
  it('holds six whole weeks starting on Monday, the month inside', () => {
    const days = monthGrid(2025, 1); // February 2025 starts on a Saturday.
    expect(days).toHaveLength(42);
    expect(days[0].key).toBe('2025-01-27');
    expect(days[0].start.getDay()).toBe(1);
    expect(days.filter((day) => day.inMonth).map((day) => day.key)).toHaveLength(28);
    expect(days[5].key).toBe('2025-02-01');
  });

  it('counts a leap February', () => {
    expect(monthGrid(2028, 1).filter((day) => day.inMonth)).toHaveLength(29);
  });

  it('starts on Sunday when asked', () => {
    expect(monthGrid(2025, 5, 0)[0].start.getDay()).toBe(0);
  });

  it('covers 42 days, within the server’s 62', () => {
    const { from, to } = gridRange(monthGrid(2025, 2));
    const days = Math.round((to.getTime() - from.getTime()) / 86_400_000);
    expect(days).toBe(42);
  });

  it('turns months across years', () => {
    expect(shiftMonth(2025, 11, 1)).toEqual({ year: 2026, month: 0 });
    expect(shiftMonth(2025, 0, -1)).toEqual({ year: 2024, month: 11 });
  });
});

describe('occurrences by day', () => {
  const days = monthGrid(2025, 5);
  const on = (key: string) => days.findIndex((day) => day.key === key);
  const local = (key: string, hour: number) => {
    const [year, month, day] = key.split('-').map(Number);
    return new Date(year, month - 1, day, hour).toISOString();
  };

  it('puts an occurrence on every day it touches, earliest first', () => {
    const byDay = occurrencesByDay(days, [
      occurrence(2, local('2025-06-10', 22), local('2025-06-11', 2)),
      occurrence(1, local('2025-06-10', 8), local('2025-06-10', 9)),
    ]);
    expect(byDay[on('2025-06-10')].map((entry) => entry.id)).toEqual([1, 2]);
    expect(byDay[on('2025-06-11')].map((entry) => entry.id)).toEqual([2]);
    expect(byDay[on('2025-06-12')]).toEqual([]);
  });

  it('does not put an occurrence ending at midnight on the next day', () => {
    const byDay = occurrencesByDay(days, [occurrence(3, local('2025-06-14', 20), local('2025-06-15', 0))]);
    expect(byDay[on('2025-06-15')]).toEqual([]);
  });

  it('keeps an open occurrence (a manual window) on every later day', () => {
    const byDay = occurrencesByDay(days, [occurrence(4, local('2025-06-20', 12), null)]);
    expect(byDay[on('2025-06-19')]).toEqual([]);
    expect(byDay[on('2025-06-20')]).toHaveLength(1);
    expect(byDay[days.length - 1]).toHaveLength(1);
  });

  it('names local days', () => {
    expect(dayKey(new Date(2025, 0, 5))).toBe('2025-01-05');
  });
});
