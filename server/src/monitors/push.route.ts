import { Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MESSAGES, type MessageCode } from '@vigil/proto';
import { answerApiError } from '../common/api-exception.filter';
import { badRequest } from '../common/api-exception';
import { normalizeAddress } from '../common/client-address';
import { envelope } from '../common/reply';
import { isCleanText } from '../common/text-rule';
import { PUSH_MESSAGE_MAX, PUSH_PING_MAX_MS, readPushQuery } from './push.dto';
import { PushService, TOKEN_SHAPE } from './push.service';

/** Where the route is mounted; `{token}` is the one segment below it. */
export const PUSH_PATH = '/api/push';

/** The methods a push may use: Kuma's documented GET and POST, and HEAD, which Express answered as GET before. */
const METHODS = new Set(['GET', 'HEAD', 'POST']);

/** The success answer is the same bytes for every push. */
const RECORDED = JSON.stringify(envelope({ ok: true }, 'push.recorded'));
const RECORDED_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(RECORDED) };

/**
 * `GET` or `POST /api/push/{token}?status=up|down&msg=&ping=`: Uptime Kuma's push URL; the token is the credential.
 *
 * A plain Express handler, mounted ahead of Nest's routes: at a thousand push monitors the pushes are a steady stream of
 * requests, and Nest's pipeline (router walk, guard, validation pipe, interceptor, `res.json`) cost more than half
 * of each one's CPU (1.45 → 0.65 ms per push, docs/benchmarks.md). It keeps the API's rules: the same security
 * headers and request id (mounted after them), the client address as `trust proxy` says, the query rules of every
 * query (readPushQuery) and the error answers of ApiExceptionFilter.
 */
export function pushRoute(pushes: PushService): RequestHandler {
  const logger = new Logger('PushRoute');
  return (req: Request, res: Response, next: NextFunction) => {
    const token = tokenOf(req.path);
    // Anything else under /api/push (another method, a deeper path) is not a route: Nest answers 404 as for any.
    if (token === null || !METHODS.has(req.method)) return next();
    let query;
    try {
      if (!isCleanText(token)) throw badRequest('validation.textInvalid');
      const at = req.originalUrl.indexOf('?');
      query = readPushQuery(new URLSearchParams(at === -1 ? '' : req.originalUrl.slice(at + 1)));
    } catch (error) {
      answerApiError(error, req, res, logger);
      return;
    }
    pushes.push(token, query, normalizeAddress(req.ip)).then(
      () => res.writeHead(200, RECORDED_HEADERS).end(RECORDED),
      (error: unknown) => answerApiError(error, req, res, logger),
    );
  };
}

/** The token of `/{token}` (one trailing slash allowed, as for every route), decoded; null for any other path. */
function tokenOf(path: string): string | null {
  const segment = path.endsWith('/') ? path.slice(1, -1) : path.slice(1);
  if (segment === '' || segment.includes('/')) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: no token looks like it, so it is unknown (and counted as a miss).
    return segment;
  }
}

const answer = (description: string, code?: MessageCode) => ({
  description,
  content: { 'application/json': { example: code ? { success: false, message: MESSAGES[code], code } : JSON.parse(RECORDED) } },
});

/** The route in the OpenAPI document (it is not a Nest route, so Swagger cannot find it). */
export function pushOpenApi(): OpenAPIObject['paths'][string] {
  const operation = (method: string) => ({
    tags: ['push'],
    operationId: `PushController_${method}`,
    summary: "Records a push (heartbeat) of a push monitor; Uptime Kuma's push URL",
    parameters: [
      { name: 'token', in: 'path' as const, required: true, schema: { type: 'string', pattern: TOKEN_SHAPE.source } },
      { name: 'status', in: 'query' as const, required: false, schema: { type: 'string', enum: ['up', 'down'], default: 'up' } },
      {
        name: 'msg',
        in: 'query' as const,
        required: false,
        description: 'Shown in the history when down; the body assertions read it',
        schema: { type: 'string', maxLength: PUSH_MESSAGE_MAX },
      },
      {
        name: 'ping',
        in: 'query' as const,
        required: false,
        description: 'Milliseconds, recorded as the response time',
        schema: { type: 'number', minimum: 0, maximum: PUSH_PING_MAX_MS },
      },
    ],
    responses: {
      200: answer('Recorded'),
      400: answer('A query value refused', 'push.statusInvalid'),
      404: answer('Unknown token, or the monitor is paused', 'push.notFound'),
      429: answer('Too many pushes from this address or for this token', 'request.tooMany'),
    },
  });
  return { get: operation('get'), post: operation('post') };
}
