import {
  MAINTENANCE_LIMITS,
  type MaintenanceDto,
  type MaintenanceStrategy,
  type MonthDay,
  type SaveMaintenanceRequest,
} from '@vigil/proto';
import { idsOf, type PickedRef, refsOf } from '../componentPicker/refs';
import { browserTimeZone, instantOfLocal, localInputOf } from './zoned';

/**
 * The window as the form holds it: every strategy's fields at once (switching strategy keeps what was typed), dates
 * as `datetime-local` values on the window's own zone's clock, and the scope as picked components.
 */
export interface MaintenanceForm {
  title: string;
  description: string;
  strategy: MaintenanceStrategy;
  timezone: string;
  /** Manual: on now; others: not paused. */
  enabled: boolean;
  /** single: the window; interval: the first day counted from; weekly, monthly, cron: optional bounds. */
  startAt: string;
  endAt: string;
  weekdays: number[];
  daysOfMonth: MonthDay[];
  startTime: string;
  endTime: string;
  intervalDays: number;
  cron: string;
  durationMinutes: number;
  scopeAll: boolean;
  components: PickedRef[];
  pages: string[];
  notify: boolean;
  endWhenHealthy: boolean;
  endWhenHealthyMinutes: number;
}

export function newMaintenanceForm(timezone = browserTimeZone()): MaintenanceForm {
  return {
    title: '',
    description: '',
    strategy: 'single',
    timezone,
    enabled: true,
    startAt: '',
    endAt: '',
    weekdays: [],
    daysOfMonth: [],
    startTime: '02:00',
    endTime: '04:00',
    intervalDays: 7,
    cron: '0 3 * * 0',
    durationMinutes: 60,
    scopeAll: false,
    components: [],
    pages: [],
    notify: false,
    endWhenHealthy: false,
    endWhenHealthyMinutes: 10,
  };
}

export function formOfMaintenance(saved: MaintenanceDto): MaintenanceForm {
  const blank = newMaintenanceForm(saved.timezone);
  return {
    ...blank,
    title: saved.title,
    description: saved.description,
    strategy: saved.strategy,
    timezone: saved.timezone,
    enabled: saved.enabled,
    startAt: localInputOf(saved.start_at, saved.timezone),
    endAt: localInputOf(saved.end_at, saved.timezone),
    weekdays: [...saved.weekdays],
    daysOfMonth: [...saved.days_of_month],
    startTime: saved.start_time ?? blank.startTime,
    endTime: saved.end_time ?? blank.endTime,
    intervalDays: saved.interval_days ?? blank.intervalDays,
    cron: saved.cron ?? blank.cron,
    durationMinutes: saved.duration_minutes ?? blank.durationMinutes,
    scopeAll: saved.scope.all,
    components: refsOf(saved.scope),
    pages: [...saved.pages],
    notify: saved.notify,
    endWhenHealthy: saved.end_when_healthy_minutes !== null,
    endWhenHealthyMinutes: saved.end_when_healthy_minutes ?? blank.endWhenHealthyMinutes,
  };
}

/** Days of the month in calendar order, the last day after the numbered ones. */
export function sortedDays(days: readonly MonthDay[]): MonthDay[] {
  const numbers = days.filter((day): day is number => typeof day === 'number').sort((a, b) => a - b);
  return days.includes('last') ? [...numbers, 'last'] : numbers;
}

/** The strategy's own fields of the body; the others are left out, as a save replaces the whole window. */
function scheduleFields(form: MaintenanceForm): Partial<SaveMaintenanceRequest> {
  const at = (local: string) => instantOfLocal(local, form.timezone);
  const times = { startTime: form.startTime, endTime: form.endTime };
  const bounds = { startAt: at(form.startAt), endAt: at(form.endAt) };
  switch (form.strategy) {
    case 'manual':
      return {};
    case 'single':
      return bounds;
    case 'weekly':
      return { ...bounds, weekdays: [...form.weekdays].sort((a, b) => a - b), ...times };
    case 'monthly':
      return { ...bounds, daysOfMonth: sortedDays(form.daysOfMonth), ...times };
    case 'interval':
      return { ...bounds, intervalDays: form.intervalDays, ...times };
    case 'cron':
      return { ...bounds, cron: form.cron.trim(), durationMinutes: form.durationMinutes };
  }
}

/** The body of `POST /api/maintenance` and `PUT /api/maintenance/{id}`. */
export function maintenanceRequest(form: MaintenanceForm): SaveMaintenanceRequest {
  const all = form.scopeAll;
  return {
    title: form.title.trim(),
    description: form.description,
    strategy: form.strategy,
    timezone: form.timezone,
    enabled: form.enabled,
    ...scheduleFields(form),
    scope: {
      all,
      monitors: all ? [] : idsOf(form.components, 'monitor'),
      agents: all ? [] : idsOf(form.components, 'agent'),
      groups: all ? [] : idsOf(form.components, 'group'),
    },
    pages: form.pages,
    notify: form.notify,
    endWhenHealthyMinutes: form.endWhenHealthy ? form.endWhenHealthyMinutes : null,
  };
}

export type MaintenanceField =
  | 'title'
  | 'startAt'
  | 'endAt'
  | 'weekdays'
  | 'daysOfMonth'
  | 'times'
  | 'intervalDays'
  | 'cron'
  | 'durationMinutes'
  | 'scope'
  | 'endWhenHealthyMinutes';

export type MaintenanceErrorKey =
  | 'maintenance.validation.titleRequired'
  | 'maintenance.validation.startRequired'
  | 'maintenance.validation.endRequired'
  | 'maintenance.validation.endBeforeStart'
  | 'maintenance.validation.weekdays'
  | 'maintenance.validation.days'
  | 'maintenance.validation.times'
  | 'maintenance.validation.intervalDays'
  | 'maintenance.validation.cron'
  | 'maintenance.validation.duration'
  | 'maintenance.validation.scope'
  | 'maintenance.validation.healthyMinutes';

export type MaintenanceErrors = Partial<Record<MaintenanceField, MaintenanceErrorKey>>;

const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const wholeIn = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

/** What must be filled for the chosen strategy; the server checks the expression, the zone and everything again. */
export function validateMaintenance(form: MaintenanceForm): MaintenanceErrors {
  const errors: MaintenanceErrors = {};
  if (form.title.trim() === '') errors.title = 'maintenance.validation.titleRequired';
  const start = instantOfLocal(form.startAt, form.timezone);
  const end = instantOfLocal(form.endAt, form.timezone);
  const recurring = form.strategy !== 'manual' && form.strategy !== 'single';
  if (form.strategy === 'single') {
    if (!start) errors.startAt = 'maintenance.validation.startRequired';
    if (!end) errors.endAt = 'maintenance.validation.endRequired';
  }
  if (form.strategy === 'interval' && !start) errors.startAt = 'maintenance.validation.startRequired';
  if ((form.strategy === 'single' || recurring) && start && end && Date.parse(end) <= Date.parse(start)) {
    errors.endAt = 'maintenance.validation.endBeforeStart';
  }
  if (form.strategy === 'weekly' && form.weekdays.length === 0) errors.weekdays = 'maintenance.validation.weekdays';
  if (form.strategy === 'monthly' && form.daysOfMonth.length === 0) errors.daysOfMonth = 'maintenance.validation.days';
  if (
    ['weekly', 'monthly', 'interval'].includes(form.strategy) &&
    !(TIME_PATTERN.test(form.startTime) && TIME_PATTERN.test(form.endTime))
  ) {
    errors.times = 'maintenance.validation.times';
  }
  if (form.strategy === 'interval' && !wholeIn(form.intervalDays, 1, MAINTENANCE_LIMITS.intervalDaysMax)) {
    errors.intervalDays = 'maintenance.validation.intervalDays';
  }
  if (form.strategy === 'cron') {
    if (form.cron.trim().split(/\s+/).length !== 5) errors.cron = 'maintenance.validation.cron';
    if (!wholeIn(form.durationMinutes, 1, MAINTENANCE_LIMITS.durationMinutesMax))
      errors.durationMinutes = 'maintenance.validation.duration';
  }
  if (!form.scopeAll && form.components.length === 0) errors.scope = 'maintenance.validation.scope';
  if (form.endWhenHealthy && !wholeIn(form.endWhenHealthyMinutes, 1, MAINTENANCE_LIMITS.endWhenHealthyMinutesMax)) {
    errors.endWhenHealthyMinutes = 'maintenance.validation.healthyMinutes';
  }
  return errors;
}
