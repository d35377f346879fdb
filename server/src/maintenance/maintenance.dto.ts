import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  CONFIG_KEY_MAX,
  CONFIG_KEY_PATTERN,
  MAINTENANCE_LIMITS as L,
  MAINTENANCE_STRATEGIES,
  PAGE_SLUG_PATTERN,
  type MaintenancePhase,
  type MaintenanceScope,
  type MaintenanceStrategy,
  type MessageCode,
  type MonthDay,
  type SaveMaintenanceRequest,
} from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { ID_MAX, QueryInteger } from '../common/query-integer';
import { trim } from '../users/user-fields';
import { canonicalZone } from './zone';

export const MAINTENANCE_PHASES: readonly MaintenancePhase[] = ['active', 'scheduled', 'ended', 'paused'];
/** `HH:MM`, 00:00 to 23:59. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Ids of integer columns, checked in one pass (a per-item rule costs far more on 100,000 items). */
@ValidatorConstraint({ name: 'idList' })
class IdListRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) && value.every((id) => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= ID_MAX);
  }
}

@ValidatorConstraint({ name: 'monthDays' })
class MonthDaysRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      Array.isArray(value) &&
      value.every((day) => day === 'last' || (typeof day === 'number' && Number.isInteger(day) && day >= 1 && day <= 31))
    );
  }
}

@ValidatorConstraint({ name: 'timeZone' })
class TimeZoneRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && canonicalZone(value) !== null;
  }
}

function IdList(description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: [Number], maxItems: L.idsMax, description }),
    IsArray({ message: 'maintenance.scopeInvalid' }),
    ArrayMaxSize(L.idsMax, { message: 'maintenance.scopeTooLarge' }),
    Validate(IdListRule, { message: 'maintenance.scopeInvalid' }),
  );
}

/** A field that may be null (its strategy does not use it, or it is cleared). */
function Nullable(
  type: 'string' | 'integer',
  message: MessageCode,
  description: string,
  extra: Record<string, unknown> = {},
): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type, nullable: true, description, ...extra }),
    IsOptional(),
    ValidateIf((_, value) => value !== null),
    ...(type === 'integer' ? [IsInt({ message })] : [IsString({ message })]),
  );
}

/** What a window covers: everything, or the listed monitors, agents and group monitors. */
export class MaintenanceScopeDto implements MaintenanceScope {
  @ApiProperty({ description: 'Every monitor and agent' })
  @IsBoolean({ message: 'maintenance.scopeInvalid' })
  all: boolean;

  @IdList('Monitor ids')
  monitors: number[];

  @IdList('Agent ids')
  agents: number[];

  @IdList('Group monitor ids: each group with every monitor inside it')
  groups: number[];
}

/** `POST /api/maintenance` and `PUT /api/maintenance/{id}`: the whole window. Rules across fields: maintenance-fields.ts. */
export class SaveMaintenanceDto implements SaveMaintenanceRequest {
  @ApiProperty({ maxLength: L.titleMax })
  @Transform(trim)
  @IsString({ message: 'maintenance.titleInvalid' })
  @IsNotEmpty({ message: 'maintenance.titleInvalid' })
  @MaxLength(L.titleMax, { message: 'maintenance.titleInvalid' })
  title: string;

  @ApiPropertyOptional({
    maxLength: CONFIG_KEY_MAX,
    pattern: CONFIG_KEY_PATTERN,
    description: 'Stable key; made from the title when absent',
  })
  @IsOptional()
  @IsString({ message: 'maintenance.keyInvalid' })
  @MaxLength(CONFIG_KEY_MAX, { message: 'maintenance.keyInvalid' })
  @Matches(new RegExp(CONFIG_KEY_PATTERN), { message: 'maintenance.keyInvalid' })
  key?: string;

  @ApiPropertyOptional({ maxLength: L.descriptionMax, description: 'Markdown' })
  @IsOptional()
  @IsString({ message: 'maintenance.descriptionInvalid' })
  @MaxLength(L.descriptionMax, { message: 'maintenance.descriptionInvalid' })
  description?: string;

  @ApiProperty({ enum: MAINTENANCE_STRATEGIES })
  @IsIn(MAINTENANCE_STRATEGIES, { message: 'maintenance.strategyInvalid' })
  strategy: MaintenanceStrategy;

  @ApiPropertyOptional({ default: 'UTC', description: 'IANA time zone the times, days and cron are read in' })
  @IsOptional()
  @IsString({ message: 'maintenance.timezoneInvalid' })
  @MaxLength(64, { message: 'maintenance.timezoneInvalid' })
  @Validate(TimeZoneRule, { message: 'maintenance.timezoneInvalid' })
  timezone?: string;

  @ApiPropertyOptional({ default: true, description: 'False: switched off' })
  @IsOptional()
  @IsBoolean({ message: 'maintenance.enabledInvalid' })
  enabled?: boolean;

  @Nullable('string', 'maintenance.dateInvalid', 'single: the start; recurring: when the recurrence begins', { format: 'date-time' })
  @IsISO8601({ strict: true }, { message: 'maintenance.dateInvalid' })
  startAt?: string | null;

  @Nullable('string', 'maintenance.dateInvalid', 'single: the end; recurring: when the recurrence stops', { format: 'date-time' })
  @IsISO8601({ strict: true }, { message: 'maintenance.dateInvalid' })
  endAt?: string | null;

  @ApiPropertyOptional({ type: [Number], maxItems: 7, description: 'weekly: 0 (Sunday) to 6 (Saturday)' })
  @IsOptional()
  @IsArray({ message: 'maintenance.weekdaysInvalid' })
  @ArrayMaxSize(7, { message: 'maintenance.weekdaysInvalid' })
  @IsInt({ each: true, message: 'maintenance.weekdaysInvalid' })
  @Min(0, { each: true, message: 'maintenance.weekdaysInvalid' })
  @Max(6, { each: true, message: 'maintenance.weekdaysInvalid' })
  weekdays?: number[];

  @ApiPropertyOptional({
    type: 'array',
    items: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 31 },
        { type: 'string', enum: ['last'] },
      ],
    },
    maxItems: 32,
    description: 'monthly: days 1–31, or "last" for the last day of the month',
  })
  @IsOptional()
  @IsArray({ message: 'maintenance.daysOfMonthInvalid' })
  @ArrayMaxSize(32, { message: 'maintenance.daysOfMonthInvalid' })
  @Validate(MonthDaysRule, { message: 'maintenance.daysOfMonthInvalid' })
  daysOfMonth?: MonthDay[];

  @Nullable('string', 'maintenance.timeInvalid', 'weekly, monthly, interval: HH:MM in the time zone', { pattern: TIME_OF_DAY.source })
  @Matches(TIME_OF_DAY, { message: 'maintenance.timeInvalid' })
  startTime?: string | null;

  @Nullable('string', 'maintenance.timeInvalid', 'HH:MM; at or before the start: the window runs past midnight', {
    pattern: TIME_OF_DAY.source,
  })
  @Matches(TIME_OF_DAY, { message: 'maintenance.timeInvalid' })
  endTime?: string | null;

  @Nullable('integer', 'maintenance.intervalInvalid', 'interval: every this many days from startAt', {
    minimum: 1,
    maximum: L.intervalDaysMax,
  })
  @Min(1, { message: 'maintenance.intervalInvalid' })
  @Max(L.intervalDaysMax, { message: 'maintenance.intervalInvalid' })
  intervalDays?: number | null;

  @Nullable('string', 'maintenance.cronInvalid', 'cron: five fields, in the time zone', { maxLength: 200 })
  @MaxLength(200, { message: 'maintenance.cronInvalid' })
  cron?: string | null;

  @Nullable('integer', 'maintenance.durationInvalid', 'cron: minutes each run lasts', { minimum: 1, maximum: L.durationMinutesMax })
  @Min(1, { message: 'maintenance.durationInvalid' })
  @Max(L.durationMinutesMax, { message: 'maintenance.durationInvalid' })
  durationMinutes?: number | null;

  @ApiProperty({ type: MaintenanceScopeDto })
  @IsObject({ message: 'maintenance.scopeInvalid' })
  @ValidateNested({ message: 'maintenance.scopeInvalid' })
  @Type(() => MaintenanceScopeDto)
  scope: MaintenanceScopeDto;

  @ApiPropertyOptional({ type: [String], maxItems: L.pagesMax, description: 'Status page slugs (`default` is /status)' })
  @IsOptional()
  @IsArray({ message: 'maintenance.pagesInvalid' })
  @ArrayMaxSize(L.pagesMax, { message: 'maintenance.pagesInvalid' })
  @IsString({ each: true, message: 'maintenance.pagesInvalid' })
  @Matches(PAGE_SLUG_PATTERN, { each: true, message: 'maintenance.pagesInvalid' })
  pages?: string[];

  @ApiPropertyOptional({ default: false, description: 'A notice to the covered targets’ channels when each occurrence starts and ends' })
  @IsOptional()
  @IsBoolean({ message: 'maintenance.notifyInvalid' })
  notify?: boolean;

  @Nullable('integer', 'maintenance.endWhenHealthyInvalid', 'End by itself once every covered monitor has been up this many minutes', {
    minimum: 1,
    maximum: L.endWhenHealthyMinutesMax,
  })
  @Min(1, { message: 'maintenance.endWhenHealthyInvalid' })
  @Max(L.endWhenHealthyMinutesMax, { message: 'maintenance.endWhenHealthyInvalid' })
  endWhenHealthyMinutes?: number | null;
}

/** `GET /api/maintenance`: active first, then scheduled by next start, then the rest. */
export class MaintenanceQuery extends PageQuery {
  @ApiPropertyOptional({ enum: MAINTENANCE_PHASES })
  @IsOptional()
  @IsIn(MAINTENANCE_PHASES, { message: 'maintenance.phaseInvalid' })
  phase?: MaintenancePhase;

  @QueryInteger({ min: 1, max: ID_MAX, message: 'request.invalidId', description: 'Only the windows covering this monitor' })
  monitorId?: number;

  @QueryInteger({ min: 1, max: ID_MAX, message: 'request.invalidId', description: 'Only the windows covering this agent' })
  agentId?: number;
}

/** `GET /api/maintenance/calendar?from=&to=`. */
export class CalendarQuery {
  @ApiProperty({ format: 'date-time' })
  @IsISO8601({ strict: true }, { message: 'maintenance.rangeInvalid' })
  from: string;

  @ApiProperty({ format: 'date-time', description: 'After `from`, at most 62 days later' })
  @IsISO8601({ strict: true }, { message: 'maintenance.rangeInvalid' })
  to: string;
}
