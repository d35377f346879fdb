import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsIn, Validate, ValidateIf, ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import {
  ADDED_MONITOR_TYPES,
  Assertion,
  isAddedType,
  isOfKind,
  kindCode,
  MONITOR_TYPES,
  MonitorType,
  MonitorTypeRequest,
  settingsFields,
  typeSpec,
  validateAssertions,
  validateFields,
  type DnsRecordType,
  type GroupRule,
  type MessageCode,
  type MonitorFieldSpec,
} from '@vigil/proto';
import { serverFieldProblem } from './types/field-rules';

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

/** The first types' fields by name, as the first type declaring each has it (`url` included). */
const FIRST_FIELDS = new Map<string, MonitorFieldSpec>();
for (const type of MONITOR_TYPES.filter((each) => !isAddedType(each))) {
  for (const field of typeSpec(type).fields) if (!FIRST_FIELDS.has(field.name)) FIRST_FIELDS.set(field.name, field);
}

/**
 * The per-type request fields checked here, from the first types' specs: the API's rules since before the specs
 * (`strict`, their own messages). An added type reading one of these names (hostname, port, ignoreTls) is held to it
 * too; its spec checks its settings again in the service (monitor-settings.ts). `url` keeps its rule in
 * monitors.dto.ts, where its scheme follows the type.
 */
const REQUEST_FIELDS = new Map([...FIRST_FIELDS].filter(([name]) => name !== 'url'));

const requestField = (name: string): MonitorFieldSpec => REQUEST_FIELDS.get(name) as MonitorFieldSpec;

/**
 * The order the fields are checked in: one every type's spec agrees with (hostname before port before ignoreTls…),
 * so a body's first problem is the first in its type's own field list.
 */
function checkingOrder(): string[] {
  const before = new Map<string, Set<string>>([...REQUEST_FIELDS.keys()].map((name) => [name, new Set<string>()]));
  for (const type of MONITOR_TYPES) {
    const names = typeSpec(type)
      .fields.map((field) => field.name)
      .filter((name) => REQUEST_FIELDS.has(name));
    names.forEach((name, index) => names.slice(0, index).forEach((earlier) => before.get(name)?.add(earlier)));
  }
  const order: string[] = [];
  const left = [...REQUEST_FIELDS.keys()];
  while (left.length > 0) {
    const next = left.findIndex((name) => [...(before.get(name) ?? [])].every((earlier) => order.includes(earlier)));
    order.push(...left.splice(Math.max(next, 0), 1));
  }
  return order;
}

/** The message of a required field left out (its spec's `required` code). */
export function missingFieldCode(field: string): MessageCode {
  return FIRST_FIELDS.get(field)?.codes?.required ?? 'validation.failed';
}

const toNumber = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;

/** How a field's value is read before it is checked: numbers from their text, text trimmed (unless multiline), cleared. */
function normalizer(field: MonitorFieldSpec) {
  return ({ value }: { value: unknown }): unknown => {
    if (field.kind === 'number') return toNumber(value);
    // One threshold or a list of them.
    if (field.kind === 'list')
      return value === undefined || value === null ? value : (Array.isArray(value) ? value : [value]).map(toNumber);
    if (typeof value !== 'string') return value;
    let text = field.multiline ? value : value.trim();
    if (field.uppercase) text = text.toUpperCase();
    // `[::1]` is read as `::1`: brackets only belong in URLs.
    if (field.column === 'hostname') text = text.replace(/^\[(.*)\]$/, '$1');
    return field.clearable && text.trim() === '' ? null : text;
  };
}

/** The field in the OpenAPI document (which the fuzz suite reads), from its spec. */
function apiSchema(field: MonitorFieldSpec) {
  const types = MONITOR_TYPES.filter((type) => usesField(type, field.name));
  const kind =
    field.kind === 'number'
      ? { type: 'integer', minimum: field.min, maximum: field.max }
      : field.kind === 'boolean'
        ? { type: 'boolean' }
        : field.kind === 'select'
          ? { type: 'string', enum: [...(field.options ?? [])] }
          : field.kind === 'list'
            ? { type: 'array', items: { type: 'integer' }, maxItems: field.max, description: `${types.join(', ')}: one number or a list` }
            : { type: 'string', maxLength: field.max };
  const schema = { description: types.join(', '), default: field.default, nullable: field.clearable, ...kind };
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

/** A sent (or required) value is of its field's kind: otherwise, or when missing, the field's most basic message. */
@ValidatorConstraint({ name: 'typeFieldKind' })
class TypeFieldKind implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return value !== undefined && isOfKind(requestField(args.property), value);
  }
}

/** The spec's rules of the field, then the server's rules of the body's type (types/field-rules.ts). */
function fieldProblem(args: ValidationArguments): MessageCode | null {
  const field = requestField(args.property);
  const read = validateFields({ fields: [{ ...field, default: undefined }] }, { [field.name]: args.value });
  if (!read.ok) return read.code;
  const type = bodyType(args.object);
  const types = type ? [type] : MONITOR_TYPES.filter((each) => usesField(each, field.name));
  return serverFieldProblem(types, field.name, read.config[field.name], field.codes?.invalid ?? kindCode(field));
}

@ValidatorConstraint({ name: 'typeField' })
class TypeFieldRules implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return fieldProblem(args) === null;
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

/** The per-type fields of a create or update body (MonitorTypeRequest), validated per the body's type. */
export class MonitorTypeFieldsDto implements MonitorTypeRequest {
  @ApiPropertyOptional({ enum: MONITOR_TYPES, default: 'http' })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(MONITOR_TYPES, { message: 'monitors.typeInvalid' })
  type?: MonitorType;

  // Declared from the first types' specs below (declareTypeFields), then assertions.
  declare hostname?: string;
  declare port?: number;
  declare packetCount?: number;
  declare dnsRecordType?: DnsRecordType;
  declare dnsServer?: string | null;
  declare message?: string | null;
  declare grpcService?: string;
  declare tls?: boolean;
  declare connectionString?: string;
  declare query?: string | null;
  declare ignoreTls?: boolean;
  declare maxRedirects?: number;
  declare certExpiryDays?: number | number[];
  declare pushToken?: string;
  declare groupRule?: GroupRule;
  declare groupMin?: number;
  declare assertions?: Assertion[];
}

/**
 * Each first-type field's decorators, derived from its spec: read (numbers, trimmed text), checked when the body's
 * type reads it, first for its kind (the message the text and null rules of common/validation.ts answer with), then by
 * its spec and its type's server rules. Assertions come last, as they always did.
 */
function declareTypeFields(): void {
  const target = MonitorTypeFieldsDto.prototype;
  for (const name of checkingOrder()) {
    const field = requestField(name);
    const checked = validated(name);
    ApiPropertyOptional(apiSchema(field))(target, name);
    Transform(normalizer(field))(target, name);
    ValidateIf(field.clearable ? (object: object, value: unknown) => value !== null && checked(object, value) : checked)(target, name);
    Validate(TypeFieldKind, { message: kindCode(field) })(target, name);
    Validate(TypeFieldRules, { message: (args: ValidationArguments) => fieldProblem(args) ?? kindCode(field) })(target, name);
  }
  ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: 'Conditions on every result: [{ source, path?, operator, value? }]',
  })(target, 'assertions');
  ValidateIf((_: object, value: unknown) => value !== undefined)(target, 'assertions');
  Validate(Assertions, { message: assertionsMessage })(target, 'assertions');
}
declareTypeFields();

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
