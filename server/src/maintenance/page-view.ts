import type { PageDayMark, PublicMaintenance } from '@vigil/proto';
import { currentOf } from './maintenance.mapper';
import type { LoggedSpan } from './maintenance.repository';
import type { MaintenanceRow } from './maintenance.types';

const DAY_MS = 86_400_000;

/** What a page shows of its maintenance: windows active now, then scheduled; a mark on each day a span touched. */
export interface PageMaintenance {
  windows: PublicMaintenance[];
  marks: PageDayMark[];
}

/** The first instant of the range's first day: `days` UTC dates ending today. */
export function rangeStart(now: Date, days: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
}

/** Every UTC date (`YYYY-MM-DD`) from `from` to `to` (inclusive) within the range starting at `start`. */
function datesBetween(from: Date, to: Date, start: Date): string[] {
  const dates: string[] = [];
  const first = Math.max(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()), start.getTime());
  for (let day = first; day <= to.getTime(); day += DAY_MS) dates.push(new Date(day).toISOString().slice(0, 10));
  return dates;
}

export interface PageViewInput {
  now: Date;
  sinceDays: number;
  /** The page's components: `m<id>` / `a<id>` → name. */
  components: Map<string, string>;
  /** Windows of the page applied now or with a span ahead, in that order. */
  windows: MaintenanceRow[];
  /** Spans of the page's windows within the range (from the log). */
  spans: LoggedSpan[];
  /** Of each window, the page's components it covers (keys). */
  covered: Map<number, Set<string>>;
  /** Each window's description, rendered safe. */
  html: (row: MaintenanceRow) => string;
}

/**
 * A page's maintenance as its visitors see it. A window names the page's components it covers, and nothing of its
 * scope beyond them; when it covers every component of the page (or none of them: a notice for the whole page) it
 * names none, which reads "the whole page". Marks use component keys the same way, one per window and UTC date.
 */
export function pageMaintenance(input: PageViewInput): PageMaintenance {
  const { components } = input;
  const keysOf = (id: number): string[] => {
    const keys = [...(input.covered.get(id) ?? [])].filter((key) => components.has(key));
    return keys.length === components.size ? [] : keys.sort();
  };
  const windows = input.windows.flatMap((row): PublicMaintenance[] => {
    const current = currentOf(row);
    if (!current) return [];
    return [
      {
        id: row.id,
        title: row.title,
        description_html: input.html(row),
        phase: row.applied_start ? 'active' : 'scheduled',
        start: current.start,
        end: current.end,
        components: keysOf(row.id).map((key) => components.get(key)!),
      },
    ];
  });
  const start = rangeStart(input.now, input.sinceDays);
  const seen = new Set<string>();
  const marks: PageDayMark[] = [];
  for (const span of input.spans) {
    const from = new Date(span.start_at).getTime();
    // A span ending at midnight does not touch the day that begins then.
    const until = span.end_at ? Math.min(new Date(span.end_at).getTime() - 1, input.now.getTime()) : input.now.getTime();
    for (const date of datesBetween(new Date(from), new Date(Math.max(from, until)), start)) {
      const key = `${span.maintenance_id}:${date}`;
      if (seen.has(key)) continue;
      seen.add(key);
      marks.push({ date, kind: 'maintenance', id: span.maintenance_id, title: span.title, components: keysOf(span.maintenance_id) });
    }
  }
  marks.sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  return { windows, marks };
}
