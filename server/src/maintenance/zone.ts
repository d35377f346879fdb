/**
 * Local wall time in an IANA zone, by offset arithmetic on `Intl.DateTimeFormat` (no zone database of our own).
 * Local calendar days are counted as whole days since 1970-01-01 ("day numbers"), so date arithmetic never meets a
 * zone. One rule for times a zone skips or repeats (docs/decisions.md, "Maintenance windows"): a local time inside a
 * spring-forward gap is the instant the clocks jumped (02:30 on such a day in Berlin starts at 03:00), and a local
 * time that happens twice is its first, earlier, instant.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timezone, format);
  }
  return format;
}

/** The zone's canonical name (`europe/berlin` → `Europe/Berlin`), or null when it is not an IANA zone this runtime knows. */
export function canonicalZone(timezone: string): string | null {
  // Names only: Intl also takes offsets such as +01:00 on newer runtimes, which follow no daylight-saving rules.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(timezone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Milliseconds the zone's wall clock is ahead of UTC at instant `at`. */
export function offsetMs(timezone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatFor(timezone).formatToParts(new Date(at))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The local day number and minute of the day of instant `at`. */
export function localTime(timezone: string, at: number): { day: number; minute: number } {
  const wall = at + offsetMs(timezone, at);
  return { day: Math.floor(wall / DAY_MS), minute: Math.floor((wall % DAY_MS) / MINUTE_MS) };
}

/** 0 (Sunday) … 6 (Saturday) of a day number (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Year, month (1–12) and day of the month of a day number. */
export function dateOf(day: number): { year: number; month: number; date: number } {
  const at = new Date(day * DAY_MS);
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, date: at.getUTCDate() };
}

/** The day number of a calendar date. */
export function dayOf(year: number, month: number, date: number): number {
  return Date.UTC(year, month - 1, date) / DAY_MS;
}

/** Days in the month of a day number. */
export function daysInMonth(day: number): number {
  const { year, month } = dateOf(day);
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The instant of local `minute` on local `day` in the zone. The candidates are the wall time read with the offsets
 * a day before and a day after; those that read back as that wall time are real (two in a repeated hour: the earlier
 * wins). None is real inside a gap: then the instant of the jump, found between the two candidates.
 */
export function zonedInstant(timezone: string, day: number, minute: number): number {
  const wall = day * DAY_MS + minute * MINUTE_MS;
  const before = offsetMs(timezone, wall - DAY_MS);
  const after = offsetMs(timezone, wall + DAY_MS);
  const real = [wall - before, wall - after].filter((at) => offsetMs(timezone, at) === wall - at);
  if (real.length) return Math.min(...real);
  // In the gap the clocks jumped forward: `wall - after` is before the jump, `wall - before` after it.
  let low = wall - after;
  let high = wall - before;
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (offsetMs(timezone, middle) === after) high = middle;
    else low = middle;
  }
  return high;
}
