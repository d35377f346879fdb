import { MESSAGES, type MaintenanceScope, type MessageCode, type MonthDay } from '@vigil/proto';
import { badRequest } from '../common/api-exception';
import type { SaveMaintenanceDto } from './maintenance.dto';
import type { MaintenanceFields } from './maintenance.types';
import { parseCron } from './schedule';
import { canonicalZone } from './zone';

/** Instants a window may name: from 1970 to the end of 9999 (what the calendar and the database both hold). */
const LATEST = Date.UTC(10_000, 0, 1);

/** What a save stores: the window's fields (those its strategy does not use left null), its scope and its pages. */
export interface WindowInput {
  fields: MaintenanceFields;
  scope: MaintenanceScope;
  pages: string[];
}

const refuse = (code: MessageCode, detail?: string): never => {
  throw badRequest(code, detail ? `${MESSAGES[code]} (${detail})` : undefined);
};

function instant(value: string | null | undefined): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (!Number.isFinite(at.getTime()) || at.getTime() < 0 || at.getTime() >= LATEST) refuse('maintenance.dateInvalid');
  return at;
}

const unique = <T>(list: T[] | undefined): T[] => [...new Set(list ?? [])];

/**
 * The rules across a window's fields, after the DTO checked each field on its own: what each strategy needs (a
 * single window its start and end, weekly its days and times, monthly its days and times, interval its days, start
 * and times, cron a valid expression and a duration), an end after its start, and a scope that covers something.
 * Each refusal is a 400 naming the field.
 */
export function windowInput(body: SaveMaintenanceDto): WindowInput {
  const timezone = canonicalZone(body.timezone ?? 'UTC') ?? refuse('maintenance.timezoneInvalid');
  const startAt = instant(body.startAt);
  const endAt = instant(body.endAt);
  if (startAt && endAt && endAt <= startAt) refuse('maintenance.endBeforeStart');
  const { strategy } = body;
  const daily = strategy === 'weekly' || strategy === 'monthly' || strategy === 'interval';
  if (strategy === 'single' && (!startAt || !endAt)) refuse('maintenance.singleNeedsRange');
  if (daily && (!body.startTime || !body.endTime)) refuse('maintenance.timeRequired');
  const weekdays = unique(body.weekdays).sort((a, b) => a - b);
  if (strategy === 'weekly' && !weekdays.length) refuse('maintenance.weekdaysInvalid');
  const daysOfMonth = unique<MonthDay>(body.daysOfMonth).sort((a, b) => (a === 'last' ? 32 : a) - (b === 'last' ? 32 : b));
  if (strategy === 'monthly' && !daysOfMonth.length) refuse('maintenance.daysOfMonthInvalid');
  if (strategy === 'interval' && !body.intervalDays) refuse('maintenance.intervalInvalid');
  if (strategy === 'interval' && !startAt) refuse('maintenance.intervalNeedsStart');
  if (strategy === 'cron') {
    const cron = body.cron?.trim() ? parseCron(body.cron.trim(), timezone) : 'an expression is required';
    if (typeof cron === 'string') refuse('maintenance.cronInvalid', cron);
    else if (!cron.nextRun()) refuse('maintenance.cronInvalid', 'it never runs');
    if (!body.durationMinutes) refuse('maintenance.durationInvalid');
  }
  const scope: MaintenanceScope = {
    all: body.scope.all,
    monitors: body.scope.all ? [] : unique(body.scope.monitors),
    agents: body.scope.all ? [] : unique(body.scope.agents),
    groups: body.scope.all ? [] : unique(body.scope.groups),
  };
  if (!scope.all && !scope.monitors.length && !scope.agents.length && !scope.groups.length) refuse('maintenance.scopeEmpty');
  const fields: MaintenanceFields = {
    title: body.title,
    description: body.description ?? '',
    strategy,
    timezone,
    // A manual window has no schedule; a single one only its range; a recurring one optional bounds.
    start_at: strategy === 'manual' ? null : startAt,
    end_at: strategy === 'manual' ? null : endAt,
    weekdays: strategy === 'weekly' ? weekdays : [],
    days_of_month: strategy === 'monthly' ? daysOfMonth : [],
    start_time: daily ? body.startTime! : null,
    end_time: daily ? body.endTime! : null,
    interval_days: strategy === 'interval' ? body.intervalDays! : null,
    cron: strategy === 'cron' ? body.cron!.trim() : null,
    duration_minutes: strategy === 'cron' ? body.durationMinutes! : null,
    enabled: body.enabled ?? true,
    notify: body.notify ?? false,
    end_when_healthy_minutes: body.endWhenHealthyMinutes ?? null,
    all_targets: scope.all,
  };
  return { fields, scope, pages: unique(body.pages) };
}
