import type { MaintenanceDto, MaintenancePhase, MaintenanceSchedule } from '@vigil/proto';
import type { TFunction } from 'i18next';
import { sortedDays } from './form';

/** Phase colours: maintenance is blue everywhere (monitors in a window too). */
export const PHASE_COLORS: Record<MaintenancePhase, string> = { active: 'blue', scheduled: 'cyan', ended: 'gray', paused: 'yellow' };

/** Weekday names 0 (Sunday) … 6 in the language, as the strategy numbers them. */
export function weekdayNames(language: string, width: 'short' | 'long' = 'short'): string[] {
  const format = new Intl.DateTimeFormat(language, { weekday: width, timeZone: 'UTC' });
  // 1 January 2023 was a Sunday.
  return Array.from({ length: 7 }, (_, day) => format.format(Date.UTC(2023, 0, 1 + day)));
}

/** An instant on a zone's clock (the browser's when none is given), with date and time. */
export function formatInstant(iso: string | null, language: string, timeZone?: string): string {
  const instant = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(instant)) return '-';
  return new Date(instant).toLocaleString(language, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
}

/** The window's schedule in one line, read on its own zone's clock: "Mon, Wed 02:00–04:00 (Europe/Berlin)". */
export function scheduleSummary(t: TFunction, language: string, schedule: MaintenanceSchedule): string {
  const zone = schedule.timezone;
  const range = { start: schedule.start_time ?? '', end: schedule.end_time ?? '' };
  let text: string;
  switch (schedule.strategy) {
    case 'manual':
      return t('maintenance.summary.manual');
    case 'single':
      text = t('maintenance.summary.single', {
        start: formatInstant(schedule.start_at, language, zone),
        end: formatInstant(schedule.end_at, language, zone),
      });
      break;
    case 'weekly': {
      const names = weekdayNames(language);
      text = t('maintenance.summary.weekly', {
        days: [...schedule.weekdays]
          .sort((a, b) => a - b)
          .map((day) => names[day])
          .join(', '),
        ...range,
      });
      break;
    }
    case 'monthly':
      text = t('maintenance.summary.monthly', {
        days: sortedDays(schedule.days_of_month)
          .map((day) => (day === 'last' ? t('maintenance.form.lastDay') : String(day)))
          .join(', '),
        ...range,
      });
      break;
    case 'interval':
      text = t('maintenance.summary.interval', { count: schedule.interval_days ?? 0, ...range });
      break;
    case 'cron':
      text = t('maintenance.summary.cron', { cron: schedule.cron ?? '', minutes: schedule.duration_minutes ?? 0 });
      break;
  }
  return `${text} (${zone})`;
}

/** Where the window stands: under way until when, or when it comes next, or nothing left. */
export function occurrenceSummary(t: TFunction, language: string, item: Pick<MaintenanceDto, 'phase' | 'current'>): string {
  const { current } = item;
  if (!current) return t('maintenance.occurrence.none');
  if (item.phase === 'active') {
    return current.end
      ? t('maintenance.occurrence.activeUntil', { end: formatInstant(current.end, language) })
      : t('maintenance.occurrence.activeOpen');
  }
  return t('maintenance.occurrence.next', {
    start: formatInstant(current.start, language),
    end: current.end ? formatInstant(current.end, language) : t('maintenance.occurrence.open'),
  });
}

/** What the window covers, counted: "everything" or "3 monitors, 1 agent, 2 groups". */
export function scopeSummary(t: TFunction, scope: MaintenanceDto['scope']): string {
  if (scope.all) return t('maintenance.scope.everything');
  const parts = [
    scope.monitors.length ? t('maintenance.scope.monitors', { count: scope.monitors.length }) : null,
    scope.agents.length ? t('maintenance.scope.agents', { count: scope.agents.length }) : null,
    scope.groups.length ? t('maintenance.scope.groups', { count: scope.groups.length }) : null,
  ].filter((part): part is string => part !== null);
  return parts.length ? parts.join(', ') : t('maintenance.scope.nothing');
}
