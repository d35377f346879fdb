/**
 * Kuma maintenance windows, status pages and incidents → ours. Kuma keeps a window's dates as wall times of its own
 * timezone (`SAME_AS_SERVER`: Kuma's server zone, unknown here, read as UTC and noted).
 */
import type { ConfigMaintenance, ConfigStatusPage, IncidentImpact, MaintenanceStrategy } from '@vigil/proto';
import { canonicalZone, dayOf, zonedInstant } from '../maintenance/zone';
import type { KumaRow } from './kuma-file';
import { bool, int, json, kumaKey, text } from './kuma-values';

const STRATEGIES: Record<string, MaintenanceStrategy> = {
  manual: 'manual',
  single: 'single',
  'recurring-weekday': 'weekly',
  'recurring-day-of-month': 'monthly',
  'recurring-interval': 'interval',
  cron: 'cron',
};

/** `2030-01-05 22:00:00` read in the zone → an ISO instant. */
export function kumaLocalInstant(value: unknown, timezone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(text(value) ?? '');
  if (!match) return null;
  const [, year, month, date, hour, minute] = match.map(Number);
  return new Date(zonedInstant(timezone, dayOf(year, month, date), hour * 60 + minute)).toISOString();
}

/** `HH:mm` or `HH:mm:ss`; Kuma 1.x also stored `{ hours, minutes }` objects. */
function timeOfDay(value: unknown): string | null {
  const parsed = json<unknown>(value, value);
  if (parsed && typeof parsed === 'object') {
    const { hours, minutes } = parsed as { hours?: number; minutes?: number };
    return `${String(hours ?? 0).padStart(2, '0')}:${String(minutes ?? 0).padStart(2, '0')}`;
  }
  const match = /^(\d{1,2}):(\d{2})/.exec(text(value) ?? '');
  return match ? `${match[1].padStart(2, '0')}:${match[2]}` : null;
}

export interface MaintenanceRefs {
  /** Kuma monitor id → our key and whether it is a group. */
  monitors: Map<number, { key: string; group: boolean }>;
  pageSlugs: Map<number, string>;
}

export function mapMaintenance(
  row: KumaRow,
  targets: number[],
  pages: number[],
  refs: MaintenanceRefs,
  notes: string[],
): ConfigMaintenance | null {
  const strategy = STRATEGIES[String(row.strategy)];
  if (!strategy) return null;
  const zone = text(row.timezone);
  const timezone = zone && zone !== 'SAME_AS_SERVER' ? (canonicalZone(zone) ?? 'UTC') : 'UTC';
  if (zone === 'SAME_AS_SERVER' || (zone && !canonicalZone(zone))) notes.push(`timezone ${zone} → UTC`);
  const covered = targets.map((id) => refs.monitors.get(id)).filter((target) => target !== undefined);
  const recurring = ['weekly', 'monthly', 'interval'].includes(strategy);
  const duration = int(row.duration);
  return {
    key: kumaKey('maintenance', row),
    title: (text(row.title) ?? `Kuma ${String(row.id)}`).slice(0, 150),
    description: text(row.description) ?? '',
    strategy,
    timezone,
    enabled: bool(row.active),
    startAt: strategy === 'manual' || strategy === 'cron' ? null : kumaLocalInstant(row.start_date, timezone),
    endAt: strategy === 'manual' || strategy === 'cron' ? null : kumaLocalInstant(row.end_date, timezone),
    weekdays:
      strategy === 'weekly'
        ? json<number[]>(row.weekdays, [])
            .map(Number)
            .map((day) => day % 7)
        : [],
    daysOfMonth:
      strategy === 'monthly'
        ? json<Array<number | string>>(row.days_of_month, []).map((day) => (String(day).startsWith('lastDay') ? 'last' : Number(day)))
        : [],
    startTime: recurring ? timeOfDay(row.start_time) : null,
    endTime: recurring ? timeOfDay(row.end_time) : null,
    intervalDays: strategy === 'interval' ? (int(row.interval_day) ?? 1) : null,
    cron: strategy === 'cron' ? (text(row.cron) ?? null) : null,
    durationMinutes: strategy === 'cron' && duration ? Math.max(1, Math.round(duration / 60)) : null,
    scope: {
      all: false,
      monitors: covered.filter((target) => !target.group).map((target) => target.key),
      groups: covered.filter((target) => target.group).map((target) => target.key),
      agents: [],
    },
    pages: pages.map((id) => refs.pageSlugs.get(id)).filter((slug) => slug !== undefined),
  };
}

/** Kuma's page: its sections (`group` rows) with their monitors in Kuma's order. */
export function mapStatusPage(row: KumaRow, slug: string, sections: Array<{ name: string; keys: string[] }>): ConfigStatusPage {
  const icon = text(row.icon);
  return {
    slug,
    title: (text(row.title) ?? slug).slice(0, 200),
    description: text(row.description) ?? '',
    footer: text(row.footer_text) ?? '',
    customCss: text(row.custom_css) ?? null,
    // Kuma's uploaded logos live in its data folder, not in the database: only an absolute address comes along.
    ...(icon && /^https?:\/\//.test(icon) ? { logoUrl: icon } : {}),
    groups: sections.map((section) => ({ name: section.name.slice(0, 100), collapsed: false, items: section.keys })),
  };
}

/** An incident as the import stores it (not part of the document: incidents are history, not configuration). */
export interface KumaIncident {
  title: string;
  content: string;
  impact: IncidentImpact;
  createdAt: string;
  /** Kuma unpins an incident when it is over: then it is resolved at its last update. */
  resolvedAt: string | null;
  pageSlug: string;
}

const IMPACTS: Record<string, IncidentImpact> = { danger: 'major', warning: 'minor' };
const kumaUtc = (value: unknown) => {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(text(value) ?? '');
  return match ? `${match[1]}T${match[2]}.000Z` : null;
};

export function mapIncident(row: KumaRow, pageSlug: string): KumaIncident {
  const createdAt = kumaUtc(row.created_date) ?? new Date().toISOString();
  return {
    title: (text(row.title) ?? 'Incident').slice(0, 200),
    content: text(row.content) ?? '',
    impact: IMPACTS[String(row.style)] ?? 'none',
    createdAt,
    resolvedAt: bool(row.pin) ? null : (kumaUtc(row.last_updated_date) ?? createdAt),
    pageSlug,
  };
}

export { kumaUtc };
