import type { IncidentDto, IncidentUpdateDto, PageDayMark, PublicIncident } from '@vigil/proto';
import type { IncidentRow, IncidentUpdateRow } from './incidents.repository';

const DAY_MS = 86_400_000;

export function toIncidentUpdateDto(row: IncidentUpdateRow): IncidentUpdateDto {
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    html: row.html,
    created_at: new Date(row.created_at).toISOString(),
    author: row.author,
  };
}

export function toIncidentDto(row: IncidentRow, updates: IncidentUpdateRow[]): IncidentDto {
  return {
    id: row.id,
    title: row.title,
    impact: row.impact,
    status: row.status,
    published: row.published,
    monitors: row.monitors,
    agents: row.agents,
    pages: row.pages,
    updates: updates.map(toIncidentUpdateDto),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    resolved_at: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
  };
}

/** The keys a page names its components by (`m12`, `a3`), as the page's projection builds them. */
export function componentKeys(row: Pick<IncidentRow, 'monitors' | 'agents'>): string[] {
  return [...row.monitors.map((id) => `m${id}`), ...row.agents.map((id) => `a${id}`)];
}

/** The first instant of the range's first day: `days` UTC dates ending today. */
export function rangeStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** Every UTC date (`YYYY-MM-DD`) from `from` to `to` that falls in the range starting at `start`. */
function datesBetween(from: Date, to: Date, start: Date): string[] {
  const dates: string[] = [];
  const first = Math.max(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()), start.getTime());
  for (let day = first; day <= to.getTime(); day += DAY_MS) dates.push(new Date(day).toISOString().slice(0, 10));
  return dates;
}

export interface PageIncidents {
  active: PublicIncident[];
  history: PublicIncident[];
  marks: PageDayMark[];
}

/**
 * A page's incidents as its visitors see them, from the page's published incidents (unresolved, and resolved within
 * the range) and their timelines: no author, no id of a component the page does not show (`components` holds the
 * page's, key → name). Each incident marks every UTC day it spans within the range, with the page's components it
 * names (none: the whole page).
 */
export function assemblePageIncidents(
  rows: IncidentRow[],
  updates: Map<number, IncidentUpdateRow[]>,
  components: Map<string, string>,
  days: number,
  now: Date,
): PageIncidents {
  const start = rangeStart(now, days);
  const active: PublicIncident[] = [];
  const history: PublicIncident[] = [];
  const marks: PageDayMark[] = [];
  const newestFirst = [...rows].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime() || b.id - a.id);
  for (const row of newestFirst) {
    const keys = componentKeys(row).filter((key) => components.has(key));
    const incident: PublicIncident = {
      id: row.id,
      title: row.title,
      impact: row.impact,
      status: row.status,
      created_at: new Date(row.created_at).toISOString(),
      resolved_at: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
      components: keys.map((key) => components.get(key)!),
      updates: (updates.get(row.id) ?? [])
        .map((update) => ({ status: update.status, html: update.html, created_at: new Date(update.created_at).toISOString() }))
        .reverse(),
    };
    (row.resolved_at ? history : active).push(incident);
    const end = row.resolved_at ? new Date(row.resolved_at) : now;
    for (const date of datesBetween(new Date(row.created_at), end, start)) {
      marks.push({ date, kind: 'incident', id: row.id, title: row.title, components: keys });
    }
  }
  marks.sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  return { active, history, marks };
}
