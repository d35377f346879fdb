import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, MESSAGES, MessageCode } from '@vigil/proto';
import { loggedPath } from '../logging/logged-path';
import { ApiException } from './api-exception';
import { isDatabaseUnavailable } from './database-errors';

/** What a caller is told to wait while the database is unavailable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Generic texts for statuses raised outside our own code (unknown route, framework errors). */
const STATUS_CODES: Partial<Record<number, MessageCode>> = {
  [HttpStatus.BAD_REQUEST]: 'validation.failed',
  [HttpStatus.UNAUTHORIZED]: 'auth.required',
  [HttpStatus.FORBIDDEN]: 'auth.forbidden',
  [HttpStatus.NOT_FOUND]: 'request.notFound',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'request.bodyTooLarge',
  [HttpStatus.TOO_MANY_REQUESTS]: 'request.tooMany',
};

export interface RenderedError {
  status: number;
  body: ApiError;
  /** `Retry-After` in seconds, for 429 and 503. */
  retryAfter?: number;
}

/** Renders a thrown error as `{ success: false, message, code? }` with an honest status. */
export function toApiError(error: unknown, requestId?: string): RenderedError {
  if (error instanceof ApiException) {
    const body = error.getResponse() as ApiError;
    return { status: error.getStatus(), body, ...(error.retryAfterSeconds ? { retryAfter: error.retryAfterSeconds } : {}) };
  }
  if (isDatabaseUnavailable(error)) {
    // Not our bug and not the caller's: the database is down, cut off, full or too slow. Retrying later may work.
    const code: MessageCode = 'request.databaseUnavailable';
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: { success: false, message: MESSAGES[code], code },
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
    };
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

/** What a failed request's log line names: its method, its URL (the query is left out) and its id. */
export interface FailedRequest {
  method?: string;
  url: string;
  requestId?: string;
}

/**
 * Renders a failed request's error, logging what is ours to fix (5xx) or an outage (503). An ApiException is an answer
 * we chose (health's 503 included, which logs its own changes of state), so it is never logged here.
 */
export function renderLoggedApiError(error: unknown, request: FailedRequest, logger: Logger): RenderedError {
  const rendered = toApiError(error, request.requestId);
  const path = loggedPath(request.url);
  // The filter runs outside the handler's request context, so the line names its request id itself.
  const { requestId } = request;
  if (rendered.status === HttpStatus.SERVICE_UNAVAILABLE && rendered.body.code === 'request.databaseUnavailable') {
    // An outage fails every request alike: one line each, without the stack.
    logger.warn({ message: `${request.method} ${path} [${requestId}]: database unavailable (${(error as Error)?.message})`, requestId });
  } else if (rendered.status >= 500 && !(error instanceof ApiException)) {
    // Our own bug: full detail in the log under the request id, none in the answer.
    logger.error({ message: `${request.method} ${path} failed [${requestId}]`, requestId, err: error });
  }
  return rendered;
}

/** Answers a failed request through Express with its rendered error (the filter's answer). */
export function answerApiError(error: unknown, request: Request, response: Response, logger: Logger): void {
  const { status, body, retryAfter } = renderLoggedApiError(
    error,
    { method: request.method, url: request.originalUrl, requestId: request.requestId },
    logger,
  );
  if (response.headersSent) return;
  if (retryAfter) response.setHeader('Retry-After', String(retryAfter));
  response.status(status).json(body);
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    answerApiError(error, host.switchToHttp().getRequest<Request>(), host.switchToHttp().getResponse<Response>(), this.logger);
  }
}
