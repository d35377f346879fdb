import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { isMessageCode, MESSAGES, MessageCode } from '@vigil/proto';
import { badRequest } from './api-exception';
import { findBadText } from './text-rule';

/** Which failed rule speaks first: a missing value, then a wrong type, then the finer rules. */
const PRECEDENCE = ['isDefined', 'isNotEmpty', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject'];

function rank(constraint: string): number {
  const index = PRECEDENCE.indexOf(constraint);
  return index === -1 ? PRECEDENCE.length : index;
}

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const failed = Object.entries(error.constraints ?? {}).sort(([a], [b]) => rank(a) - rank(b));
    if (failed.length) return failed[0][1];
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}

/** An agent route's body (`@CheckedBody`, no DTO class): the text rule still applies, with these fields' messages. */
export interface CheckedBodyMessages {
  fields: Partial<Record<string, MessageCode>>;
  /** For any other field, and for text nested deeper than a named field. */
  otherwise: MessageCode;
}

export function isCheckedBodyMessages(value: unknown): value is CheckedBodyMessages {
  return typeof value === 'object' && value !== null && isMessageCode((value as CheckedBodyMessages).otherwise);
}

/**
 * The message a DTO field answers with when its value is unacceptable as such: with `asText`, the message of its
 * string rule (bad text is refused like a value that is not a string), otherwise its most basic rule's.
 */
function dtoFieldMessage(metatype: Type<unknown>, field: string, asText: boolean): MessageCode | undefined {
  const rules = getMetadataStorage()
    .getTargetValidationMetadatas(metatype, '', true, false)
    .filter((rule) => rule.propertyName === field && typeof rule.message === 'string' && isMessageCode(rule.message))
    .map((rule) => ({ name: rule.name ?? rule.type, message: rule.message as MessageCode }));
  const text = asText ? rules.find((rule) => rule.name === 'isString') : undefined;
  return (text ?? rules.sort((a, b) => rank(a.name) - rank(b.name))[0])?.message;
}

function isDto(metatype: ArgumentMetadata['metatype']): metatype is Type<unknown> {
  return typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);
}

/** Where @nestjs/swagger keeps a property's @ApiProperty options (its `DECORATORS.API_MODEL_PROPERTIES`). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** Whether the DTO documents `null` as a meaning for this field (its OpenAPI `nullable`). */
function acceptsNull(metatype: Type<unknown>, field: string): boolean {
  const property = Reflect.getMetadata(API_MODEL_PROPERTIES, metatype.prototype, field) as { nullable?: boolean } | undefined;
  return property?.nullable === true;
}

/**
 * The one rule for text from outside, applied to every body, query and route parameter before anything reads it:
 * a NUL or an unpaired surrogate anywhere (value or key) is a 400 with the field's own message.
 */
function refuseBadText(value: unknown, metadata: ArgumentMetadata): void {
  const path = findBadText(value);
  if (!path) return;
  const field = metadata.data && typeof metadata.data === 'string' ? metadata.data : String(path[0] ?? '');
  let code: MessageCode | undefined;
  if (isCheckedBodyMessages(metadata.data)) {
    // Own keys only: a body key such as `__proto__` or `constructor` must not find Object.prototype's members.
    const { fields, otherwise } = metadata.data;
    code = Object.hasOwn(fields, field) ? (fields[field] ?? otherwise) : otherwise;
  } else if (isDto(metadata.metatype)) {
    code = dtoFieldMessage(metadata.metatype, field, true);
  }
  throw badRequest(code ?? 'validation.textInvalid');
}

/** `null` for a field whose DTO does not document it as nullable is that field's error, not a value to store. */
function refuseUndocumentedNull(value: unknown, metatype: Type<unknown>): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  for (const [field, item] of Object.entries(value)) {
    if (item !== null || acceptsNull(metatype, field)) continue;
    const code = dtoFieldMessage(metatype, field, false);
    if (code) throw badRequest(code);
  }
}

/**
 * DTO validation. Decorators carry message codes; the most basic failing rule of the first invalid field becomes
 * the answer's human message. Before it, the shared text and null rules run on every input (see above).
 */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const checked = metadata.type === 'custom' && isCheckedBodyMessages(metadata.data);
    if (metadata.type === 'body' || metadata.type === 'query' || metadata.type === 'param' || checked) {
      refuseBadText(value, metadata);
      if (metadata.type === 'body' && !metadata.data && isDto(metadata.metatype)) {
        // A DTO describes an object: a list (or a bare value) is not a body with a bad field, it is the wrong body.
        if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value)))
          throw badRequest('validation.failed');
        refuseUndocumentedNull(value, metadata.metatype);
        value = knownFieldsOnly(value, metadata.metatype);
      }
    }
    return super.transform(value, metadata);
  }
}

/**
 * The body without fields its DTO does not know. `whitelist` drops them too, but only after class-transformer has
 * copied them, which costs time on a large unknown field; dropping them first keeps every request cheap.
 */
function knownFieldsOnly(value: unknown, metatype: Type<unknown>): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(metatype, '', true, false)
      .map((rule) => rule.propertyName),
  );
  return Object.fromEntries(Object.entries(value).filter(([field]) => known.has(field)));
}

export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors) => {
      const message = firstMessage(errors);
      if (isMessageCode(message)) return badRequest(message, MESSAGES[message]);
      return badRequest('validation.failed', message ?? MESSAGES['validation.failed']);
    },
  });
}
