/** Days the bars can cover: the longest history range a page may show, and the longest range of an uptime badge. */
export const BAR_DAYS = 90;
const DAY_MS = 86_400_000;

/** The UTC day a moment falls on, as days since the epoch: the bars' days are UTC days, as the hourly aggregates are. */
export const epochDay = (ms: number): number => Math.floor(ms / DAY_MS);

/** `YYYY-MM-DD` of an epoch day. */
export const dayDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Percent with two decimals; null without data. */
export const percentOf = (up: number, total: number): number | null =>
  total > 0 ? Math.round(Math.min(1, Math.max(0, up / total)) * 10_000) / 100 : null;

/**
 * One component's counts per UTC day: successful and all checks for a monitor (as `monitor_hourly` counts them),
 * reported and observed seconds for an agent. Days before the first one held read as no data.
 */
export class DayCounts {
  private up: number[] = [];
  private total: number[] = [];

  constructor(private first: number) {}

  add(day: number, up: number, total: number): void {
    if (day < this.first) return;
    // Keep at most two ranges' worth: a long-lived entry (patched for months) drops its oldest days.
    if (day - this.first >= 2 * BAR_DAYS) {
      const drop = day - this.first - BAR_DAYS;
      this.up.splice(0, drop);
      this.total.splice(0, drop);
      this.first += drop;
    }
    const index = day - this.first;
    while (this.up.length <= index) {
      this.up.push(0);
      this.total.push(0);
    }
    this.up[index] += up;
    this.total[index] += total;
  }

  /** Daily uptime for the `count` days ending with `last`, oldest first. */
  days(last: number, count: number): Array<number | null> {
    const days: Array<number | null> = [];
    for (let day = last - count + 1; day <= last; day += 1) {
      const index = day - this.first;
      days.push(index >= 0 && index < this.up.length ? percentOf(this.up[index], this.total[index]) : null);
    }
    return days;
  }

  /** Uptime over the `count` days ending with `last`. */
  uptime(last: number, count: number): number | null {
    let up = 0;
    let total = 0;
    for (let day = Math.max(this.first, last - count + 1); day <= last; day += 1) {
      const index = day - this.first;
      if (index >= this.up.length) break;
      up += this.up[index];
      total += this.total[index];
    }
    return percentOf(up, total);
  }
}

/** An agent's seconds in one UTC day that it was known to exist: from its creation (or the day's start) to now (or the day's end). */
export function observedSeconds(day: number, createdAtMs: number, nowMs: number): number {
  const start = Math.max(day * DAY_MS, createdAtMs);
  const end = Math.min((day + 1) * DAY_MS, nowMs);
  return Math.max(0, Math.round((end - start) / 1000));
}

/**
 * Monitors' daily counts, shared by every page on this instance: read once per monitor for the last BAR_DAYS days
 * (one query for all the monitors a page build misses), then kept current by the checks each instance hears, so a
 * page rebuilt after a configuration change does not read 10,000 monitors × 90 days of aggregates again.
 */
export class MonitorBars {
  private readonly byId = new Map<number, DayCounts>();

  get(id: number): DayCounts | undefined {
    return this.byId.get(id);
  }

  missing(ids: Iterable<number>): number[] {
    return [...ids].filter((id) => !this.byId.has(id));
  }

  /** Stores what the database read (a check stored while it read may be missed: one check in a day's bar). */
  set(id: number, counts: DayCounts): void {
    this.byId.set(id, counts);
  }

  /** Counts a stored check into its day, for a monitor whose history is held (else the next read has it). */
  count(id: number, ok: boolean, atMs: number): void {
    this.byId.get(id)?.add(epochDay(atMs), ok ? 1 : 0, 1);
  }

  forget(id: number): void {
    this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
