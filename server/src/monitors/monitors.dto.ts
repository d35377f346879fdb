import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  CONFIG_KEY_MAX,
  CONFIG_KEY_PATTERN,
  DependencyRef,
  HTTP_METHODS,
  LOCATIONS_MAX,
  locationAgentId,
  QUORUM_RULES,
  QuorumRule,
  HttpMethod,
  MONITOR_LIMITS as L,
  MONITOR_TYPES,
  MONITOR_STATUSES,
  MonitorFilter,
  MonitorRequest,
  MonitorStatus,
  MonitorType,
  normalizeTag,
  normalizeTags,
  PAGE_SIZE_MAX,
  STATS_RANGES,
  StatsRange,
} from '@vigil/proto';
import { trim } from '../users/user-fields';
import { PAGE_MAX, PageQuery } from '../common/paging';
import { ID_MAX, QueryInteger } from '../common/query-integer';
import { bodyType, MonitorTypeFieldsDto, TargetUrl, validated } from './monitor-type-fields.dto';
import { DependencyList } from './dependencies/dependency-list.dto';

/** `headers` arrive as an object or as that object in JSON; anything else stays as is and fails validation. */
function parseHeaders({ value }: { value: unknown }): unknown {
  if (value === null || value === '') return {};
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

@ValidatorConstraint({ name: 'headers' })
class HeadersShape implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    return (
      entries.length <= L.headersMax &&
      entries.every(
        ([name, text]) =>
          /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(name) && typeof text === 'string' && text.length <= 8192 && !/[\r\n]/.test(text),
      )
    );
  }
}

/** 1 to LOCATIONS_MAX distinct locations, each `server` or `agent:<id>`. */
@ValidatorConstraint({ name: 'locations' })
class LocationList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      Array.isArray(value) &&
      value.length >= 1 &&
      value.length <= LOCATIONS_MAX &&
      new Set(value).size === value.length &&
      value.every((location) => typeof location === 'string' && locationAgentId(location) !== undefined)
    );
  }
}

/** What normalizeTags made of the body's list; anything it refused stays as sent and fails here. */
@ValidatorConstraint({ name: 'tags' })
class TagList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) && normalizeTags(value)?.length === value.length;
  }
}

@ValidatorConstraint({ name: 'tag' })
class TagValue implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && normalizeTag(value) === value;
  }
}

@ValidatorConstraint({ name: 'expectedStatus' })
class ExpectedStatus implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      Number.isInteger(value) &&
      (((value as number) >= 2 && (value as number) <= 5) || ((value as number) >= 100 && (value as number) <= 599))
    );
  }
}

const urlMessage = (args: ValidationArguments) =>
  bodyType(args.object) === 'websocket' ? 'monitors.websocketUrlInvalid' : 'monitors.urlInvalid';

const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

/**
 * Create body; every field but name and the type's target (url, hostname, connection string) has a default. Update
 * uses the same rules with every field optional.
 */
export class CreateMonitorDto extends MonitorTypeFieldsDto implements MonitorRequest {
  @ApiProperty({ maxLength: L.nameMax })
  @Transform(trim)
  @IsNotEmpty({ message: 'monitors.nameRequired' })
  @IsString({ message: 'monitors.nameRequired' })
  @MaxLength(L.nameMax, { message: 'monitors.nameRequired' })
  name: string;

  @ApiPropertyOptional({
    maxLength: CONFIG_KEY_MAX,
    pattern: CONFIG_KEY_PATTERN,
    description: 'Stable key; made from the name when absent',
  })
  @IsOptional()
  @IsString({ message: 'monitors.keyInvalid' })
  @MaxLength(CONFIG_KEY_MAX, { message: 'monitors.keyInvalid' })
  @Matches(new RegExp(CONFIG_KEY_PATTERN), { message: 'monitors.keyInvalid' })
  key?: string;

  @ApiPropertyOptional({ example: 'https://example.com/health', description: 'http (http/https), websocket (ws/wss)' })
  @Transform(trim)
  @ValidateIf(validated('url'))
  @IsNotEmpty({ message: 'monitors.urlRequired' })
  @IsString({ message: 'monitors.urlRequired' })
  @MaxLength(L.urlMax, { message: urlMessage })
  @Validate(TargetUrl, { message: urlMessage })
  url?: string;

  @ApiPropertyOptional({ enum: HTTP_METHODS, default: 'GET' })
  @IsOptional()
  @Transform(upper)
  @IsIn(HTTP_METHODS, { message: 'monitors.methodInvalid' })
  method?: HttpMethod;

  @ApiPropertyOptional({ minimum: L.intervalMin, maximum: L.intervalMax, default: 60, description: 'Seconds' })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'monitors.intervalInvalid' })
  @Min(L.intervalMin, { message: 'monitors.intervalInvalid' })
  @Max(L.intervalMax, { message: 'monitors.intervalInvalid' })
  interval?: number;

  @ApiPropertyOptional({ minimum: L.timeoutMin, maximum: L.timeoutMax, default: 30, description: 'Seconds, below the interval' })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'monitors.timeoutInvalid' })
  @Min(L.timeoutMin, { message: 'monitors.timeoutInvalid' })
  @Max(L.timeoutMax, { message: 'monitors.timeoutInvalid' })
  timeout?: number;

  @ApiPropertyOptional({ default: 200, description: '2–5 for a whole class (2xx…5xx), or an exact code' })
  @IsOptional()
  @Transform(toNumber)
  @Validate(ExpectedStatus, { message: 'monitors.expectedStatusInvalid' })
  expectedStatus?: number;

  @ApiPropertyOptional({ description: 'The same as expectedStatus (sent by xugou clients); expectedStatus wins' })
  @IsOptional()
  @Transform(toNumber)
  @Validate(ExpectedStatus, { message: 'monitors.expectedStatusInvalid' })
  expected_status?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'Object or JSON string; null means none',
  })
  @IsOptional()
  @Transform(parseHeaders)
  @Validate(HeadersShape, { message: 'monitors.headersInvalid' })
  headers?: Record<string, string>;

  @ApiPropertyOptional({ nullable: true, description: 'Sent for POST, PUT and PATCH only' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'monitors.bodyTooLarge' })
  @MaxLength(L.bodyMax, { message: 'monitors.bodyTooLarge' })
  body?: string | null;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  active?: boolean;

  @ApiPropertyOptional({ minimum: L.retriesMin, maximum: L.retriesMax, default: 1 })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'monitors.retriesInvalid' })
  @Min(L.retriesMin, { message: 'monitors.retriesInvalid' })
  @Max(L.retriesMax, { message: 'monitors.retriesInvalid' })
  retries?: number;

  @ApiPropertyOptional({ minimum: L.retryIntervalMin, maximum: L.retryIntervalMax, default: 20 })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'monitors.retryIntervalInvalid' })
  @Min(L.retryIntervalMin, { message: 'monitors.retryIntervalInvalid' })
  @Max(L.retryIntervalMax, { message: 'monitors.retryIntervalInvalid' })
  retryInterval?: number;

  @ApiPropertyOptional({ nullable: true, description: 'The group monitor to join; null leaves it' })
  @Transform(toNumber)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt({ message: 'monitors.parentInvalid' })
  @Min(1, { message: 'monitors.parentInvalid' })
  @Max(ID_MAX, { message: 'monitors.parentInvalid' })
  parentId?: number | null;

  @ApiPropertyOptional({ nullable: true, description: 'The same as parentId; parentId wins' })
  @Transform(toNumber)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt({ message: 'monitors.parentInvalid' })
  @Min(1, { message: 'monitors.parentInvalid' })
  @Max(ID_MAX, { message: 'monitors.parentInvalid' })
  parent_id?: number | null;

  @DependencyList('Monitors and agents this one depends on; replaces the stored list')
  dependsOn?: DependencyRef[];

  @DependencyList('The same as dependsOn; dependsOn wins')
  depends_on?: DependencyRef[];

  @ApiPropertyOptional({
    nullable: true,
    minimum: L.degradedAfterMsMin,
    maximum: L.degradedAfterMsMax,
    description: 'Milliseconds; a successful check slower than this is degraded. Null: never',
  })
  @Transform(toNumber)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt({ message: 'monitors.degradedAfterInvalid' })
  @Min(L.degradedAfterMsMin, { message: 'monitors.degradedAfterInvalid' })
  @Max(L.degradedAfterMsMax, { message: 'monitors.degradedAfterInvalid' })
  degradedAfterMs?: number | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: LOCATIONS_MAX,
    default: ['server'],
    description: 'Where it is checked from: server and/or agent:<id> (admins only for agents)',
  })
  @ValidateIf((_, value) => value !== undefined)
  @Validate(LocationList, { message: 'monitors.locationsInvalid' })
  locations?: string[];

  @ApiPropertyOptional({
    enum: QUORUM_RULES,
    default: 'any',
    description: 'Down when any / a majority / at least quorumMin locations fail',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(QUORUM_RULES, { message: 'monitors.quorumInvalid' })
  quorum?: QuorumRule;

  @ApiPropertyOptional({ nullable: true, minimum: 1, maximum: LOCATIONS_MAX, description: 'Rule atLeast: failing locations' })
  @Transform(toNumber)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt({ message: 'monitors.quorumMinInvalid' })
  @Min(1, { message: 'monitors.quorumMinInvalid' })
  @Max(LOCATIONS_MAX, { message: 'monitors.quorumMinInvalid' })
  quorumMin?: number | null;

  @ApiPropertyOptional({ nullable: true, description: "The agent of the host it runs on: its down alert tells that host's state" })
  @Transform(toNumber)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt({ message: 'monitors.hostAgentInvalid' })
  @Min(1, { message: 'monitors.hostAgentInvalid' })
  @Max(ID_MAX, { message: 'monitors.hostAgentInvalid' })
  hostAgentId?: number | null;

  @ApiPropertyOptional({ nullable: true, maxLength: L.descriptionMax, description: 'Plain text; empty or null: none' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || null : value))
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString({ message: 'monitors.descriptionInvalid' })
  @MaxLength(L.descriptionMax, { message: 'monitors.descriptionInvalid' })
  description?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: L.tagsMax,
    description: 'Replaces its tags: each name or name:value (trimmed, white space collapsed; duplicates dropped)',
  })
  @Transform(({ value }: { value: unknown }) => normalizeTags(value) ?? value)
  @ValidateIf((_, value) => value !== undefined)
  @Validate(TagList, { message: 'monitors.tagsInvalid' })
  tags?: string[];

  @ApiPropertyOptional({ default: false, description: 'Invert each check: a failing check is up, a passing one down' })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'monitors.upsideDownInvalid' })
  upsideDown?: boolean;
}

export class UpdateMonitorDto extends CreateMonitorDto {
  /** Read by the per-type rules: an edit may leave out what the type requires, and its type may be the stored one. */
  static readonly partial = true;

  @ApiPropertyOptional()
  @IsOptional()
  declare name: string;
}

/** `POST /api/monitors/test`: the create body, checked once and not stored. */
export class TestMonitorDto extends CreateMonitorDto {}

export class ListMonitorsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ['all', 'active', 'paused'] })
  @IsOptional()
  @IsIn(['all', 'active', 'paused'], { message: 'validation.failed' })
  filter?: MonitorFilter;

  @ApiPropertyOptional({ enum: MONITOR_STATUSES })
  @IsOptional()
  @IsIn(MONITOR_STATUSES, { message: 'validation.failed' })
  status?: MonitorStatus;

  @ApiPropertyOptional({ enum: MONITOR_TYPES })
  @IsOptional()
  @IsIn(MONITOR_TYPES, { message: 'monitors.typeInvalid' })
  type?: MonitorType;

  @ApiPropertyOptional({ description: 'Grouped view: only monitors in no group' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  )
  @IsBoolean({ message: 'validation.failed' })
  topLevel?: boolean;

  @QueryInteger({ min: 1, max: ID_MAX, message: 'monitors.parentInvalid' })
  parentId?: number;

  @ApiPropertyOptional({ maxLength: L.tagMax, description: 'Only monitors carrying this exact tag (name, or name:value)' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => normalizeTag(value) ?? value)
  @Validate(TagValue, { message: 'monitors.tagInvalid' })
  tag?: string;

  @ApiPropertyOptional({ description: 'Part of a name or URL' })
  @IsOptional()
  @IsString({ message: 'validation.failed' })
  @MaxLength(200, { message: 'validation.failed' })
  search?: string;
}

export class StatsQuery {
  @ApiPropertyOptional({ enum: STATS_RANGES, default: '24h' })
  @IsOptional()
  @IsIn(STATS_RANGES, { message: 'monitors.rangeInvalid' })
  range?: StatsRange;
}

export class ChecksQuery {
  @QueryInteger({ min: 1, max: PAGE_MAX, message: 'request.pageInvalid', default: 1 })
  page?: number;

  @QueryInteger({ min: 1, max: PAGE_SIZE_MAX, message: 'request.pageSizeInvalid', default: 50 })
  pageSize?: number;
}
