/**
 * Wall-clock times in an IANA zone, for the form: a window's dates and times are typed as the window's zone reads
 * them (09:00 in Europe/Berlin), whatever the browser's own zone, and sent as instants.
 */

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let held = formatters.get(timeZone);
  if (!held) {
    held = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, held);
  }
  return held;
}

/** The zone's wall clock at an instant. */
export function wallClock(instant: number, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
  };
}

/** Minutes the zone is ahead of UTC at an instant. */
export function offsetMinutes(instant: number, timeZone: string): number {
  const clock = wallClock(instant, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute);
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as a `datetime-local` value (`YYYY-MM-DDTHH:MM`) on the zone's clock; '' for none. */
export function localInputOf(iso: string | null, timeZone: string): string {
  const instant = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(instant)) return '';
  const clock = wallClock(instant, timeZone);
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`;
}

/**
 * A `datetime-local` value read on the zone's clock, as an ISO instant; null when empty or malformed. A time that
 * does not exist on the zone's clock (skipped by a DST change) lands after the gap, as the server reads it.
 */
export function instantOfLocal(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset near the time, then at the instant it gives: they differ only around a DST change.
  const first = asUtc - offsetMinutes(asUtc, timeZone) * 60_000;
  const second = asUtc - offsetMinutes(first, timeZone) * 60_000;
  const instant = offsetMinutes(second, timeZone) === offsetMinutes(first, timeZone) ? second : Math.max(first, second);
  return new Date(instant).toISOString();
}

/** The browser's zone, the form's default. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the browser knows, UTC included, for the zone picker. */
export function timeZones(): string[] {
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = new Set(supported);
  zones.add('UTC');
  zones.add(browserTimeZone());
  return [...zones].sort();
}
