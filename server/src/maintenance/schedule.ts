import { Cron } from 'croner';
import type { MaintenanceStrategy, MonthDay } from '@vigil/proto';
import { dateOf, DAY_MS, daysInMonth, localTime, MINUTE_MS, weekdayOf, zonedInstant } from './zone';

/**
 * Expanding a window's schedule into occurrences, pure: every strategy but `manual` (which has none: it is on while
 * switched on). Times of day, days and cron fields are read in the window's IANA zone (zone.ts has the rule for times
 * a zone skips or repeats). A recurring window's `startAt`/`endAt` clip its occurrences: one running across a bound
 * is cut there. Occurrences of one window may overlap or touch (a cron run every hour lasting two); they are listed
 * apart here, and `merge` joins them where a span matters (the calendar, ending one early).
 */

export interface Schedule {
  strategy: MaintenanceStrategy;
  timezone: string;
  startAt: Date | null;
  endAt: Date | null;
  weekdays: number[];
  daysOfMonth: MonthDay[];
  /** `HH:MM`. */
  startTime: string | null;
  endTime: string | null;
  intervalDays: number | null;
  cron: string | null;
  durationMinutes: number | null;
}

/** One occurrence, as epoch milliseconds; `end` null: open (a manual window). */
export interface Occurrence {
  start: number;
  end: number | null;
}

/** How far ahead a next occurrence is looked for: an interval may be 3,650 days long. */
const HORIZON_DAYS = 3_700;
/** Cron runs one listing walks at most (a run every minute for 62 days is 89,280). */
const CRON_RUNS_MAX = 100_000;

/** Minutes since midnight of `HH:MM`, or null when it is not one. */
export function minutesOf(time: string | null): number | null {
  const match = time === null ? null : /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

const parsed = new Map<string, Cron | string>();

/** The parsed cron of a window (five fields, minute precision), or the parser's complaint; the last few are kept. */
export function parseCron(expression: string, timezone = 'UTC'): Cron | string {
  const key = `${timezone} ${expression}`;
  let cron = parsed.get(key);
  if (cron === undefined) {
    try {
      cron = new Cron(expression, { timezone, mode: '5-part', paused: true });
    } catch (error) {
      cron = (error as Error).message;
    }
    if (parsed.size >= 500) parsed.delete(parsed.keys().next().value!);
    parsed.set(key, cron);
  }
  return cron;
}

/**
 * The raw occurrences whose end is after `from`, in order of start; the generator stops past the horizon, past the
 * recurrence's `endAt`, or when the caller stops asking.
 */
function* raw(schedule: Schedule, from: number): Generator<Occurrence> {
  switch (schedule.strategy) {
    case 'manual':
      return;
    case 'single':
      if (schedule.startAt && schedule.endAt && schedule.endAt.getTime() > from)
        yield { start: schedule.startAt.getTime(), end: schedule.endAt.getTime() };
      return;
    case 'cron':
      yield* cronRuns(schedule, from);
      return;
    default:
      yield* dailyRuns(schedule, from);
  }
}

/** Whether a local day starts an occurrence of a weekly, monthly or interval window. */
function dayMatcher(schedule: Schedule): (day: number) => boolean {
  switch (schedule.strategy) {
    case 'weekly': {
      const days = new Set(schedule.weekdays);
      return (day) => days.has(weekdayOf(day));
    }
    case 'monthly': {
      const days = new Set(schedule.daysOfMonth);
      // A day the month does not have (the 31st in April) is skipped; `last` is the month's last day whatever it is.
      return (day) => days.has(dateOf(day).date) || (days.has('last') && dateOf(day).date === daysInMonth(day));
    }
    case 'interval': {
      if (!schedule.startAt || !schedule.intervalDays) return () => false;
      const anchor = localTime(schedule.timezone, schedule.startAt.getTime()).day;
      const every = schedule.intervalDays;
      return (day) => day >= anchor && (day - anchor) % every === 0;
    }
    default:
      return () => false;
  }
}

/** Weekly, monthly, interval: from `startTime` on each matching local day to `endTime` that day, or the next when at or before the start. */
function* dailyRuns(schedule: Schedule, from: number): Generator<Occurrence> {
  const startMinute = minutesOf(schedule.startTime);
  const endMinute = minutesOf(schedule.endTime);
  if (startMinute === null || endMinute === null) return;
  const matches = dayMatcher(schedule);
  const crosses = endMinute <= startMinute;
  // An occurrence that started the local day before may still run at `from`.
  const first = localTime(schedule.timezone, from).day - 1;
  const stop = schedule.endAt?.getTime() ?? Infinity;
  for (let day = first; day <= first + HORIZON_DAYS; day++) {
    if (!matches(day)) continue;
    const start = zonedInstant(schedule.timezone, day, startMinute);
    if (start >= stop) return;
    const end = zonedInstant(schedule.timezone, crosses ? day + 1 : day, endMinute);
    // A window wholly inside a skipped hour has no length that day.
    if (end > from && end > start) yield { start, end };
  }
}

/** Cron: each run lasts `durationMinutes`; runs are read in the window's zone by croner (its DST rule is ours). */
function* cronRuns(schedule: Schedule, from: number): Generator<Occurrence> {
  const cron = schedule.cron === null ? null : parseCron(schedule.cron, schedule.timezone);
  if (!cron || typeof cron === 'string' || !schedule.durationMinutes) return;
  const length = schedule.durationMinutes * MINUTE_MS;
  const stop = Math.min(schedule.endAt?.getTime() ?? Infinity, from + HORIZON_DAYS * DAY_MS);
  // A run that started less than a duration before `from` still runs at `from`.
  let run = cron.nextRun(new Date(from - length));
  for (let count = 0; run && run.getTime() < stop && count < CRON_RUNS_MAX; count++) {
    yield { start: run.getTime(), end: run.getTime() + length };
    run = cron.nextRun(run);
  }
}

/** A recurring occurrence cut to the recurrence's bounds; null when nothing of it is left. */
function clip(schedule: Schedule, occurrence: Occurrence): Occurrence | null {
  if (schedule.strategy === 'single' || schedule.strategy === 'manual') return occurrence;
  const start = Math.max(occurrence.start, schedule.startAt?.getTime() ?? -Infinity);
  const end = Math.min(occurrence.end ?? Infinity, schedule.endAt?.getTime() ?? Infinity);
  return end > start ? { start, end: end === Infinity ? null : end } : null;
}

/** Occurrences that start at or after `notBefore` (one ended early is skipped until then), clipped, in start order. */
function* occurrences(schedule: Schedule, from: number, notBefore: number | null): Generator<Occurrence> {
  for (const occurrence of raw(schedule, from)) {
    const clipped = clip(schedule, occurrence);
    if (clipped && (notBefore === null || clipped.start >= notBefore)) yield clipped;
  }
}

/** Every occurrence overlapping [from, to), in start order. */
export function occurrencesBetween(schedule: Schedule, from: number, to: number, notBefore: number | null = null): Occurrence[] {
  const found: Occurrence[] = [];
  for (const occurrence of occurrences(schedule, from, notBefore)) {
    if (occurrence.start >= to) break;
    if ((occurrence.end ?? Infinity) > from) found.push(occurrence);
  }
  return found;
}

/** The occurrence covering instant `at` (start ≤ at < end), the earliest-started when several do; null when none. */
export function occurrenceAt(schedule: Schedule, at: number, notBefore: number | null = null): Occurrence | null {
  for (const occurrence of occurrences(schedule, at, notBefore)) {
    if (occurrence.start > at) return null;
    if ((occurrence.end ?? Infinity) > at) return occurrence;
  }
  return null;
}

/** The first occurrence starting after `after`; null when the recurrence has none left (within the horizon). */
export function nextOccurrence(schedule: Schedule, after: number, notBefore: number | null = null): Occurrence | null {
  for (const occurrence of occurrences(schedule, after, notBefore)) {
    if (occurrence.start > after) return occurrence;
  }
  return null;
}

/**
 * The end of the span `occurrence` begins: occurrences that overlap or touch it continue it (a run every hour lasting
 * two is one span). Bounded: at most a thousand occurrences are joined. Null: open-ended.
 */
export function spanEnd(schedule: Schedule, occurrence: Occurrence): number | null {
  let end = occurrence.end;
  for (let joined = 0; end !== null && joined < 1000; joined++) {
    const next = occurrenceAt(schedule, end);
    if (!next || (next.end !== null && next.end <= end)) break;
    end = next.end;
  }
  return end;
}

/** Overlapping or touching occurrences joined into spans, in start order. */
export function merge(list: Occurrence[]): Occurrence[] {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  const spans: Occurrence[] = [];
  for (const occurrence of sorted) {
    const last = spans[spans.length - 1];
    if (last && (last.end === null || occurrence.start <= last.end)) {
      last.end = last.end === null || occurrence.end === null ? null : Math.max(last.end, occurrence.end);
    } else {
      spans.push({ ...occurrence });
    }
  }
  return spans;
}
