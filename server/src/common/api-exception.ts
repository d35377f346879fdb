import { HttpException, HttpStatus } from '@nestjs/common';
import { MESSAGES, MessageCode } from '@vigil/proto';

/** An expected failure: an honest status code and one of the catalogued messages. */
export class ApiException extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: MessageCode,
    message: string = MESSAGES[code],
    /** Seconds the caller should wait before trying again (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number,
    /** The request field the message is about. */
    field?: string,
  ) {
    super({ success: false, message, code, ...(field ? { field } : {}) }, status);
  }
}

export const badRequest = (code: MessageCode, message?: string) => new ApiException(HttpStatus.BAD_REQUEST, code, message);
export const unauthorized = (code: MessageCode) => new ApiException(HttpStatus.UNAUTHORIZED, code);
export const forbidden = (code: MessageCode = 'auth.forbidden') => new ApiException(HttpStatus.FORBIDDEN, code);
export const notFound = (code: MessageCode = 'request.notFound') => new ApiException(HttpStatus.NOT_FOUND, code);
export const conflict = (code: MessageCode) => new ApiException(HttpStatus.CONFLICT, code);
export const tooManyRequests = (code: MessageCode = 'request.tooMany', retryAfterSeconds?: number) =>
  new ApiException(HttpStatus.TOO_MANY_REQUESTS, code, undefined, retryAfterSeconds);
