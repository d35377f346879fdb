import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, MESSAGES, MessageCode } from '@vigil/proto';
import { ApiException } from './api-exception';

/** Generic texts for statuses raised outside our own code (unknown route, framework errors). */
const STATUS_CODES: Partial<Record<number, MessageCode>> = {
  [HttpStatus.BAD_REQUEST]: 'validation.failed',
  [HttpStatus.UNAUTHORIZED]: 'auth.required',
  [HttpStatus.FORBIDDEN]: 'auth.forbidden',
  [HttpStatus.NOT_FOUND]: 'request.notFound',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'request.bodyTooLarge',
  [HttpStatus.TOO_MANY_REQUESTS]: 'request.tooMany',
};

/** Renders a thrown error as `{ success: false, message, code? }` with an honest status. */
export function toApiError(error: unknown, requestId?: string): { status: number; body: ApiError } {
  if (error instanceof ApiException) {
    const body = error.getResponse() as ApiError;
    return { status: error.getStatus(), body };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = STATUS_CODES[status];
    if (code) return { status, body: { success: false, message: MESSAGES[code], code } };
    if (status < 500) return { status, body: { success: false, message: error.message } };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { success: false, message: MESSAGES['request.internalError'], code: 'request.internalError', requestId },
  };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const requestId = request.requestId;
    const { status, body } = toApiError(error, requestId);
    if (status >= 500) {
      // Our own bug: full detail in the log under the request id, none in the answer.
      this.logger.error(`${request.method} ${request.path} failed [${requestId}]`, (error as Error)?.stack ?? String(error));
    }
    if (response.headersSent) return;
    if (error instanceof ApiException && error.retryAfterSeconds) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    response.status(status).json(body);
  }
}
