import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  Allow,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
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
import { isIP } from 'node:net';
import {
  ADDED_MONITOR_TYPES,
  Assertion,
  DNS_RECORD_TYPES,
  DnsRecordType,
  GROUP_RULES,
  GroupRule,
  isAllowedRedisCommand,
  MONITOR_TYPE_LIMITS as L,
  MONITOR_TYPES,
  MonitorType,
  MonitorTypeRequest,
  settingsFields,
  typeSpec,
  validateAssertions,
  type MessageCode,
} from '@vigil/proto';
import { isMask } from '../common/secret-values';
import { CONNECTION_SCHEMES, ConnectionStringError, parseConnectionString, type DatabaseType } from './checkers/database-connection';

/** The per-type request fields each type reads (`*` required), from its spec; any other is ignored for that type. */
export const TYPE_FIELDS = Object.fromEntries(
  MONITOR_TYPES.map((type) => [type, typeSpec(type).fields.map((field) => (field.required ? `${field.name}*` : field.name))]),
) as unknown as { [T in MonitorType]: readonly string[] };

export function usesField(type: MonitorType, field: string): boolean {
  return TYPE_FIELDS[type].includes(field) || TYPE_FIELDS[type].includes(`${field}*`);
}

export function requiredFields(type: MonitorType): string[] {
  return TYPE_FIELDS[type].filter((field) => field.endsWith('*')).map((field) => field.slice(0, -1));
}

/** The message of a required field left out. */
export const MISSING_FIELD: Record<string, MessageCode> = {
  url: 'monitors.urlRequired',
  hostname: 'monitors.hostnameRequired',
  port: 'monitors.portInvalid',
  connectionString: 'monitors.connectionStringRequired',
};

/** An edit (every field optional; the type may be the stored one) rather than a new monitor. */
interface PartialMarker {
  partial?: boolean;
}
export const isEdit = (object: object) => (object.constructor as PartialMarker).partial === true;

/** The type a body is validated as: its own, `http` for a new monitor without one, unknown for an edit without one. */
export function bodyType(object: object): MonitorType | undefined {
  const type = (object as MonitorTypeRequest).type;
  if (type !== undefined) return MONITOR_TYPES.includes(type) ? type : undefined;
  return isEdit(object) ? undefined : 'http';
}

/**
 * Whether a per-type field is validated: when the body's type reads it and it is sent (or required, for a new
 * monitor); for an edit that names no type, whenever it is sent (the service checks it against the stored type).
 */
export function validated(field: string) {
  return (object: object, value: unknown) => {
    const type = bodyType(object);
    if (type === undefined) return value !== undefined;
    if (!usesField(type, field)) return false;
    return value !== undefined || (!isEdit(object) && requiredFields(type).includes(field));
  };
}

const HOST_LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;

/** A host name (labels of letters, digits, `-`, `_`) or an IPv4/IPv6 address, at most 253 characters. */
export function isHostname(value: unknown): boolean {
  if (typeof value !== 'string' || value === '' || value.length > L.hostnameMax) return false;
  if (isIP(value)) return true;
  return value
    .replace(/\.$/, '')
    .split('.')
    .every((label) => HOST_LABEL.test(label));
}

/** `host`, `host:port`, an IPv6 address, or `[IPv6]:port`. */
export function parseHostPort(value: string): { host: string; port: number | null } | null {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  const plain = /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(value);
  const [host, port] = bracketed ? [bracketed[1], bracketed[2]] : plain ? [plain[1], plain[2]] : isIP(value) === 6 ? [value] : [];
  if (host === undefined || !isHostname(host) || (bracketed && isIP(host) !== 6)) return null;
  const number = port === undefined ? null : Number(port);
  if (number !== null && (number < L.portMin || number > L.portMax)) return null;
  return { host, port: number };
}

@ValidatorConstraint({ name: 'hostname' })
class Hostname implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isHostname(value);
  }
}

@ValidatorConstraint({ name: 'dnsServer' })
class DnsServer implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return value === null || (typeof value === 'string' && value.length <= 260 && parseHostPort(value) !== null);
  }
}

/** A URL whose scheme fits the body's type (an edit naming no type: any scheme a type with a URL takes). */
@ValidatorConstraint({ name: 'targetUrl' })
export class TargetUrl implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    // No whitespace anywhere, as isHttpUrl (the rule of before monitor types) has it.
    if (typeof value !== 'string' || /\s/.test(value)) return false;
    const type = bodyType(args.object);
    const schemes = type === 'websocket' ? ['ws:', 'wss:'] : type !== undefined ? ['http:', 'https:'] : ['http:', 'https:', 'ws:', 'wss:'];
    try {
      const url = new URL(value);
      return schemes.includes(url.protocol) && url.hostname !== '';
    } catch {
      return false;
    }
  }
}

/**
 * Why a connection string would be refused by every check of its type: the checkers' own parser decides, so what is
 * saved is what runs. Null when it is usable (or is the mask read back: the stored one is kept).
 */
export function connectionStringProblem(type: MonitorType | undefined, value: unknown): MessageCode | null {
  if (typeof value !== 'string' || value.length > L.connectionStringMax || /\s/.test(value)) return 'monitors.connectionStringInvalid';
  if (isMask(value.trim())) return null;
  // An edit naming no type: usable as any database type (the service checks it against the stored type).
  const types = (type ? [type] : Object.keys(CONNECTION_SCHEMES)) as MonitorType[];
  let problem: MessageCode = 'monitors.connectionStringInvalid';
  for (const candidate of types) {
    const schemes: readonly string[] = CONNECTION_SCHEMES[candidate as DatabaseType] ?? [];
    if (!schemes.some((scheme) => value.toLowerCase().startsWith(`${scheme}//`))) continue;
    try {
      parseConnectionString(candidate as DatabaseType, value);
      return null;
    } catch (error) {
      if (!(error instanceof ConnectionStringError)) throw error;
      problem = error.reason === 'setting' ? 'monitors.connectionStringUnusable' : 'monitors.connectionStringInvalid';
    }
  }
  return problem;
}

@ValidatorConstraint({ name: 'connectionString' })
class ConnectionString implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return connectionStringProblem(bodyType(args.object), value) === null;
  }
}

const connectionStringMessage = (args: ValidationArguments) =>
  connectionStringProblem(bodyType(args.object), args.value) ?? 'monitors.connectionStringInvalid';

/** A Redis monitor's command: one of the bounded reads (the checker refuses any other at every check). */
@ValidatorConstraint({ name: 'redisCommand' })
class RedisCommand implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return bodyType(args.object) !== 'redis' || (typeof value === 'string' && isAllowedRedisCommand(value));
  }
}

/** One threshold or a list of them: whole days, at most five. */
@ValidatorConstraint({ name: 'certExpiryDays' })
class CertExpiryDays implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      Array.isArray(value) &&
      value.length <= L.certExpiryThresholdsMax &&
      value.every((day) => Number.isInteger(day) && day >= L.certExpiryDaysMin && day <= L.certExpiryDaysMax)
    );
  }
}

@ValidatorConstraint({ name: 'assertions' })
class Assertions implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const type = bodyType(args.object);
    return type === undefined || validateAssertions(type, value).ok;
  }
}

const assertionsMessage = (args: ValidationArguments) => {
  const checked = validateAssertions(bodyType(args.object) ?? 'http', args.value);
  return checked.ok ? 'monitors.assertionsInvalid' : checked.code;
};

const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** `[::1]` is read as `::1`: brackets only belong in URLs. */
const hostname = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().replace(/^\[(.*)\]$/, '$1') : value);
const emptyAsNull = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? null : value);
const thresholds = ({ value }: { value: unknown }) => {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? value : [value];
  return Array.isArray(list) ? list.map((day) => toNumber({ value: day })) : list;
};

/** The per-type fields of a create or update body (MonitorTypeRequest), validated per the body's type. */
export class MonitorTypeFieldsDto implements MonitorTypeRequest {
  @ApiPropertyOptional({ enum: MONITOR_TYPES, default: 'http' })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(MONITOR_TYPES, { message: 'monitors.typeInvalid' })
  type?: MonitorType;

  @ApiPropertyOptional({ description: 'tcp, ping, dns, tls, grpc: host name or IP address' })
  @Transform(hostname)
  @ValidateIf(validated('hostname'))
  @IsNotEmpty({ message: 'monitors.hostnameRequired' })
  @IsString({ message: 'monitors.hostnameRequired' })
  @Validate(Hostname, { message: 'monitors.hostnameInvalid' })
  hostname?: string;

  @ApiPropertyOptional({ minimum: L.portMin, maximum: L.portMax, description: 'tcp, grpc (required), tls (443)' })
  @Transform(toNumber)
  @ValidateIf(validated('port'))
  @IsInt({ message: 'monitors.portInvalid' })
  @Min(L.portMin, { message: 'monitors.portInvalid' })
  @Max(L.portMax, { message: 'monitors.portInvalid' })
  port?: number;

  @ApiPropertyOptional({ minimum: L.packetCountMin, maximum: L.packetCountMax, default: 3 })
  @Transform(toNumber)
  @ValidateIf(validated('packetCount'))
  @IsInt({ message: 'monitors.packetCountInvalid' })
  @Min(L.packetCountMin, { message: 'monitors.packetCountInvalid' })
  @Max(L.packetCountMax, { message: 'monitors.packetCountInvalid' })
  packetCount?: number;

  @ApiPropertyOptional({ enum: DNS_RECORD_TYPES, default: 'A' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @ValidateIf(validated('dnsRecordType'))
  @IsIn(DNS_RECORD_TYPES, { message: 'monitors.dnsRecordTypeInvalid' })
  dnsRecordType?: DnsRecordType;

  @ApiPropertyOptional({ nullable: true, description: 'host[:port]; empty or null: the system resolver' })
  @Transform(({ value }: { value: unknown }) => emptyAsNull({ value: trimmed({ value }) }))
  @ValidateIf(validated('dnsServer'))
  @Validate(DnsServer, { message: 'monitors.dnsServerInvalid' })
  dnsServer?: string | null;

  @ApiPropertyOptional({ nullable: true, description: 'websocket: sent once connected' })
  @ValidateIf((object, value) => value !== null && validated('message')(object, value))
  @IsString({ message: 'monitors.messageTooLong' })
  @MaxLength(L.messageMax, { message: 'monitors.messageTooLong' })
  message?: string | null;

  @ApiPropertyOptional({ description: "grpc: the service asked of grpc.health.v1.Health/Check ('' = the server)" })
  @Transform(trimmed)
  @ValidateIf(validated('grpcService'))
  @IsString({ message: 'monitors.grpcServiceInvalid' })
  @MaxLength(L.grpcServiceMax, { message: 'monitors.grpcServiceInvalid' })
  grpcService?: string;

  @ApiPropertyOptional({ description: 'grpc: connect with TLS' })
  @ValidateIf(validated('tls'))
  @IsBoolean({ message: 'validation.booleanRequired' })
  tls?: boolean;

  @ApiPropertyOptional({ description: 'postgres, mysql, redis: a secret URL, masked in reads' })
  @Transform(trimmed)
  @ValidateIf(validated('connectionString'))
  @IsNotEmpty({ message: 'monitors.connectionStringRequired' })
  @IsString({ message: 'monitors.connectionStringRequired' })
  @Validate(ConnectionString, { message: connectionStringMessage })
  connectionString?: string;

  @ApiPropertyOptional({ nullable: true, description: 'Default SELECT 1 (PING for redis)' })
  @Transform(emptyAsNull)
  @ValidateIf((object, value) => value !== null && validated('query')(object, value))
  @IsString({ message: 'monitors.queryTooLong' })
  @MaxLength(L.queryMax, { message: 'monitors.queryTooLong' })
  @Validate(RedisCommand, { message: 'monitors.redisCommandNotAllowed' })
  query?: string | null;

  @ApiPropertyOptional({ default: false, description: 'Accept an expired, self-signed or mismatched certificate' })
  @ValidateIf(validated('ignoreTls'))
  @IsBoolean({ message: 'validation.booleanRequired' })
  ignoreTls?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: L.maxRedirectsMax, default: 5 })
  @Transform(toNumber)
  @ValidateIf(validated('maxRedirects'))
  @IsInt({ message: 'monitors.maxRedirectsInvalid' })
  @Min(0, { message: 'monitors.maxRedirectsInvalid' })
  @Max(L.maxRedirectsMax, { message: 'monitors.maxRedirectsInvalid' })
  maxRedirects?: number;

  @ApiPropertyOptional({ description: 'Days before expiry to notify at: one number or a list, e.g. [21, 14, 7]', default: [14] })
  @Transform(thresholds)
  @ValidateIf(validated('certExpiryDays'))
  @Validate(CertExpiryDays, { message: 'monitors.certExpiryDaysInvalid' })
  certExpiryDays?: number | number[];

  @ApiPropertyOptional({ description: "push: Uptime Kuma's token of a migrated monitor; absent: one is generated" })
  @ValidateIf(validated('pushToken'))
  @IsString({ message: 'monitors.pushTokenInvalid' })
  @Matches(new RegExp(`^[A-Za-z0-9_-]{${L.pushTokenMin},${L.pushTokenMax}}$`), { message: 'monitors.pushTokenInvalid' })
  pushToken?: string;

  @ApiPropertyOptional({ enum: GROUP_RULES, default: 'any', description: 'group: down when any / all / at least groupMin members are' })
  @ValidateIf(validated('groupRule'))
  @IsIn(GROUP_RULES, { message: 'monitors.groupRuleInvalid' })
  groupRule?: GroupRule;

  @ApiPropertyOptional({ minimum: L.groupMinMin, maximum: L.groupMinMax, description: 'group, rule atLeast: members down' })
  @Transform(toNumber)
  @ValidateIf(validated('groupMin'))
  @IsInt({ message: 'monitors.groupMinInvalid' })
  @Min(L.groupMinMin, { message: 'monitors.groupMinInvalid' })
  @Max(L.groupMinMax, { message: 'monitors.groupMinInvalid' })
  groupMin?: number;

  @ApiPropertyOptional({ description: 'Conditions on every result: [{ source, path?, operator, value? }]' })
  @ValidateIf((_, value) => value !== undefined)
  @Validate(Assertions, { message: assertionsMessage })
  assertions?: Assertion[];
}

/**
 * The added types' settings come flat in the body (`mqttTopic` beside `name`): each name is declared here, from the
 * specs, so the body keeps it and the OpenAPI document (hence the fuzz suite) lists it. The type's spec checks the
 * values (monitor-settings.ts), naming the field in its 400.
 */
function declareSettingsFields(): void {
  const seen = new Map<string, { kind: string; types: string[] }>();
  for (const type of ADDED_MONITOR_TYPES) {
    for (const field of settingsFields(typeSpec(type))) {
      const entry = seen.get(field.name) ?? { kind: field.kind, types: [] };
      entry.types.push(type);
      seen.set(field.name, entry);
    }
  }
  for (const [name, { kind, types }] of seen) {
    const description = `${types.join(', ')}: see the type's spec (${kind})`;
    const schema =
      kind === 'map'
        ? ({ type: 'object', additionalProperties: { type: 'string' }, description } as const)
        : ({ type: kind === 'number' ? 'integer' : kind === 'boolean' ? 'boolean' : 'string', description } as const);
    ApiPropertyOptional(schema)(MonitorTypeFieldsDto.prototype, name);
    Allow()(MonitorTypeFieldsDto.prototype, name);
  }
}
declareSettingsFields();
