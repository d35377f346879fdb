import { ValidationError, ValidationPipe } from '@nestjs/common';
import { isMessageCode, MESSAGES } from '@vigil/proto';
import { badRequest } from './api-exception';

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const messages = Object.values(error.constraints ?? {});
    if (messages.length) return messages[messages.length - 1];
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * DTO validation. Decorators carry message codes; the first failing rule becomes the answer's human message
 * (the last constraint is the first one declared, as class-validator reports them in reverse).
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
