import { HttpException, HttpStatus } from '@nestjs/common';
import { MESSAGES, MessageCode } from '@vigil/proto';

/** An expected failure: an honest status code and one of the catalogued messages. */
export class ApiException extends HttpException {
  /** Sent as `Retry-After` when set (a 429 that knows when the next request would pass). */
  retryAfterSeconds?: number;

  constructor(
    status: HttpStatus,
    readonly code: MessageCode,
    message: string = MESSAGES[code],
  ) {
    super({ success: false, message, code }, status);
  }
}

export const badRequest = (code: MessageCode, message?: string) => new ApiException(HttpStatus.BAD_REQUEST, code, message);
export const unauthorized = (code: MessageCode) => new ApiException(HttpStatus.UNAUTHORIZED, code);
export const forbidden = (code: MessageCode = 'auth.forbidden') => new ApiException(HttpStatus.FORBIDDEN, code);
export const notFound = (code: MessageCode = 'request.notFound') => new ApiException(HttpStatus.NOT_FOUND, code);
export const conflict = (code: MessageCode) => new ApiException(HttpStatus.CONFLICT, code);
export const tooManyRequests = (code: MessageCode = 'request.tooMany', retryAfterSeconds?: number) =>
  Object.assign(new ApiException(HttpStatus.TOO_MANY_REQUESTS, code), { retryAfterSeconds });
