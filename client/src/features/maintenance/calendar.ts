import type { MaintenanceCalendarResponse } from '@vigil/proto';

export type CalendarOccurrence = MaintenanceCalendarResponse['occurrences'][number];

export interface CalendarDay {
  /** Local midnight of the day. */
  start: Date;
  /** Local midnight of the next day (23 or 25 hours later across a DST change). */
  end: Date;
  inMonth: boolean;
  /** `YYYY-MM-DD`, unique within the grid. */
  key: string;
}

/** Weeks the grid always shows: every month fits, and the height does not jump between months. */
export const GRID_WEEKS = 6;

const pad = (value: number) => String(value).padStart(2, '0');

/** A local day as `YYYY-MM-DD`. */
export function dayKey(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The month's grid of whole weeks (6 × 7 local days) starting on `weekStartsOn` (0 Sunday, 1 Monday). */
export function monthGrid(year: number, month: number, weekStartsOn = 1): CalendarDay[] {
  const first = new Date(year, month, 1);
  const lead = (first.getDay() - weekStartsOn + 7) % 7;
  return Array.from({ length: GRID_WEEKS * 7 }, (_, index) => {
    const start = new Date(year, month, 1 - lead + index);
    const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1);
    return {
      start,
      end,
      inMonth: start.getMonth() === month,
      key: dayKey(start),
    };
  });
}

/** The instants the grid covers, for the calendar read (42 days, within the server's 62). */
export function gridRange(days: readonly CalendarDay[]): { from: Date; to: Date } {
  return { from: days[0].start, to: days[days.length - 1].end };
}

/** Each day's occurrences (those overlapping it, an open end lasting on), earliest first. */
export function occurrencesByDay(days: readonly CalendarDay[], occurrences: readonly CalendarOccurrence[]): CalendarOccurrence[][] {
  const sorted = [...occurrences].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return days.map((day) =>
    sorted.filter((occurrence) => {
      const start = Date.parse(occurrence.start);
      const end = occurrence.end === null ? Number.POSITIVE_INFINITY : Date.parse(occurrence.end);
      return start < day.end.getTime() && end > day.start.getTime();
    }),
  );
}

/** The month after (+1) or before (-1) a year and month. */
export function shiftMonth(year: number, month: number, by: number): { year: number; month: number } {
  const date = new Date(year, month + by, 1);
  return { year: date.getFullYear(), month: date.getMonth() };
}
