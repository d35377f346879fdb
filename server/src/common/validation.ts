import { ValidationError, ValidationPipe } from '@nestjs/common';
import { isMessageCode, MESSAGES } from '@vigil/proto';
import { badRequest } from './api-exception';

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

/**
 * DTO validation. Decorators carry message codes; the most basic failing rule of the first invalid field becomes
 * the answer's human message.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors) => {
      const message = firstMessage(errors);
      if (isMessageCode(message)) return badRequest(message, MESSAGES[message]);
      return badRequest('validation.failed', message ?? MESSAGES['validation.failed']);
    },
  });
}
