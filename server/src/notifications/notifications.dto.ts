import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
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
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  AGENT_LIMITS,
  CONFIG_KEY_MAX,
  CONFIG_KEY_PATTERN,
  CHANNEL_GROUPING,
  CHANNEL_LANGUAGES,
  CHANNEL_TYPES,
  ESCALATION_LIMITS,
  type EscalationStep,
  DELIVERY_STATUSES,
  SETTINGS_TARGET_TYPES,
  type ChannelLanguage,
  type ChannelRequest,
  type ChannelType,
  type DeliveryStatus,
  type NotificationSettingsRequest,
  type NotificationTargetKind,
  type SettingsTargetType,
} from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { ID_MAX, QueryInteger } from '../common/query-integer';
import { trim } from '../users/user-fields';
import type { TargetSettings } from './rules';

const CHANNEL_NAME_MAX = 100;
const CHANNELS_MAX = 50;

/** Forms send flags as booleans, 0/1 or their text; absent or null is the default. Anything else stays and fails. */
function flag(fallback: boolean) {
  return ({ value }: { value: unknown }): unknown => {
    if (value === undefined || value === null) return fallback;
    if (value === true || value === 1 || value === '1' || value === 'true') return true;
    if (value === false || value === 0 || value === '0' || value === 'false') return false;
    return value;
  };
}

/** An id as a number or its digits; anything else stays and fails. */
function toId(value: unknown): unknown {
  return typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
}

/** A percentage as a number or its digits; absent, null or empty is the default. */
function percent(fallback: number) {
  return ({ value }: { value: unknown }): unknown => {
    if (value === undefined || value === null || value === '') return fallback;
    return typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  };
}

/** A whole number up to eight digits, sent as a number or its text. */
function whole(fallback: number) {
  return ({ value }: { value: unknown }): unknown => {
    if (value === undefined || value === null || value === '') return fallback;
    return typeof value === 'string' && /^\d{1,8}$/.test(value) ? Number(value) : value;
  };
}

/** `config` arrives as an object or as that object in JSON; anything else stays and fails. */
function parseConfig({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `channels` arrive as a JSON list (or a list) of ids, repeats allowed and dropped; anything else stays and fails. */
function parseChannelIds({ value }: { value: unknown }): unknown {
  let list = value ?? [];
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list || '[]');
    } catch {
      return value;
    }
  }
  if (!Array.isArray(list) || list.length > CHANNELS_MAX) return value;
  const ids = list.map(toId);
  return ids.every(isId) ? [...new Set(ids)] : value;
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= ID_MAX;
}

@ValidatorConstraint({ name: 'id' })
class Id implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isId(value);
  }
}

@ValidatorConstraint({ name: 'channelIds' })
class ChannelIds implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) && value.length <= CHANNELS_MAX && value.every(isId);
  }
}

const isSpecific = (type: unknown): type is 'monitor' | 'agent' => type === 'monitor' || type === 'agent';

/** What an entry has for a field the body leaves out (or sends as null or empty). */
export const SETTINGS_DEFAULTS: TargetSettings = {
  enabled: false,
  on_down: true,
  on_recovery: true,
  on_certificate_expiry: true,
  on_offline: true,
  on_cpu_threshold: false,
  cpu_threshold: 90,
  on_memory_threshold: false,
  memory_threshold: 85,
  on_disk_threshold: false,
  disk_threshold: 90,
  on_load_threshold: false,
  load_threshold: 100,
  on_temperature_threshold: false,
  temperature_threshold: 80,
  on_disk_io_threshold: false,
  disk_io_threshold: 90,
  on_bandwidth_threshold: false,
  bandwidth_threshold: 102_400,
  on_container_down: false,
  on_container_unhealthy: false,
  on_service_failed: false,
  channels: [],
  override_global: false,
  on_degraded: false,
  reminder_minutes: null,
  escalation: [],
};

type FlagName = { [K in keyof TargetSettings]: TargetSettings[K] extends boolean ? K : never }[keyof TargetSettings];
type PercentName = 'cpu_threshold' | 'memory_threshold' | 'disk_threshold' | 'disk_io_threshold';
/** The host thresholds that are not plain percentages, with their upper bounds. */
const HOST_THRESHOLD_MAX = { load_threshold: 1_000, temperature_threshold: 200, bandwidth_threshold: AGENT_LIMITS.rateMaxKbs } as const;

function FlagField(name: FlagName): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ default: SETTINGS_DEFAULTS[name], nullable: true, description: 'Also 0/1 or their text' })(target, key);
    Transform(flag(SETTINGS_DEFAULTS[name]))(target, key);
    IsBoolean({ message: 'validation.booleanRequired' })(target, key);
  };
}

function PercentField(name: PercentName): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ default: SETTINGS_DEFAULTS[name], minimum: 0, maximum: 100, nullable: true })(target, key);
    Transform(percent(SETTINGS_DEFAULTS[name]))(target, key);
    IsInt({ message: 'notifications.thresholdInvalid' })(target, key);
    Min(0, { message: 'notifications.thresholdInvalid' })(target, key);
    Max(100, { message: 'notifications.thresholdInvalid' })(target, key);
  };
}

function BoundedField(name: keyof typeof HOST_THRESHOLD_MAX): PropertyDecorator {
  const max = HOST_THRESHOLD_MAX[name];
  return (target, key) => {
    ApiPropertyOptional({ default: SETTINGS_DEFAULTS[name], minimum: 1, maximum: max, nullable: true })(target, key);
    Transform(whole(SETTINGS_DEFAULTS[name]))(target, key);
    IsInt({ message: 'notifications.hostThresholdInvalid' })(target, key);
    Min(1, { message: 'notifications.hostThresholdInvalid' })(target, key);
    Max(max, { message: 'notifications.hostThresholdInvalid' })(target, key);
  };
}

/** A channel create or edit body, before its type's own rules (which run after masked secrets are restored). */
export class ChannelDto implements ChannelRequest {
  @ApiProperty({ maxLength: CHANNEL_NAME_MAX })
  @Transform(trim)
  @IsNotEmpty({ message: 'notifications.channelNameRequired' })
  @IsString({ message: 'notifications.channelNameRequired' })
  @MaxLength(CHANNEL_NAME_MAX, { message: 'notifications.channelNameTooLong' })
  name: string;

  @ApiPropertyOptional({
    maxLength: CONFIG_KEY_MAX,
    pattern: CONFIG_KEY_PATTERN,
    description: 'Stable key; made from the name when absent',
  })
  @IsOptional()
  @IsString({ message: 'notifications.channelKeyInvalid' })
  @MaxLength(CONFIG_KEY_MAX, { message: 'notifications.channelKeyInvalid' })
  @Matches(new RegExp(CONFIG_KEY_PATTERN), { message: 'notifications.channelKeyInvalid' })
  key?: string;

  @ApiProperty({ enum: CHANNEL_TYPES })
  @IsIn(CHANNEL_TYPES, { message: 'notifications.channelTypeInvalid' })
  type: ChannelType;

  @ApiPropertyOptional({ default: true, nullable: true, description: 'Also 0/1 or their text' })
  @Transform(flag(true))
  @IsBoolean({ message: 'validation.booleanRequired' })
  enabled: boolean = true;

  @ApiPropertyOptional({ enum: CHANNEL_LANGUAGES, default: 'zh-CN', nullable: true })
  @Transform(({ value }) => value ?? 'zh-CN')
  @IsIn(CHANNEL_LANGUAGES, { message: 'notifications.languageInvalid' })
  language: ChannelLanguage = 'zh-CN';

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Object or JSON string; fields depend on the type' })
  @Transform(parseConfig)
  @IsObject({ message: 'notifications.configInvalid' })
  config: Record<string, unknown>;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: CHANNEL_GROUPING.waitMax,
    default: CHANNEL_GROUPING.waitDefault,
    description: '0: no grouping',
  })
  @IsOptional()
  @IsInt({ message: 'notifications.groupWindowInvalid' })
  @Min(0, { message: 'notifications.groupWindowInvalid' })
  @Max(CHANNEL_GROUPING.waitMax, { message: 'notifications.groupWindowInvalid' })
  groupWaitSeconds?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: CHANNEL_GROUPING.intervalMax, default: CHANNEL_GROUPING.intervalDefault })
  @IsOptional()
  @IsInt({ message: 'notifications.groupWindowInvalid' })
  @Min(0, { message: 'notifications.groupWindowInvalid' })
  @Max(CHANNEL_GROUPING.intervalMax, { message: 'notifications.groupWindowInvalid' })
  groupIntervalSeconds?: number;
}

/** Whether a channel test body carries the dialog's values: name, type and config tell (the others have defaults). */
export const isFilledChannel = (body: ChannelDto): boolean =>
  body.name !== undefined || body.type !== undefined || body.config !== undefined;

/** The body of a channel test: empty to test a saved channel as it is, or the dialog's values, checked as a channel. */
export class ChannelTestDto extends ChannelDto {
  @ValidateIf(isFilledChannel) declare name: string;
  @ValidateIf(isFilledChannel) declare type: ChannelType;
  @ValidateIf(isFilledChannel) declare enabled: boolean;
  @ValidateIf(isFilledChannel) declare language: ChannelLanguage;
  @ValidateIf(isFilledChannel) declare config: Record<string, unknown>;
}

const wholeIn = (value: unknown, min: number, max: number) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** Escalation steps: at most ESCALATION_LIMITS.stepsMax, each `{ afterMinutes, channels }` in bounds, nothing else. */
@ValidatorConstraint({ name: 'escalationSteps' })
class EscalationSteps implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (!Array.isArray(value) || value.length > ESCALATION_LIMITS.stepsMax) return false;
    return value.every(
      (step: unknown) =>
        typeof step === 'object' &&
        step !== null &&
        Object.keys(step).every((key) => key === 'afterMinutes' || key === 'channels') &&
        wholeIn((step as EscalationStep).afterMinutes, ESCALATION_LIMITS.afterMinutesMin, ESCALATION_LIMITS.afterMinutesMax) &&
        Array.isArray((step as EscalationStep).channels) &&
        (step as EscalationStep).channels.length <= CHANNELS_MAX &&
        (step as EscalationStep).channels.every((id) => wholeIn(id, 1, ID_MAX)),
    );
  }
}

/** One `POST /api/notifications/settings` body: flags may be booleans, 0/1 or their text; `channels` a JSON list. */
export class SettingsDto implements NotificationSettingsRequest {
  @ApiProperty({ enum: SETTINGS_TARGET_TYPES })
  @IsIn(SETTINGS_TARGET_TYPES, { message: 'notifications.targetTypeInvalid' })
  target_type: SettingsTargetType;

  @ApiPropertyOptional({ nullable: true, description: 'Required for monitor and agent; ignored for the global entries' })
  @ValidateIf((body: SettingsDto) => isSpecific(body.target_type))
  @Transform(({ value }) => toId(value))
  @Validate(Id, { message: 'notifications.targetIdRequired' })
  target_id?: number;

  @FlagField('enabled') enabled = SETTINGS_DEFAULTS.enabled;
  @FlagField('on_down') on_down = SETTINGS_DEFAULTS.on_down;
  @FlagField('on_recovery') on_recovery = SETTINGS_DEFAULTS.on_recovery;
  @FlagField('on_certificate_expiry') on_certificate_expiry = SETTINGS_DEFAULTS.on_certificate_expiry;
  @FlagField('on_offline') on_offline = SETTINGS_DEFAULTS.on_offline;
  @FlagField('on_cpu_threshold') on_cpu_threshold = SETTINGS_DEFAULTS.on_cpu_threshold;
  @FlagField('on_memory_threshold') on_memory_threshold = SETTINGS_DEFAULTS.on_memory_threshold;
  @FlagField('on_disk_threshold') on_disk_threshold = SETTINGS_DEFAULTS.on_disk_threshold;
  @FlagField('on_load_threshold') on_load_threshold = SETTINGS_DEFAULTS.on_load_threshold;
  @FlagField('on_temperature_threshold') on_temperature_threshold = SETTINGS_DEFAULTS.on_temperature_threshold;
  @FlagField('on_disk_io_threshold') on_disk_io_threshold = SETTINGS_DEFAULTS.on_disk_io_threshold;
  @FlagField('on_bandwidth_threshold') on_bandwidth_threshold = SETTINGS_DEFAULTS.on_bandwidth_threshold;
  @FlagField('on_container_down') on_container_down = SETTINGS_DEFAULTS.on_container_down;
  @FlagField('on_container_unhealthy') on_container_unhealthy = SETTINGS_DEFAULTS.on_container_unhealthy;
  @FlagField('on_service_failed') on_service_failed = SETTINGS_DEFAULTS.on_service_failed;
  @FlagField('override_global') override_global = SETTINGS_DEFAULTS.override_global;

  @PercentField('cpu_threshold') cpu_threshold = SETTINGS_DEFAULTS.cpu_threshold;
  @PercentField('memory_threshold') memory_threshold = SETTINGS_DEFAULTS.memory_threshold;
  @PercentField('disk_threshold') disk_threshold = SETTINGS_DEFAULTS.disk_threshold;
  @PercentField('disk_io_threshold') disk_io_threshold = SETTINGS_DEFAULTS.disk_io_threshold;
  @BoundedField('load_threshold') load_threshold = SETTINGS_DEFAULTS.load_threshold;
  @BoundedField('temperature_threshold') temperature_threshold = SETTINGS_DEFAULTS.temperature_threshold;
  @BoundedField('bandwidth_threshold') bandwidth_threshold = SETTINGS_DEFAULTS.bandwidth_threshold;

  @ApiPropertyOptional({ nullable: true, description: 'JSON list of channel ids (a list is accepted too)' })
  @Transform(parseChannelIds)
  @Validate(ChannelIds, { message: 'notifications.channelsInvalid' })
  channels: number[] = [];

  @FlagField('on_degraded') on_degraded = SETTINGS_DEFAULTS.on_degraded;

  @ApiPropertyOptional({
    nullable: true,
    minimum: ESCALATION_LIMITS.reminderMinutesMin,
    maximum: ESCALATION_LIMITS.reminderMinutesMax,
    description: 'Minutes between reminders while an alert is open and unacknowledged; null: none',
  })
  @Transform(({ value }) => (value === undefined || value === '' ? null : value))
  @ValidateIf((body: SettingsDto) => body.reminder_minutes !== null)
  @IsInt({ message: 'notifications.reminderInvalid' })
  @Min(ESCALATION_LIMITS.reminderMinutesMin, { message: 'notifications.reminderInvalid' })
  @Max(ESCALATION_LIMITS.reminderMinutesMax, { message: 'notifications.reminderInvalid' })
  reminder_minutes: number | null = null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', properties: { afterMinutes: { type: 'integer' }, channels: { type: 'array', items: { type: 'integer' } } } },
    description: `At most ${ESCALATION_LIMITS.stepsMax} steps: this many minutes unacknowledged, also notify these channels`,
  })
  @Transform(({ value }) => value ?? [])
  @Validate(EscalationSteps, { message: 'notifications.escalationInvalid' })
  escalation: EscalationStep[] = [];
}

/** The entry a settings body saves: no target for the global ones, and overriding forces a specific one on. */
export function settingsEntry(body: SettingsDto): { targetType: SettingsTargetType; targetId: number | null; settings: TargetSettings } {
  const specific = isSpecific(body.target_type);
  // Overriding the global entry only makes sense switched on (spec: turning override on forces enabled).
  const override = specific && body.override_global;
  return {
    targetType: body.target_type,
    targetId: specific ? (body.target_id as number) : null,
    settings: {
      enabled: body.enabled || override,
      on_down: body.on_down,
      on_recovery: body.on_recovery,
      on_certificate_expiry: body.on_certificate_expiry,
      on_offline: body.on_offline,
      on_cpu_threshold: body.on_cpu_threshold,
      cpu_threshold: body.cpu_threshold,
      on_memory_threshold: body.on_memory_threshold,
      memory_threshold: body.memory_threshold,
      on_disk_threshold: body.on_disk_threshold,
      disk_threshold: body.disk_threshold,
      on_load_threshold: body.on_load_threshold,
      load_threshold: body.load_threshold,
      on_temperature_threshold: body.on_temperature_threshold,
      temperature_threshold: body.temperature_threshold,
      on_disk_io_threshold: body.on_disk_io_threshold,
      disk_io_threshold: body.disk_io_threshold,
      on_bandwidth_threshold: body.on_bandwidth_threshold,
      bandwidth_threshold: body.bandwidth_threshold,
      on_container_down: body.on_container_down,
      on_container_unhealthy: body.on_container_unhealthy,
      on_service_failed: body.on_service_failed,
      channels: body.channels,
      override_global: override,
      on_degraded: body.on_degraded,
      reminder_minutes: body.reminder_minutes,
      // Steps in the order they fire, whatever order they were given in.
      escalation: [...body.escalation]
        .sort((a, b) => a.afterMinutes - b.afterMinutes)
        .map((step) => ({ afterMinutes: step.afterMinutes, channels: step.channels })),
    },
  };
}

const TARGET_KINDS: readonly NotificationTargetKind[] = ['monitor', 'agent', 'test', 'maintenance'];

export class HistoryQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: 'validation.failed' })
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: TARGET_KINDS })
  @IsOptional()
  @IsIn(TARGET_KINDS, { message: 'validation.failed' })
  target_kind?: NotificationTargetKind;

  @QueryInteger({ min: 1, max: ID_MAX, message: 'request.invalidId', description: 'Monitor or agent id (with target_kind)' })
  target_id?: number;

  @QueryInteger({ min: 1, max: ID_MAX, message: 'request.invalidId' })
  channel_id?: number;
}
